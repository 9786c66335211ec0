/* gnn-l1-loss.c: the L1Loss module (torch.nn.L1Loss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnL1Loss:
 *
 * The mean absolute error between an input and a target (broadcast together),
 * like `torch.nn.L1Loss`: a module holding the settings of
 * [func@Gnn.l1_loss]. It prints as `L1Loss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.L1Loss.compute]; [method@Gnn.Module.call]
 * with the input alone fails with PyTorch's message, "L1Loss.forward()
 * missing 1 required positional argument: 'target'".
 *
 * Since: 1.0
 */
struct _GnnL1Loss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnL1Loss, gnn_l1_loss, GNN_TYPE_MODULE)

static GnnTensor *
l1_loss_compute (GnnLossBase       *base,
                 GnnTensor *const  *in,
                 GError           **error)
{
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_l1_loss (in[0], in[1], reduction, error);
}

static void
gnn_l1_loss_class_init (GnnL1LossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnL1Loss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes [method@Gnn.L1Loss.compute] fail
   * ("foo is not a valid value for reduction").
   *
   * Since: 1.0
   */
  gnn_loss_class_setup (object_class, "gnn_l1_loss_compute", l1_loss_compute, inputs);

}

static void
gnn_l1_loss_init (GnnL1Loss *self)
{
}

/**
 * gnn_l1_loss_new:
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.L1Loss(...)` with the same arguments;
 * `g_object_new (GNN_TYPE_L1_LOSS, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnL1Loss
 *
 * Since: 1.0
 */
GnnL1Loss *
gnn_l1_loss_new (GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_L1_LOSS,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_l1_loss_compute:
 * @self: a GnnL1Loss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.l1_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 1.0
 */
GnnTensor *
gnn_l1_loss_compute (GnnL1Loss  *self,
                     GnnTensor  *input,
                     GnnTensor  *target,
                     GError    **error)
{
  g_return_val_if_fail (GNN_IS_L1_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
