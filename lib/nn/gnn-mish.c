/* gnn-mish.c: the Mish activation (torch.nn.Mish)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnMish:
 *
 * Like `torch.nn.Mish(inplace=False)`: applies `x × tanh (softplus (x))`
 * elementwise (see [method@Gnn.Tensor.mish]).
 *
 * Since: 0.1
 */
struct _GnnMish
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnMish, gnn_mish, GNN_TYPE_MODULE)

static GnnTensor *
gnn_mish_forward (GnnModule  *module,
                  GnnTensor  *input,
                  GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (v[0] != 0)
    return gnn_activation_inplace_result (gnn_tensor_mish_ (input, error), input);
  return gnn_tensor_mish (input, error);
}

static char *
gnn_mish_extra_repr (GnnModule *module)
{
  gboolean inplace = GNN_ACTIVATION_BASE (module)->values[0] != 0;

  return g_strdup (gnn_activation_inplace_repr (inplace, TRUE));
}

static void
gnn_mish_class_init (GnnMishClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_mish_forward, gnn_mish_extra_repr);
  /**
   * GnnMish:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 1, "inplace", FALSE);
}

static void
gnn_mish_init (GnnMish *self)
{
}

/**
 * gnn_mish_new:
 * @inplace: the value of [property@Gnn.Mish:inplace]
 *
 * Creates the layer, like `torch.nn.Mish(inplace=False)`; `g_object_new
 * (GNN_TYPE_MISH, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnMish
 *
 * Since: 0.1
 */
GnnMish *
gnn_mish_new (gboolean  inplace)
{
  return g_object_new (GNN_TYPE_MISH,
                       "inplace", inplace,
                       NULL);
}
