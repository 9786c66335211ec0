/* gnn-hardswish.c: the Hardswish activation (torch.nn.Hardswish)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnHardswish:
 *
 * Like `torch.nn.Hardswish(inplace=False)`: applies `x × relu6 (x + 3) / 6`
 * elementwise (see [method@Gnn.Tensor.hardswish]). It prints as
 * `Hardswish()`, as PyTorch's.
 *
 * Since: 0.1
 */
struct _GnnHardswish
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnHardswish, gnn_hardswish, GNN_TYPE_MODULE)

static GnnTensor *
gnn_hardswish_forward (GnnModule  *module,
                       GnnTensor  *input,
                       GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (v[0] != 0)
    return gnn_activation_inplace_result (gnn_tensor_hardswish_ (input, error), input);
  return gnn_tensor_hardswish (input, error);
}

static void
gnn_hardswish_class_init (GnnHardswishClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_hardswish_forward, NULL);
  /**
   * GnnHardswish:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 1, "inplace", FALSE);
}

static void
gnn_hardswish_init (GnnHardswish *self)
{
}

/**
 * gnn_hardswish_new:
 * @inplace: the value of [property@Gnn.Hardswish:inplace]
 *
 * Creates the layer, like `torch.nn.Hardswish(inplace=False)`; `g_object_new
 * (GNN_TYPE_HARDSWISH, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnHardswish
 *
 * Since: 0.1
 */
GnnHardswish *
gnn_hardswish_new (gboolean  inplace)
{
  return g_object_new (GNN_TYPE_HARDSWISH,
                       "inplace", inplace,
                       NULL);
}
