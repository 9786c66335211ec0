/* gnn-multi-margin-losses.c: the multi-class hinge losses as modules
 * (torch.nn.MultiMarginLoss, torch.nn.MultiLabelMarginLoss): one
 * implementation, the function a switch on the type
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnMultiMarginLoss:
 *
 * The multi-class hinge loss of class scores and class indices, with
 * settings p (1 or 2), margin and an optional buffer `weight` (one weight
 * per class, an empty slot by default), like `torch.nn.MultiMarginLoss`: a
 * module holding the settings of [func@Gnn.multi_margin_loss]. It prints as
 * `MultiMarginLoss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.MultiMarginLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "MultiMarginLoss.forward() missing 1 required positional argument:
 * 'target'".
 *
 * Since: 0.1
 */
/**
 * GnnMultiLabelMarginLoss:
 *
 * The multi-label hinge loss of class scores and, per sample, its class
 * indices (up to the first -1), like `torch.nn.MultiLabelMarginLoss`: a
 * module holding the settings of [func@Gnn.multilabel_margin_loss]. It
 * prints as `MultiLabelMarginLoss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.MultiLabelMarginLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "MultiLabelMarginLoss.forward() missing 1 required positional argument:
 * 'target'".
 *
 * Since: 0.1
 */
struct _GnnMultiMarginLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnMultiMarginLoss, gnn_multi_margin_loss, GNN_TYPE_MODULE)

struct _GnnMultiLabelMarginLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnMultiLabelMarginLoss, gnn_multi_label_margin_loss, GNN_TYPE_MODULE)

/* The loss of whichever family member @base is. */
static GnnTensor *
family_compute (GnnLossBase       *base,
                GnnTensor *const  *in,
                GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  if (GNN_IS_MULTI_MARGIN_LOSS (base))
    return gnn_multi_margin_loss (in[0], in[1], (gint64) v[0], v[1],
                                  gnn_loss_buffer (base, "weight"), reduction, error);
  return gnn_multilabel_margin_loss (in[0], in[1], reduction, error);
}

static void
gnn_multi_margin_loss_class_init (GnnMultiMarginLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /**
   * GnnMultiMarginLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.MultiMarginLoss.compute] fail ("foo is not a valid value
   * for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_multi_margin_loss_compute", family_compute, NULL);
  /**
   * GnnMultiMarginLoss:p:
   *
   * The power of the hinge, 1 (the default) or 2; another value makes
   * [method@Gnn.MultiMarginLoss.compute] fail with PyTorch's message.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, GNN_LOSS_N_PROPS, "p", G_MININT, G_MAXINT, 1);
  /**
   * GnnMultiMarginLoss:margin:
   *
   * The margin.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS + 1, "margin", -G_MAXDOUBLE,
                           G_MAXDOUBLE, 1.0);
  /**
   * GnnMultiMarginLoss:weight:
   *
   * The weight of each class, the buffer `weight`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_loss_class_add_buffer (object_class, "weight");
}

static void
gnn_multi_label_margin_loss_class_init (GnnMultiLabelMarginLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /**
   * GnnMultiLabelMarginLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.MultiLabelMarginLoss.compute] fail ("foo is not a valid
   * value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_multi_label_margin_loss_compute", family_compute,
                        NULL);
}

static void
gnn_multi_margin_loss_init (GnnMultiMarginLoss *self)
{
  gnn_loss_init_buffer (&self->base, "weight");
}

static void
gnn_multi_label_margin_loss_init (GnnMultiLabelMarginLoss *self)
{
}

/**
 * gnn_multi_margin_loss_new:
 * @p: the value of [property@Gnn.MultiMarginLoss:p]
 * @margin: the value of [property@Gnn.MultiMarginLoss:margin]
 * @weight: (nullable): the buffer `weight`
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.MultiMarginLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_MULTI_MARGIN_LOSS, NULL)` gives
 * PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnMultiMarginLoss
 *
 * Since: 0.1
 */
GnnMultiMarginLoss *
gnn_multi_margin_loss_new (gint         p,
                           double       margin,
                           GnnTensor   *weight,
                           GnnReduction reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_MULTI_MARGIN_LOSS,
                       "p", p,
                       "margin", margin,
                       "weight", weight,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_multi_margin_loss_compute:
 * @self: a GnnMultiMarginLoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.multi_margin_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multi_margin_loss_compute (GnnMultiMarginLoss  *self,
                               GnnTensor           *input,
                               GnnTensor           *target,
                               GError             **error)
{
  g_return_val_if_fail (GNN_IS_MULTI_MARGIN_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}

/**
 * gnn_multi_label_margin_loss_new:
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.MultiLabelMarginLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_MULTI_LABEL_MARGIN_LOSS, NULL)` gives
 * PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnMultiLabelMarginLoss
 *
 * Since: 0.1
 */
GnnMultiLabelMarginLoss *
gnn_multi_label_margin_loss_new (GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_MULTI_LABEL_MARGIN_LOSS,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_multi_label_margin_loss_compute:
 * @self: a GnnMultiLabelMarginLoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.multilabel_margin_loss] with the module's settings. The result
 * is differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multi_label_margin_loss_compute (GnnMultiLabelMarginLoss  *self,
                                     GnnTensor                *input,
                                     GnnTensor                *target,
                                     GError                  **error)
{
  g_return_val_if_fail (GNN_IS_MULTI_LABEL_MARGIN_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
