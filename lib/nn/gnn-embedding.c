/* gnn-embedding.c: lookup table of embeddings (torch.nn.Embedding)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "tensor/gnn-tensor-private.h"

/**
 * GnnEmbedding:
 *
 * A lookup table, `torch.nn.Embedding`: the input is a tensor of int64 (or
 * int32) indices and the output holds the rows of the `weight` parameter
 * (`[num_embeddings, embedding_dim]`, initialized from N(0, 1) like
 * PyTorch's) at those indices, computed by [method@Gnn.Tensor.embedding].
 *
 * Since: 0.1
 */
struct _GnnEmbedding
{
  GnnModule     parent_instance;
  gint64        num_embeddings;
  gint64        embedding_dim;
  GnnGenerator *generator;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnEmbedding, gnn_embedding, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

enum
{
  PROP_0,
  PROP_NUM_EMBEDDINGS,
  PROP_EMBEDDING_DIM,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* N(0, 1) from the default generator, as PyTorch's reset_parameters. */
static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  GObject *w = gnn_module_get_child (module, "weight", NULL);
  gboolean ok;

  if (w == NULL)
    return TRUE;
  if (!gnn_tensor_materialize (GNN_TENSOR (w), error))
    return FALSE;
  ok = gnn_tensor_normal_ (GNN_TENSOR (w), 0.0, 1.0, gnn_nn_default_generator_lock (), error);
  gnn_nn_default_generator_unlock ();
  return ok;
}

static void
gnn_embedding_constructed (GObject *object)
{
  GnnEmbedding *self = GNN_EMBEDDING (object);
  gint64 shape[2] = { self->num_embeddings, self->embedding_dim };
  GnnGenerator *gen = self->generator;
  GError *error = NULL;
  g_autoptr(GnnTensor) w = NULL;
  gboolean ok;

  G_OBJECT_CLASS (gnn_embedding_parent_class)->constructed (object);

  /* A size whose bytes overflow or out of memory: an empty weight slot and
   * the error for GInitable and forward. */
  w = gnn_tensor_empty (shape, 2, GNN_DTYPE_F32, &error);
  ok = w != NULL;
  if (ok)
    {
      if (gen == NULL)
        gen = gnn_nn_default_generator_lock ();
      ok = gnn_tensor_normal_ (w, 0.0, 1.0, gen, &error);
      if (self->generator == NULL)
        gnn_nn_default_generator_unlock ();
    }
  if (ok)
    {
      g_autoptr(GnnParameter) p = gnn_parameter_new (w, TRUE);

      gnn_module_register_parameter (GNN_MODULE (self), "weight", p, NULL);
    }
  else
    {
      gnn_module_register_parameter (GNN_MODULE (self), "weight", NULL, NULL);
      g_prefix_error (&error, "Embedding: ");
      gnn_nn_set_construct_error (object, error);
    }
  g_clear_object (&self->generator);
}

static GnnTensor *
gnn_embedding_forward (GnnModule  *module,
                       GnnTensor  *input,
                       GError    **error)
{
  GnnParameter *weight;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  weight = gnn_module_get_parameter (module, "weight", error);
  if (weight == NULL)
    return NULL;
  return gnn_tensor_embedding (GNN_TENSOR (weight), input, error);
}

static char *
gnn_embedding_extra_repr (GnnModule *module)
{
  GnnEmbedding *self = GNN_EMBEDDING (module);

  return g_strdup_printf ("%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT,
                          self->num_embeddings, self->embedding_dim);
}

static void
gnn_embedding_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  GnnEmbedding *self = GNN_EMBEDDING (object);

  switch (prop_id)
    {
    case PROP_NUM_EMBEDDINGS:
      g_value_set_int64 (value, self->num_embeddings);
      break;
    case PROP_EMBEDDING_DIM:
      g_value_set_int64 (value, self->embedding_dim);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_embedding_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  GnnEmbedding *self = GNN_EMBEDDING (object);

  switch (prop_id)
    {
    case PROP_NUM_EMBEDDINGS:
      self->num_embeddings = g_value_get_int64 (value);
      break;
    case PROP_EMBEDDING_DIM:
      self->embedding_dim = g_value_get_int64 (value);
      break;
    case PROP_GENERATOR:
      g_set_object (&self->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_embedding_dispose (GObject *object)
{
  g_clear_object (&GNN_EMBEDDING (object)->generator);

  G_OBJECT_CLASS (gnn_embedding_parent_class)->dispose (object);
}

static void
gnn_embedding_class_init (GnnEmbeddingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_embedding_constructed;
  object_class->dispose = gnn_embedding_dispose;
  object_class->get_property = gnn_embedding_get_property;
  object_class->set_property = gnn_embedding_set_property;
  module_class->forward = gnn_embedding_forward;
  module_class->extra_repr = gnn_embedding_extra_repr;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnEmbedding:num-embeddings:
   *
   * The number of rows of the table (`num_embeddings`).
   *
   * Since: 0.1
   */
  properties[PROP_NUM_EMBEDDINGS] =
    g_param_spec_int64 ("num-embeddings", NULL, NULL, 0, G_MAXINT32, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnEmbedding:embedding-dim:
   *
   * The size of each embedding vector (`embedding_dim`).
   *
   * Since: 0.1
   */
  properties[PROP_EMBEDDING_DIM] =
    g_param_spec_int64 ("embedding-dim", NULL, NULL, 0, G_MAXINT32, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnEmbedding:generator:
   *
   * The generator the initial weights are drawn from, used during
   * construction only (so it is write-only); %NULL means the library's
   * default generator.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_embedding_init (GnnEmbedding *self)
{
  self->num_embeddings = 1;
  self->embedding_dim = 1;
}

/**
 * gnn_embedding_new:
 * @num_embeddings: the number of rows of the table (>= 0)
 * @embedding_dim: the size of each embedding vector (>= 0)
 * @generator: (nullable): the generator for the initial weights, or %NULL
 *   for the library's default one
 * @error: return location for a #GError
 *
 * Creates an embedding table, `torch.nn.Embedding(num_embeddings,
 * embedding_dim)`, with weights drawn from N(0, 1).
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) if a size is negative or too large
 *
 * Since: 0.1
 */
GnnEmbedding *
gnn_embedding_new (gint64         num_embeddings,
                   gint64         embedding_dim,
                   GnnGenerator  *generator,
                   GError       **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);

  if (num_embeddings < 0 || num_embeddings > G_MAXINT32 ||
      embedding_dim < 0 || embedding_dim > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Embedding: invalid size (num_embeddings=%" G_GINT64_FORMAT
                   ", embedding_dim=%" G_GINT64_FORMAT ")", num_embeddings, embedding_dim);
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_EMBEDDING, error, "num-embeddings", num_embeddings,
                              "embedding-dim", embedding_dim, "generator", generator, NULL);
}
