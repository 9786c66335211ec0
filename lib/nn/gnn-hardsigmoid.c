/* gnn-hardsigmoid.c: the Hardsigmoid activation (torch.nn.Hardsigmoid)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnHardsigmoid:
 *
 * Like `torch.nn.Hardsigmoid(inplace=False)`: applies `relu6 (x + 3) / 6`
 * elementwise (see [method@Gnn.Tensor.hardsigmoid]). It prints as
 * `Hardsigmoid()`, as PyTorch's.
 *
 * Since: 0.1
 */
struct _GnnHardsigmoid
{
  GnnActivationBase base;
};

G_DEFINE_FINAL_TYPE (GnnHardsigmoid, gnn_hardsigmoid, GNN_TYPE_MODULE)

static GnnTensor *
gnn_hardsigmoid_forward (GnnModule  *module,
                         GnnTensor  *input,
                         GError    **error)
{
  const double *v = GNN_ACTIVATION_BASE (module)->values;

  if (v[0] != 0)
    return gnn_activation_inplace_result (gnn_tensor_hardsigmoid_ (input, error), input);
  return gnn_tensor_hardsigmoid (input, error);
}

static void
gnn_hardsigmoid_class_init (GnnHardsigmoidClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_hardsigmoid_forward, NULL);
  /**
   * GnnHardsigmoid:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, 1, "inplace", FALSE);
}

static void
gnn_hardsigmoid_init (GnnHardsigmoid *self)
{
}

/**
 * gnn_hardsigmoid_new:
 * @inplace: the value of [property@Gnn.Hardsigmoid:inplace]
 *
 * Creates the layer, like `torch.nn.Hardsigmoid(inplace=False)`;
 * `g_object_new (GNN_TYPE_HARDSIGMOID, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnHardsigmoid
 *
 * Since: 0.1
 */
GnnHardsigmoid *
gnn_hardsigmoid_new (gboolean  inplace)
{
  return g_object_new (GNN_TYPE_HARDSIGMOID,
                       "inplace", inplace,
                       NULL);
}
