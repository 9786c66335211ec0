/* gnn-bce-with-logits-loss.c: the binary cross-entropy on logits as a module (torch.nn.BCEWithLogitsLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"

/**
 * GnnBCEWithLogitsLoss:
 *
 * The binary cross-entropy between logits and targets in [0, 1] of the
 * same shape, computed stably (a sigmoid folded into the loss), like
 * `torch.nn.BCEWithLogitsLoss`: a module holding the reduction of
 * [func@Gnn.binary_cross_entropy_with_logits]
 * ([property@Gnn.BCEWithLogitsLoss:reduction]) and two buffers, `weight`
 * (a rescaling of each element's loss, broadcast to the input) and
 * `pos_weight` (the weight of the positive examples, per class), empty
 * slots by default as in PyTorch. It prints as `BCEWithLogitsLoss()`.
 *
 * A loss takes two tensors, (input, target), and [vfunc@Gnn.Module.forward]
 * takes one, so the loss is computed with
 * [method@Gnn.BCEWithLogitsLoss.compute]; [method@Gnn.Module.call] fails with
 * PyTorch's message, "BCEWithLogitsLoss.forward() missing 1 required positional
 * argument: 'target'".
 * (Forward hooks, which see one input, do not run for compute.)
 *
 * ```c
 * g_autoptr(GnnBCEWithLogitsLoss) criterion =
 *     gnn_bce_with_logits_loss_new (NULL, NULL, GNN_REDUCTION_MEAN);
 * g_autoptr(GnnTensor) loss = gnn_bce_with_logits_loss_compute (criterion, logits, targets, &error);
 * ```
 *
 * Since: 0.1
 */
struct _GnnBCEWithLogitsLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnBCEWithLogitsLoss, gnn_bce_with_logits_loss, GNN_TYPE_MODULE)

static GnnTensor *
bce_with_logits_loss_compute (GnnLossBase       *base,
                              GnnTensor *const  *inputs,
                              GError           **error)
{
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_binary_cross_entropy_with_logits (inputs[0], inputs[1],
                                               gnn_loss_buffer (base, "weight"),
                                               gnn_loss_buffer (base, "pos_weight"),
                                               reduction, error);
}

static void
gnn_bce_with_logits_loss_class_init (GnnBCEWithLogitsLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /**
   * GnnBCEWithLogitsLoss:reduction:
   *
   * How the per-element losses are reduced: `"mean"` (the default),
   * `"sum"` or `"none"`, PyTorch's strings. Another value makes
   * [method@Gnn.BCEWithLogitsLoss.compute] fail ("foo is not a valid value
   * for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_bce_with_logits_loss_compute",
                        bce_with_logits_loss_compute, NULL);

  /**
   * GnnBCEWithLogitsLoss:weight:
   *
   * The rescaling weight of each element's loss (broadcast to the input),
   * the buffer `weight`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_loss_class_add_buffer (object_class, "weight");
  /**
   * GnnBCEWithLogitsLoss:pos-weight:
   *
   * The weight of positive examples (broadcast over the last dimension: one
   * per class), the buffer `pos_weight`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_loss_class_add_buffer (object_class, "pos_weight");
}

static void
gnn_bce_with_logits_loss_init (GnnBCEWithLogitsLoss *self)
{
  /* PyTorch: register_buffer('weight', weight); register_buffer('pos_weight', pos_weight) */
  gnn_loss_init_buffer (&self->base, "weight");
  gnn_loss_init_buffer (&self->base, "pos_weight");
}

/**
 * gnn_bce_with_logits_loss_new:
 * @weight: (nullable): the rescaling weight of each element's loss
 * @pos_weight: (nullable): the weight of positive examples, per class
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.BCEWithLogitsLoss(weight,
 * reduction=, pos_weight=)`. `g_object_new (GNN_TYPE_BCE_WITH_LOGITS_LOSS,
 * NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnBCEWithLogitsLoss
 *
 * Since: 0.1
 */
GnnBCEWithLogitsLoss *
gnn_bce_with_logits_loss_new (GnnTensor    *weight,
                              GnnTensor    *pos_weight,
                              GnnReduction  reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (pos_weight == NULL || GNN_IS_TENSOR (pos_weight), NULL);
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_BCE_WITH_LOGITS_LOSS,
                       "weight", weight,
                       "pos-weight", pos_weight,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_bce_with_logits_loss_compute:
 * @self: a GnnBCEWithLogitsLoss
 * @input: the logits (floating point)
 * @target: the targets in [0, 1], of the same shape as @input
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.binary_cross_entropy_with_logits] with the module's
 * reduction and weights. The result is differentiable with respect to
 * @input.
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
gnn_bce_with_logits_loss_compute (GnnBCEWithLogitsLoss  *self,
                                  GnnTensor             *input,
                                  GnnTensor             *target,
                                  GError               **error)
{
  g_return_val_if_fail (GNN_IS_BCE_WITH_LOGITS_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
