/* gnn-embedding.c: lookup table of embeddings (torch.nn.Embedding)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "tensor/gnn-tensor-private.h"

/* The padding-idx property's "no padding row" (torch's None). */
#define NO_PADDING_IDX G_MININT64

/**
 * GnnEmbedding:
 *
 * A lookup table, `torch.nn.Embedding`: the input is a tensor of int64 (or
 * int32) indices and the output holds the rows of the `weight` parameter
 * (`[num_embeddings, embedding_dim]`, initialized from N(0, 1) like
 * PyTorch's) at those indices, computed by
 * [method@Gnn.Tensor.embedding_full].
 *
 * A padding row ([property@Gnn.Embedding:padding-idx]) starts at zeros and
 * gets no gradient; with [property@Gnn.Embedding:max-norm] the rows looked
 * up are first rescaled in place to that norm at most
 * ([method@Gnn.Tensor.embedding_renorm_]), as torch does.
 *
 * Since: 0.1
 */
typedef struct
{
  gint64        num_embeddings;
  gint64        embedding_dim;
  gint64        padding_idx;
  double        max_norm;
  double        norm_type;
  gboolean      scale_grad_by_freq;
  GnnGenerator *generator;
} GnnEmbeddingPrivate;

G_DEFINE_TYPE_WITH_CODE (GnnEmbedding, gnn_embedding, GNN_TYPE_MODULE,
                         G_ADD_PRIVATE (GnnEmbedding)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define PRIV(obj) ((GnnEmbeddingPrivate *) gnn_embedding_get_instance_private ((GnnEmbedding *) (obj)))

enum
{
  PROP_0,
  PROP_NUM_EMBEDDINGS,
  PROP_EMBEDDING_DIM,
  PROP_PADDING_IDX,
  PROP_MAX_NORM,
  PROP_NORM_TYPE,
  PROP_SCALE_GRAD_BY_FREQ,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* torch's _fill_padding_idx_with_zero (@padding_row -1: none). */
static gboolean
zero_padding_row (GnnTensor  *weight,
                  gint64      padding_row,
                  GError    **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) row = NULL;

  if (padding_row < 0 || gnn_tensor_get_shape (weight, NULL)[1] == 0)
    return TRUE;
  guard = gnn_no_grad_guard_new ();
  row = gnn_tensor_select (weight, 0, padding_row, error);
  return row != NULL && gnn_tensor_fill_ (row, 0.0, error);
}

gboolean
gnn_nn_embedding_reset (GnnModule  *module,
                        gint64      padding_row,
                        GError    **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();   /* writes into the weight */
  GObject *w = gnn_module_get_child (module, "weight", NULL);
  gboolean ok;

  if (w == NULL)
    return TRUE;
  if (!gnn_tensor_materialize (GNN_TENSOR (w), error))
    return FALSE;
  ok = gnn_tensor_normal_ (GNN_TENSOR (w), 0.0, 1.0, gnn_nn_default_generator_lock (), error);
  gnn_nn_default_generator_unlock ();
  return ok && zero_padding_row (GNN_TENSOR (w), padding_row, error);
}

GnnParameter *
gnn_nn_embedding_weight_new (gint64         num_embeddings,
                             gint64         embedding_dim,
                             gint64         padding_row,
                             GnnGenerator  *generator,
                             GError       **error)
{
  gint64 shape[2] = { num_embeddings, embedding_dim };
  g_autoptr(GnnTensor) w = gnn_tensor_empty (shape, 2, GNN_DTYPE_F32, error);
  GnnGenerator *gen = generator;
  gboolean ok;

  if (w == NULL)
    return NULL;
  if (gen == NULL)
    gen = gnn_nn_default_generator_lock ();
  ok = gnn_tensor_normal_ (w, 0.0, 1.0, gen, error);
  if (generator == NULL)
    gnn_nn_default_generator_unlock ();
  if (!ok || !zero_padding_row (w, padding_row, error))
    return NULL;
  return gnn_parameter_new (w, TRUE);
}

/* N(0, 1) from the default generator, as PyTorch's reset_parameters. */
static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  gint64 padding = PRIV (module)->padding_idx;

  return gnn_nn_embedding_reset (module, padding == NO_PADDING_IDX ? -1 : padding, error);
}

static void
gnn_embedding_constructed (GObject *object)
{
  GnnEmbeddingPrivate *self = PRIV (object);
  GError *error = NULL;
  g_autoptr(GnnParameter) p = NULL;
  gboolean ok;

  G_OBJECT_CLASS (gnn_embedding_parent_class)->constructed (object);

  /* torch's check, and its normalization of a negative padding_idx */
  ok = self->padding_idx == NO_PADDING_IDX ||
       (self->padding_idx < self->num_embeddings && self->padding_idx >= -self->num_embeddings);
  if (!ok)
    g_set_error_literal (&error, GNN_ERROR, GNN_ERROR_INDEX, "Padding_idx must be within num_embeddings");
  else if (self->padding_idx != NO_PADDING_IDX && self->padding_idx < 0)
    self->padding_idx += self->num_embeddings;
  /* A size whose bytes overflow or out of memory: an empty weight slot and
   * the error for GInitable and forward. */
  if (ok)
    p = gnn_nn_embedding_weight_new (self->num_embeddings, self->embedding_dim,
                                     self->padding_idx == NO_PADDING_IDX ? -1 : self->padding_idx,
                                     self->generator, &error);
  gnn_module_register_parameter (GNN_MODULE (object), "weight", p, NULL);
  if (p == NULL)
    {
      if (!g_error_matches (error, GNN_ERROR, GNN_ERROR_INDEX))
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
  GnnEmbeddingPrivate *self;
  GnnTensor *weight;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  weight = gnn_nn_weight (module, "weight", error);
  if (weight == NULL)
    return NULL;
  self = PRIV (module);
  if (isfinite (self->max_norm) &&
      !gnn_tensor_embedding_renorm_ (weight, input, self->max_norm, self->norm_type, error))
    return NULL;
  return gnn_tensor_embedding_full (weight, input, self->padding_idx != NO_PADDING_IDX,
                                    self->padding_idx, self->scale_grad_by_freq, error);
}

static char *
gnn_embedding_extra_repr (GnnModule *module)
{
  GnnEmbeddingPrivate *self = PRIV (module);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT, self->num_embeddings,
                          self->embedding_dim);
  if (self->padding_idx != NO_PADDING_IDX)
    g_string_append_printf (s, ", padding_idx=%" G_GINT64_FORMAT, self->padding_idx);
  if (isfinite (self->max_norm))
    {
      g_autofree char *v = gnn_nn_format_float (self->max_norm);

      g_string_append_printf (s, ", max_norm=%s", v);
    }
  if (self->norm_type != 2.0)
    {
      g_autofree char *v = gnn_nn_format_float (self->norm_type);

      g_string_append_printf (s, ", norm_type=%s", v);
    }
  if (self->scale_grad_by_freq)
    g_string_append (s, ", scale_grad_by_freq=True");
  return g_string_free (s, FALSE);
}

static void
gnn_embedding_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  GnnEmbeddingPrivate *self = PRIV (object);

  switch (prop_id)
    {
    case PROP_NUM_EMBEDDINGS:
      g_value_set_int64 (value, self->num_embeddings);
      break;
    case PROP_EMBEDDING_DIM:
      g_value_set_int64 (value, self->embedding_dim);
      break;
    case PROP_PADDING_IDX:
      g_value_set_int64 (value, self->padding_idx);
      break;
    case PROP_MAX_NORM:
      g_value_set_double (value, self->max_norm);
      break;
    case PROP_NORM_TYPE:
      g_value_set_double (value, self->norm_type);
      break;
    case PROP_SCALE_GRAD_BY_FREQ:
      g_value_set_boolean (value, self->scale_grad_by_freq);
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
  GnnEmbeddingPrivate *self = PRIV (object);

  switch (prop_id)
    {
    case PROP_NUM_EMBEDDINGS:
      self->num_embeddings = g_value_get_int64 (value);
      break;
    case PROP_EMBEDDING_DIM:
      self->embedding_dim = g_value_get_int64 (value);
      break;
    case PROP_PADDING_IDX:
      self->padding_idx = g_value_get_int64 (value);
      break;
    case PROP_MAX_NORM:
      self->max_norm = g_value_get_double (value);
      break;
    case PROP_NORM_TYPE:
      self->norm_type = g_value_get_double (value);
      break;
    case PROP_SCALE_GRAD_BY_FREQ:
      self->scale_grad_by_freq = g_value_get_boolean (value);
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
  g_clear_object (&PRIV (object)->generator);

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
   * GnnEmbedding:padding-idx:
   *
   * The padding row (`padding_idx`): it starts at zeros and its entries get
   * no gradient. A negative value counts from the end (it reads back
   * normalized); %G_MININT64, the default, means none (torch's `None`).
   *
   * Since: 0.1
   */
  properties[PROP_PADDING_IDX] =
    g_param_spec_int64 ("padding-idx", NULL, NULL, G_MININT64, G_MAXINT32, NO_PADDING_IDX,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnEmbedding:max-norm:
   *
   * The largest norm a looked-up row may keep (`max_norm`): rows above it
   * are rescaled in place before each lookup. Infinity, the default, means
   * no limit (torch's `None`).
   *
   * Since: 0.1
   */
  properties[PROP_MAX_NORM] =
    g_param_spec_double ("max-norm", NULL, NULL, -INFINITY, INFINITY, INFINITY,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnEmbedding:norm-type:
   *
   * The p of the p-norm compared with [property@Gnn.Embedding:max-norm]
   * (`norm_type`).
   *
   * Since: 0.1
   */
  properties[PROP_NORM_TYPE] =
    g_param_spec_double ("norm-type", NULL, NULL, -INFINITY, INFINITY, 2.0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnEmbedding:scale-grad-by-freq:
   *
   * Whether each row's gradient is divided by the number of times the
   * input looks it up (`scale_grad_by_freq`).
   *
   * Since: 0.1
   */
  properties[PROP_SCALE_GRAD_BY_FREQ] =
    g_param_spec_boolean ("scale-grad-by-freq", NULL, NULL, FALSE,
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
gnn_embedding_init (GnnEmbedding *object)
{
  GnnEmbeddingPrivate *self = PRIV (object);

  self->num_embeddings = 1;
  self->embedding_dim = 1;
  self->padding_idx = NO_PADDING_IDX;
  self->max_norm = INFINITY;
  self->norm_type = 2.0;
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

/**
 * gnn_embedding_new_full:
 * @num_embeddings: the number of rows of the table (>= 0)
 * @embedding_dim: the size of each embedding vector (>= 0)
 * @padding_idx: the padding row (negative counts from the end), or
 *   %G_MININT64 for none
 * @max_norm: the largest norm of a looked-up row, or infinity for no limit
 * @norm_type: the p of the p-norm compared with @max_norm (PyTorch's
 *   default is 2)
 * @scale_grad_by_freq: whether each row's gradient is divided by its
 *   number of lookups
 * @generator: (nullable): the generator for the initial weights, or %NULL
 *   for the library's default one
 * @error: return location for a #GError
 *
 * Creates `torch.nn.Embedding(num_embeddings, embedding_dim, padding_idx,
 * max_norm, norm_type, scale_grad_by_freq)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   ("Padding_idx must be within num_embeddings", a size out of range)
 *
 * Since: 0.1
 */
GnnEmbedding *
gnn_embedding_new_full (gint64         num_embeddings,
                        gint64         embedding_dim,
                        gint64         padding_idx,
                        double         max_norm,
                        double         norm_type,
                        gboolean       scale_grad_by_freq,
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
  if (padding_idx != NO_PADDING_IDX && (padding_idx >= num_embeddings || padding_idx < -num_embeddings))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "Padding_idx must be within num_embeddings");
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_EMBEDDING, error, "num-embeddings", num_embeddings,
                              "embedding-dim", embedding_dim, "padding-idx", padding_idx, "max-norm", max_norm,
                              "norm-type", norm_type, "scale-grad-by-freq", scale_grad_by_freq,
                              "generator", generator, NULL);
}
