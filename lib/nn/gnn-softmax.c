/* gnn-softmax.c: the softmax along a dimension (torch.nn.Softmax)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-softmax-private.h"

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
 */
struct _GnnSoftmax
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

G_DEFINE_FINAL_TYPE (GnnSoftmax, gnn_softmax, GNN_TYPE_MODULE)

static GnnTensor *
gnn_softmax_forward (GnnModule  *module,
                     GnnTensor  *input,
                     GError    **error)
{
  GnnSoftmax *self = GNN_SOFTMAX (module);

  return gnn_tensor_softmax (input, gnn_nn_softmax_resolve_dim (self->dim, input), error);
}

static char *
gnn_softmax_extra_repr (GnnModule *module)
{
  GnnSoftmax *self = GNN_SOFTMAX (module);

  return gnn_nn_softmax_dim_repr (self->dim);
}

static void
gnn_softmax_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  gnn_nn_softmax_get_dim (object, prop_id, GNN_SOFTMAX (object)->dim, value, pspec);
}

static void
gnn_softmax_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  gnn_nn_softmax_set_dim (object, prop_id, &GNN_SOFTMAX (object)->dim, value, pspec);
}

static void
gnn_softmax_class_init (GnnSoftmaxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->get_property = gnn_softmax_get_property;
  object_class->set_property = gnn_softmax_set_property;
  module_class->forward = gnn_softmax_forward;
  module_class->extra_repr = gnn_softmax_extra_repr;

  /**
   * GnnSoftmax:dim:
   *
   * The dimension along which the softmax is computed, or
   * %GNN_SOFTMAX_DIM_NONE for PyTorch's implicit choice.
   */
  properties[PROP_DIM] = gnn_nn_softmax_dim_pspec ();
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_softmax_init (GnnSoftmax *self)
{
}

/**
 * gnn_softmax_new:
 * @dim:: the value of [property@Gnn.Softmax:dim]
 *
 * Creates the layer, like `torch.nn.Softmax(dim)`.
 *
 * Returns: (transfer full): a new GnnSoftmax
 */
GnnSoftmax *
gnn_softmax_new (gint         dim)
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
 */
gint
gnn_softmax_get_dim (GnnSoftmax *self)
{
  g_return_val_if_fail (GNN_IS_SOFTMAX (self), 0);

  return self->dim;
}
