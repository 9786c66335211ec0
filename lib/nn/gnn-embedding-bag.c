/* gnn-embedding-bag.c: bags of embeddings (torch.nn.EmbeddingBag)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"

/**
 * GnnEmbeddingBag:
 *
 * `torch.nn.EmbeddingBag`: a `weight` table `[num_embeddings,
 * embedding_dim]` drawn from N(0, 1) (the padding row zero) and a call
 * `(input, offsets=None, per_sample_weights=None)` giving each bag's sum,
 * mean or maximum ([method@Gnn.Tensor.embedding_bag]).
 *
 * Since: 0.1
 */

#define NO_PADDING_IDX G_MININT64

struct _GnnEmbeddingBag
{
  GnnModule     parent_instance;
  gint64        num_embeddings, embedding_dim, padding_idx;
  double        max_norm, norm_type;
  gboolean      scale_grad_by_freq, include_last_offset;
  char         *mode;
  GnnGenerator *generator;   /* construction only */
};

enum
{
  PROP_0,
  PROP_NUM_EMBEDDINGS,
  PROP_EMBEDDING_DIM,
  PROP_MAX_NORM,
  PROP_NORM_TYPE,
  PROP_SCALE_GRAD_BY_FREQ,
  PROP_MODE,
  PROP_INCLUDE_LAST_OFFSET,
  PROP_PADDING_IDX,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnEmbeddingBag, gnn_embedding_bag, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static gint64
padding_row (GnnEmbeddingBag *self)
{
  return self->padding_idx == NO_PADDING_IDX ? -1 : self->padding_idx;
}

static void
gnn_embedding_bag_constructed (GObject *object)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (object);
  g_autoptr(GnnParameter) p = NULL;
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_embedding_bag_parent_class)->constructed (object);
  /* torch's asserts, and its normalization of a negative padding_idx */
  if (self->padding_idx != NO_PADDING_IDX &&
      (self->padding_idx >= self->num_embeddings || self->padding_idx < -self->num_embeddings))
    g_set_error_literal (&error, GNN_ERROR, GNN_ERROR_INDEX,
                         self->padding_idx >= self->num_embeddings ? "padding_idx must be within num_embeddings"
                                                                   : "padding_idx must be within num_embedding");
  else
    {
      if (self->padding_idx != NO_PADDING_IDX && self->padding_idx < 0)
        self->padding_idx += self->num_embeddings;
      p = gnn_nn_embedding_weight_new (self->num_embeddings, self->embedding_dim, padding_row (self),
                                       self->generator, &error);
      if (p == NULL)
        g_prefix_error (&error, "EmbeddingBag: ");
    }
  gnn_module_register_parameter (GNN_MODULE (object), "weight", p, NULL);
  if (error != NULL)
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&self->generator);
}

static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  return gnn_nn_embedding_reset (module, padding_row (GNN_EMBEDDING_BAG (module)), error);
}

/* torch's forward(input, offsets=None, per_sample_weights=None) */
static GnnValue *
gnn_embedding_bag_forward_args (GnnModule  *module,
                                GnnValue   *args,
                                GnnValue   *kwargs,
                                GError    **error)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (module);
  GnnTensor *input, *offsets = NULL, *psw = NULL, *weight, *out;

  if (!gnn_args_parse (args, kwargs, "EmbeddingBag.forward", error, "input", GNN_ARG_TENSOR, &input,
                       "offsets", GNN_ARG_OPTIONAL_TENSOR, &offsets,
                       "per_sample_weights", GNN_ARG_OPTIONAL_TENSOR, &psw, NULL))
    return NULL;
  if (!gnn_nn_check_constructed (module, error) || (weight = gnn_nn_weight (module, "weight", error)) == NULL)
    return NULL;
  out = gnn_tensor_embedding_bag (input, weight, offsets, self->max_norm, self->norm_type,
                                  self->scale_grad_by_freq, self->mode, psw, self->include_last_offset,
                                  self->padding_idx != NO_PADDING_IDX, self->padding_idx, error);
  return out != NULL ? gnn_value_take_tensor (out) : NULL;
}

static char *
gnn_embedding_bag_extra_repr (GnnModule *module)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (module);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT, self->num_embeddings, self->embedding_dim);
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
  g_string_append_printf (s, ", mode=%s", self->mode != NULL ? self->mode : "None");
  if (self->padding_idx != NO_PADDING_IDX)
    g_string_append_printf (s, ", padding_idx=%" G_GINT64_FORMAT, self->padding_idx);
  return g_string_free (s, FALSE);
}

static void
gnn_embedding_bag_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (object);

  switch (prop_id)
    {
    case PROP_NUM_EMBEDDINGS: g_value_set_int64 (value, self->num_embeddings); break;
    case PROP_EMBEDDING_DIM: g_value_set_int64 (value, self->embedding_dim); break;
    case PROP_MAX_NORM: g_value_set_double (value, self->max_norm); break;
    case PROP_NORM_TYPE: g_value_set_double (value, self->norm_type); break;
    case PROP_SCALE_GRAD_BY_FREQ: g_value_set_boolean (value, self->scale_grad_by_freq); break;
    case PROP_MODE: g_value_set_string (value, self->mode); break;
    case PROP_INCLUDE_LAST_OFFSET: g_value_set_boolean (value, self->include_last_offset); break;
    case PROP_PADDING_IDX: g_value_set_int64 (value, self->padding_idx); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_embedding_bag_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (object);

  switch (prop_id)
    {
    case PROP_NUM_EMBEDDINGS: self->num_embeddings = g_value_get_int64 (value); break;
    case PROP_EMBEDDING_DIM: self->embedding_dim = g_value_get_int64 (value); break;
    case PROP_MAX_NORM: self->max_norm = g_value_get_double (value); break;
    case PROP_NORM_TYPE: self->norm_type = g_value_get_double (value); break;
    case PROP_SCALE_GRAD_BY_FREQ: self->scale_grad_by_freq = g_value_get_boolean (value); break;
    case PROP_MODE: g_free (self->mode); self->mode = g_value_dup_string (value); break;
    case PROP_INCLUDE_LAST_OFFSET: self->include_last_offset = g_value_get_boolean (value); break;
    case PROP_PADDING_IDX: self->padding_idx = g_value_get_int64 (value); break;
    case PROP_GENERATOR: g_set_object (&self->generator, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_embedding_bag_finalize (GObject *object)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (object);

  g_clear_object (&self->generator);
  g_free (self->mode);
  G_OBJECT_CLASS (gnn_embedding_bag_parent_class)->finalize (object);
}

static void
gnn_embedding_bag_class_init (GnnEmbeddingBagClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_embedding_bag_constructed;
  object_class->finalize = gnn_embedding_bag_finalize;
  object_class->get_property = gnn_embedding_bag_get_property;
  object_class->set_property = gnn_embedding_bag_set_property;
  module_class->forward_args = gnn_embedding_bag_forward_args;
  module_class->extra_repr = gnn_embedding_bag_extra_repr;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnEmbeddingBag:num-embeddings:
   *
   * The number of rows of the table (`num_embeddings`).
   *
   * Since: 0.1
   */
  properties[PROP_NUM_EMBEDDINGS] = g_param_spec_int64 ("num-embeddings", NULL, NULL, 0, G_MAXINT32, 1, flags);
  /**
   * GnnEmbeddingBag:embedding-dim:
   *
   * The size of each row (`embedding_dim`).
   *
   * Since: 0.1
   */
  properties[PROP_EMBEDDING_DIM] = g_param_spec_int64 ("embedding-dim", NULL, NULL, 0, G_MAXINT32, 1, flags);
  /**
   * GnnEmbeddingBag:max-norm:
   *
   * Rows looked up with a larger norm are rescaled to it in place
   * (`max_norm`); infinity: none (torch's `None`).
   *
   * Since: 0.1
   */
  properties[PROP_MAX_NORM] = g_param_spec_double ("max-norm", NULL, NULL, -INFINITY, INFINITY, INFINITY, flags);
  /**
   * GnnEmbeddingBag:norm-type:
   *
   * The p of the norm [property@Gnn.EmbeddingBag:max-norm] bounds (`norm_type`).
   *
   * Since: 0.1
   */
  properties[PROP_NORM_TYPE] = g_param_spec_double ("norm-type", NULL, NULL, -INFINITY, INFINITY, 2.0, flags);
  /**
   * GnnEmbeddingBag:scale-grad-by-freq:
   *
   * Whether each row's gradient is divided by its number of lookups in the
   * call (`scale_grad_by_freq`; not with mode "max").
   *
   * Since: 0.1
   */
  properties[PROP_SCALE_GRAD_BY_FREQ] = g_param_spec_boolean ("scale-grad-by-freq", NULL, NULL, FALSE, flags);
  /**
   * GnnEmbeddingBag:mode:
   *
   * How a bag reduces its rows: "sum", "mean" or "max" (`mode`); forward
   * refuses any other with torch's message.
   *
   * Since: 0.1
   */
  properties[PROP_MODE] = g_param_spec_string ("mode", NULL, NULL, "mean", flags);
  /**
   * GnnEmbeddingBag:include-last-offset:
   *
   * Whether the last offset ends the last bag (`include_last_offset`).
   *
   * Since: 0.1
   */
  properties[PROP_INCLUDE_LAST_OFFSET] = g_param_spec_boolean ("include-last-offset", NULL, NULL, FALSE, flags);
  /**
   * GnnEmbeddingBag:padding-idx:
   *
   * A row the bags skip, whose weight stays zero (`padding_idx`; negative
   * counts from the end and reads back normalized); %G_MININT64: none.
   *
   * Since: 0.1
   */
  properties[PROP_PADDING_IDX] = g_param_spec_int64 ("padding-idx", NULL, NULL, G_MININT64, G_MAXINT32,
                                                     NO_PADDING_IDX, flags);
  /**
   * GnnEmbeddingBag:generator:
   *
   * The generator the initial weight is drawn from (the default one when
   * unset).
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] = g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                                                    G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY |
                                                    G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_embedding_bag_init (GnnEmbeddingBag *self)
{
  self->num_embeddings = self->embedding_dim = 1;
  self->padding_idx = NO_PADDING_IDX;
  self->max_norm = INFINITY;
  self->norm_type = 2.0;
  self->mode = g_strdup ("mean");
}
