/* gnn-bce-loss.c: the binary cross-entropy losses on probabilities and per
 * label on scores as modules (torch.nn.BCELoss,
 * torch.nn.MultiLabelSoftMarginLoss): one implementation, the function a
 * switch on the type
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnBCELoss:
 *
 * The binary cross-entropy between probabilities and targets of the same
 * shape, with an optional buffer `weight` (a rescaling of each element's
 * loss, an empty slot by default as in PyTorch), like `torch.nn.BCELoss`: a
 * module holding the settings of [func@Gnn.binary_cross_entropy]. It prints
 * as `BCELoss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.BCELoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "BCELoss.forward() missing 1 required positional argument: 'target'".
 *
 * Since: 0.1
 */
/**
 * GnnMultiLabelSoftMarginLoss:
 *
 * The multi-label one-versus-all loss on scores and {0, 1} labels, with an
 * optional buffer `weight` (one weight per class, an empty slot by default),
 * like `torch.nn.MultiLabelSoftMarginLoss`: a module holding the settings of
 * [func@Gnn.multilabel_soft_margin_loss]. It prints as
 * `MultiLabelSoftMarginLoss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.MultiLabelSoftMarginLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "MultiLabelSoftMarginLoss.forward() missing 1 required positional argument:
 * 'target'".
 *
 * Since: 0.1
 */
struct _GnnBCELoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnBCELoss, gnn_bce_loss, GNN_TYPE_MODULE)

struct _GnnMultiLabelSoftMarginLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnMultiLabelSoftMarginLoss, gnn_multi_label_soft_margin_loss,
                     GNN_TYPE_MODULE)

/* The loss of whichever family member @base is. */
static GnnTensor *
family_compute (GnnLossBase       *base,
                GnnTensor *const  *in,
                GError           **error)
{
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  if (GNN_IS_BCE_LOSS (base))
    return gnn_binary_cross_entropy (in[0], in[1], gnn_loss_buffer (base, "weight"), reduction,
                                     error);
  return gnn_multilabel_soft_margin_loss (in[0], in[1], gnn_loss_buffer (base, "weight"),
                                          reduction, error);
}

static void
gnn_bce_loss_class_init (GnnBCELossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnBCELoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes [method@Gnn.BCELoss.compute] fail
   * ("foo is not a valid value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_bce_loss_compute",
                        family_compute, inputs);

  /**
   * GnnBCELoss:weight:
   *
   * The rescaling weight of each element's loss (broadcast to the input), the
   * buffer `weight`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_loss_class_add_buffer (object_class, "weight");
}

static void
gnn_multi_label_soft_margin_loss_class_init (GnnMultiLabelSoftMarginLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnMultiLabelSoftMarginLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.MultiLabelSoftMarginLoss.compute] fail ("foo is not a valid
   * value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_multi_label_soft_margin_loss_compute", family_compute,
                        inputs);

  /**
   * GnnMultiLabelSoftMarginLoss:weight:
   *
   * The weight of each class, the buffer `weight`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_loss_class_add_buffer (object_class, "weight");
}

static void
gnn_bce_loss_init (GnnBCELoss *self)
{
  gnn_loss_init_buffer (&self->base, "weight");
}

/**
 * gnn_bce_loss_new:
 * @weight: (nullable): the buffer `weight`
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.BCELoss(...)` with the same arguments;
 * `g_object_new (GNN_TYPE_BCE_LOSS, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnBCELoss
 *
 * Since: 0.1
 */
GnnBCELoss *
gnn_bce_loss_new (GnnTensor   *weight,
                  GnnReduction reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_BCE_LOSS,
                       "weight", weight,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_bce_loss_compute:
 * @self: a GnnBCELoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.binary_cross_entropy] with the module's settings and buffers. The
 * result is differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_bce_loss_compute (GnnBCELoss  *self,
                      GnnTensor   *input,
                      GnnTensor   *target,
                      GError     **error)
{
  g_return_val_if_fail (GNN_IS_BCE_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}

static void
gnn_multi_label_soft_margin_loss_init (GnnMultiLabelSoftMarginLoss *self)
{
  gnn_loss_init_buffer (&self->base, "weight");
}

/**
 * gnn_multi_label_soft_margin_loss_new:
 * @weight: (nullable): the buffer `weight`
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.MultiLabelSoftMarginLoss(...)` with the
 * same arguments; `g_object_new (GNN_TYPE_MULTI_LABEL_SOFT_MARGIN_LOSS,
 * NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnMultiLabelSoftMarginLoss
 *
 * Since: 0.1
 */
GnnMultiLabelSoftMarginLoss *
gnn_multi_label_soft_margin_loss_new (GnnTensor   *weight,
                                      GnnReduction reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_MULTI_LABEL_SOFT_MARGIN_LOSS,
                       "weight", weight,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_multi_label_soft_margin_loss_compute:
 * @self: a GnnMultiLabelSoftMarginLoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.multilabel_soft_margin_loss] with the module's settings and
 * buffers. The result is differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multi_label_soft_margin_loss_compute (GnnMultiLabelSoftMarginLoss  *self,
                                          GnnTensor                    *input,
                                          GnnTensor                    *target,
                                          GError                      **error)
{
  g_return_val_if_fail (GNN_IS_MULTI_LABEL_SOFT_MARGIN_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
