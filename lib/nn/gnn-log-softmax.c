/* gnn-log-softmax.c: the log of the softmax (torch.nn.LogSoftmax)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-softmax-private.h"

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
 */
struct _GnnLogSoftmax
{
  GnnModule parent_instance;
  gint dim;
};

enum {
  PROP_0,
  PROP_DIM = GNN_SOFTMAX_PROP_DIM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnLogSoftmax, gnn_log_softmax, GNN_TYPE_MODULE)

static GnnTensor *
gnn_log_softmax_forward (GnnModule  *module,
                         GnnTensor  *input,
                         GError    **error)
{
  GnnLogSoftmax *self = GNN_LOG_SOFTMAX (module);

  return gnn_tensor_log_softmax (input, gnn_nn_softmax_resolve_dim (self->dim, input), error);
}

static char *
gnn_log_softmax_extra_repr (GnnModule *module)
{
  GnnLogSoftmax *self = GNN_LOG_SOFTMAX (module);

  return gnn_nn_softmax_dim_repr (self->dim);
}

static void
gnn_log_softmax_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  gnn_nn_softmax_get_dim (object, prop_id, GNN_LOG_SOFTMAX (object)->dim, value, pspec);
}

static void
gnn_log_softmax_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  gnn_nn_softmax_set_dim (object, prop_id, &GNN_LOG_SOFTMAX (object)->dim, value, pspec);
}

static void
gnn_log_softmax_class_init (GnnLogSoftmaxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->get_property = gnn_log_softmax_get_property;
  object_class->set_property = gnn_log_softmax_set_property;
  module_class->forward = gnn_log_softmax_forward;
  module_class->extra_repr = gnn_log_softmax_extra_repr;

  /**
   * GnnLogSoftmax:dim:
   *
   * The dimension along which the log-softmax is computed, or
   * %GNN_SOFTMAX_DIM_NONE for PyTorch's implicit choice.
   */
  properties[PROP_DIM] = gnn_nn_softmax_dim_pspec ();
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_log_softmax_init (GnnLogSoftmax *self)
{
}

/**
 * gnn_log_softmax_new:
 * @dim:: the value of [property@Gnn.LogSoftmax:dim]
 *
 * Creates the layer, like `torch.nn.LogSoftmax(dim)`.
 *
 * Returns: (transfer full): a new GnnLogSoftmax
 */
GnnLogSoftmax *
gnn_log_softmax_new (gint         dim)
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
 */
gint
gnn_log_softmax_get_dim (GnnLogSoftmax *self)
{
  g_return_val_if_fail (GNN_IS_LOG_SOFTMAX (self), 0);

  return self->dim;
}
