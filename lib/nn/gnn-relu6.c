/* gnn-relu6.c: the ReLU6 activation (torch.nn.ReLU6)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnReLU6:
 *
 * Like `torch.nn.ReLU6(inplace=False)`: applies `min (max (0, x), 6)`
 * elementwise (see [method@Gnn.Tensor.relu6]).
 *
 * Since: 0.1
 */
struct _GnnReLU6
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnReLU6, gnn_relu6, GNN_TYPE_MODULE)

static GnnTensor *
gnn_relu6_forward (GnnModule  *module,
                   GnnTensor  *input,
                   GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (v[0] != 0)
    return gnn_activation_inplace_result (gnn_tensor_relu6_ (input, error), input);
  return gnn_tensor_relu6 (input, error);
}

static char *
gnn_relu6_extra_repr (GnnModule *module)
{
  gboolean inplace = GNN_ACTIVATION_BASE (module)->values[0] != 0;

  return g_strdup (gnn_activation_inplace_repr (inplace, TRUE));
}

static void
gnn_relu6_class_init (GnnReLU6Class *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_relu6_forward, gnn_relu6_extra_repr);
  /**
   * GnnReLU6:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 1, "inplace", FALSE);
}

static void
gnn_relu6_init (GnnReLU6 *self)
{
}

/**
 * gnn_relu6_new:
 * @inplace: the value of [property@Gnn.ReLU6:inplace]
 *
 * Creates the layer, like `torch.nn.ReLU6(inplace=False)`; `g_object_new
 * (GNN_TYPE_RELU6, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnReLU6
 *
 * Since: 0.1
 */
GnnReLU6 *
gnn_relu6_new (gboolean  inplace)
{
  return g_object_new (GNN_TYPE_RELU6,
                       "inplace", inplace,
                       NULL);
}
