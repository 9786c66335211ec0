/* gnn-mse-loss.c: the mean squared error loss as a module (torch.nn.MSELoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"

/**
 * GnnMSELoss:
 *
 * The mean squared error between an input and a target of the same
 * shape, like `torch.nn.MSELoss`: a module holding the reduction of
 * [func@Gnn.mse_loss] ([property@Gnn.MSELoss:reduction]). It prints as
 * `MSELoss()`.
 *
 * A loss takes two tensors, (input, target), and [vfunc@Gnn.Module.forward]
 * takes one, so the loss is computed with
 * [method@Gnn.MSELoss.compute]; [method@Gnn.Module.call] fails with
 * PyTorch's message, "MSELoss.forward() missing 1 required positional
 * argument: 'target'".
 * (Forward hooks, which see one input, do not run for compute.)
 *
 * ```c
 * g_autoptr(GnnMSELoss) criterion = gnn_mse_loss_new (GNN_REDUCTION_MEAN);
 * g_autoptr(GnnTensor) loss = gnn_mse_loss_compute (criterion, prediction, target, &error);
 * ```
 *
 * Since: 0.1
 */
struct _GnnMSELoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnMSELoss, gnn_mse_loss, GNN_TYPE_MODULE)

static GnnTensor *
mse_loss_compute (GnnLossBase       *base,
                  GnnTensor *const  *inputs,
                  GError           **error)
{
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_mse_loss (inputs[0], inputs[1], reduction, error);
}

static void
gnn_mse_loss_class_init (GnnMSELossClass *klass)
{
  /**
   * GnnMSELoss:reduction:
   *
   * How the per-element losses are reduced: `"mean"` (the default),
   * `"sum"` or `"none"`, PyTorch's strings. Another value makes
   * [method@Gnn.MSELoss.compute] fail ("foo is not a valid value for
   * reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (G_OBJECT_CLASS (klass), "gnn_mse_loss_compute", mse_loss_compute, NULL);
}

static void
gnn_mse_loss_init (GnnMSELoss *self)
{
  (void) self;
}

/**
 * gnn_mse_loss_new:
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.MSELoss(reduction=)`. `g_object_new (GNN_TYPE_MSE_LOSS,
 * NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnMSELoss
 *
 * Since: 0.1
 */
GnnMSELoss *
gnn_mse_loss_new (GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_MSE_LOSS,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_mse_loss_compute:
 * @self: a GnnMSELoss
 * @input: the prediction (floating point)
 * @target: the target, of the same shape as @input
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.mse_loss] with the module's reduction. The result
 * is differentiable with respect to @input.
 *
 * This is a method of its own rather than [method@Gnn.Module.call] because
 * a module's forward takes one tensor and a loss needs two.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_mse_loss_compute (GnnMSELoss  *self,
                      GnnTensor   *input,
                      GnnTensor   *target,
                      GError     **error)
{
  g_return_val_if_fail (GNN_IS_MSE_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
