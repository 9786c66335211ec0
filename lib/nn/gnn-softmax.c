/* gnn-softmax.c: the softmax family along a dimension (torch.nn.Softmax,
 * torch.nn.LogSoftmax, torch.nn.Softmin): one implementation, the variant
 * a switch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"

/**
 * GnnSoftmax:
 *
 * Applies the softmax along [property@Gnn.Softmax:dim], like
 * `torch.nn.Softmax(dim)`: the outputs along that dimension are positive and
 * sum to 1.
 *
 * [property@Gnn.Softmax:dim] is %GNN_SOFTMAX_DIM_NONE by default, PyTorch's
 * `dim=None` (printed as `dim=None`), which picks the dimension as PyTorch's
 * deprecated implicit choice does: 0 for inputs of 0, 1 or 3 dimensions,
 * else 1.
 *
 * Since: 0.1
 */

/**
 * GnnLogSoftmax:
 *
 * Applies log(softmax(x)) along [property@Gnn.LogSoftmax:dim], computed
 * stably, like `torch.nn.LogSoftmax(dim)`.
 *
 * [property@Gnn.LogSoftmax:dim] is %GNN_SOFTMAX_DIM_NONE by default,
 * PyTorch's `dim=None` (printed as `dim=None`), which picks the dimension as
 * PyTorch's deprecated implicit choice does: 0 for inputs of 0, 1 or 3
 * dimensions, else 1.
 *
 * Since: 0.1
 */

/**
 * GnnSoftmin:
 *
 * Applies the softmax of `-x` along [property@Gnn.Softmin:dim], like
 * `torch.nn.Softmin(dim)` (see [method@Gnn.Tensor.softmin]): the outputs
 * along that dimension are positive and sum to 1, the largest inputs
 * getting the smallest.
 *
 * [property@Gnn.Softmin:dim] is %GNN_SOFTMAX_DIM_NONE by default, PyTorch's
 * `dim=None`, with PyTorch's implicit choice of dimension (0 for inputs of
 * 0, 1 or 3 dimensions, else 1).
 *
 * Since: 0.1
 */

typedef enum
{
  KIND_SOFTMAX,
  KIND_LOG_SOFTMAX,
  KIND_SOFTMIN,
} SoftmaxKind;

/* The layers hold the same configuration; `kind` is fixed by the type. */
typedef struct
{
  gint        dim;
  SoftmaxKind kind;
} SoftmaxFamily;

struct _GnnSoftmax
{
  GnnModule     parent_instance;
  SoftmaxFamily family;
};

struct _GnnLogSoftmax
{
  GnnModule     parent_instance;
  SoftmaxFamily family;
};

struct _GnnSoftmin
{
  GnnModule     parent_instance;
  SoftmaxFamily family;
};

enum {
  PROP_0,
  PROP_DIM,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnSoftmax, gnn_softmax, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnLogSoftmax, gnn_log_softmax, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnSoftmin, gnn_softmin, GNN_TYPE_MODULE)

static SoftmaxFamily *
family (gpointer object)
{
  if (GNN_IS_LOG_SOFTMAX (object))
    return &GNN_LOG_SOFTMAX (object)->family;
  if (GNN_IS_SOFTMIN (object))
    return &GNN_SOFTMIN (object)->family;
  return &GNN_SOFTMAX (object)->family;
}

/* PyTorch's _get_softmax_dim: @dim, or for GNN_SOFTMAX_DIM_NONE 0 for
 * inputs of 0, 1 or 3 dimensions, else 1. */
static gint
resolve_dim (gint       dim,
             GnnTensor *input)
{
  guint ndim;

  if (dim != GNN_SOFTMAX_DIM_NONE)
    return dim;
  ndim = gnn_tensor_get_ndim (input);
  return ndim == 0 || ndim == 1 || ndim == 3 ? 0 : 1;
}

static GnnTensor *
family_forward (GnnModule  *module,
                GnnTensor  *input,
                GError    **error)
{
  SoftmaxFamily *f = family (module);
  gint dim = resolve_dim (f->dim, input);

  switch (f->kind)
    {
    case KIND_LOG_SOFTMAX:
      return gnn_tensor_log_softmax (input, dim, error);
    case KIND_SOFTMIN:
      return gnn_tensor_softmin (input, dim, error);
    default:
      return gnn_tensor_softmax (input, dim, error);
    }
}

static char *
family_extra_repr (GnnModule *module)
{
  gint dim = family (module)->dim;

  if (dim == GNN_SOFTMAX_DIM_NONE)
    return g_strdup ("dim=None");
  return g_strdup_printf ("dim=%d", dim);
}

static void
family_get_property (GObject    *object,
                     guint       prop_id,
                     GValue     *value,
                     GParamSpec *pspec)
{
  if (prop_id == PROP_DIM)
    g_value_set_int (value, family (object)->dim);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
family_set_property (GObject      *object,
                     guint         prop_id,
                     const GValue *value,
                     GParamSpec   *pspec)
{
  if (prop_id == PROP_DIM)
    family (object)->dim = g_value_get_int (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
family_class_init (GObjectClass *object_class)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (object_class);

  object_class->get_property = family_get_property;
  object_class->set_property = family_set_property;
  module_class->forward = family_forward;
  module_class->extra_repr = family_extra_repr;
  /* Any int is a valid dim for construction: an out-of-range one is the
   * input's business and fails in forward with PyTorch's IndexError. */
  g_object_class_install_property (object_class, PROP_DIM,
    g_param_spec_int ("dim", NULL, NULL, G_MININT, G_MAXINT, GNN_SOFTMAX_DIM_NONE,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS));
}

static void
gnn_softmax_class_init (GnnSoftmaxClass *klass)
{
  /**
   * GnnSoftmax:dim:
   *
   * The dimension along which the softmax is computed, or
   * %GNN_SOFTMAX_DIM_NONE for PyTorch's implicit choice.
   *
   * Since: 0.1
   */
  family_class_init (G_OBJECT_CLASS (klass));
}

static void
gnn_log_softmax_class_init (GnnLogSoftmaxClass *klass)
{
  /**
   * GnnLogSoftmax:dim:
   *
   * The dimension along which the log-softmax is computed, or
   * %GNN_SOFTMAX_DIM_NONE for PyTorch's implicit choice.
   *
   * Since: 0.1
   */
  family_class_init (G_OBJECT_CLASS (klass));
}

static void
gnn_softmin_class_init (GnnSoftminClass *klass)
{
  /**
   * GnnSoftmin:dim:
   *
   * The dimension along which the softmin is computed, or
   * %GNN_SOFTMAX_DIM_NONE for PyTorch's implicit choice.
   *
   * Since: 0.1
   */
  family_class_init (G_OBJECT_CLASS (klass));
}

static void
gnn_softmax_init (GnnSoftmax *self)
{
  self->family.kind = KIND_SOFTMAX;
}

static void
gnn_log_softmax_init (GnnLogSoftmax *self)
{
  self->family.kind = KIND_LOG_SOFTMAX;
}

static void
gnn_softmin_init (GnnSoftmin *self)
{
  self->family.kind = KIND_SOFTMIN;
}

/**
 * gnn_softmax_new:
 * @dim: the value of [property@Gnn.Softmax:dim]
 *
 * Creates the layer, like `torch.nn.Softmax(dim)`.
 *
 * Returns: (transfer full): a new GnnSoftmax
 *
 * Since: 0.1
 */
GnnSoftmax *
gnn_softmax_new (gint dim)
{
  return g_object_new (GNN_TYPE_SOFTMAX, "dim", dim, NULL);
}

/**
 * gnn_softmax_get_dim:
 * @self: a GnnSoftmax
 *
 * Gets the dimension along which softmax is computed.
 *
 * Returns: the value of [property@Gnn.Softmax:dim]
 *
 * Since: 0.1
 */
gint
gnn_softmax_get_dim (GnnSoftmax *self)
{
  g_return_val_if_fail (GNN_IS_SOFTMAX (self), 0);

  return self->family.dim;
}

/**
 * gnn_log_softmax_new:
 * @dim: the value of [property@Gnn.LogSoftmax:dim]
 *
 * Creates the layer, like `torch.nn.LogSoftmax(dim)`.
 *
 * Returns: (transfer full): a new GnnLogSoftmax
 *
 * Since: 0.1
 */
GnnLogSoftmax *
gnn_log_softmax_new (gint dim)
{
  return g_object_new (GNN_TYPE_LOG_SOFTMAX, "dim", dim, NULL);
}

/**
 * gnn_log_softmax_get_dim:
 * @self: a GnnLogSoftmax
 *
 * Gets the dimension along which log-softmax is computed.
 *
 * Returns: the value of [property@Gnn.LogSoftmax:dim]
 *
 * Since: 0.1
 */
gint
gnn_log_softmax_get_dim (GnnLogSoftmax *self)
{
  g_return_val_if_fail (GNN_IS_LOG_SOFTMAX (self), 0);

  return self->family.dim;
}

/**
 * gnn_softmin_new:
 * @dim: the value of [property@Gnn.Softmin:dim]
 *
 * Creates the layer, like `torch.nn.Softmin(dim)`.
 *
 * Returns: (transfer full): a new GnnSoftmin
 *
 * Since: 0.1
 */
GnnSoftmin *
gnn_softmin_new (gint dim)
{
  return g_object_new (GNN_TYPE_SOFTMIN, "dim", dim, NULL);
}
