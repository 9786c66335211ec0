/* gnn-triplet-margin-loss.c: the TripletMarginLoss module (torch.nn.TripletMarginLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnTripletMarginLoss:
 *
 * The triplet loss of anchors, positive and negative examples, computed from
 * three tensors (anchor, positive, negative), like
 * `torch.nn.TripletMarginLoss`: a module holding the settings of
 * [func@Gnn.triplet_margin_loss]. It prints as `TripletMarginLoss()`, as
 * PyTorch's losses do.
 *
 * A loss takes three tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.TripletMarginLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "TripletMarginLoss.forward() missing 2 required positional arguments:
 * 'positive' and 'negative'".
 *
 * Since: 0.1
 */
struct _GnnTripletMarginLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnTripletMarginLoss, gnn_triplet_margin_loss, GNN_TYPE_MODULE)

static GnnTensor *
triplet_margin_loss_compute (GnnLossBase       *base,
                             GnnTensor *const  *in,
                             GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_triplet_margin_loss (in[0], in[1], in[2], v[0], v[1], v[2], v[3] != 0, reduction,
                                  error);
}

static void
gnn_triplet_margin_loss_class_init (GnnTripletMarginLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "anchor", "positive", "negative", NULL };

  /**
   * GnnTripletMarginLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.TripletMarginLoss.compute] fail ("foo is not a valid value
   * for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_triplet_margin_loss_compute",
                        triplet_margin_loss_compute, inputs);

  /**
   * GnnTripletMarginLoss:margin:
   *
   * The margin.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "margin", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1.0);
  /**
   * GnnTripletMarginLoss:p:
   *
   * The order of the distance's norm.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS + 1, "p", -G_MAXDOUBLE, G_MAXDOUBLE,
                           2.0);
  /**
   * GnnTripletMarginLoss:eps:
   *
   * Added to the differences.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS + 2, "eps", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1e-6);
  /**
   * GnnTripletMarginLoss:swap:
   *
   * Whether to use the distance between positive and negative when it is
   * smaller.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, GNN_LOSS_N_PROPS + 3, "swap", FALSE);
}

static void
gnn_triplet_margin_loss_init (GnnTripletMarginLoss *self)
{
}

/**
 * gnn_triplet_margin_loss_new:
 * @margin: the value of [property@Gnn.TripletMarginLoss:margin]
 * @p: the value of [property@Gnn.TripletMarginLoss:p]
 * @eps: the value of [property@Gnn.TripletMarginLoss:eps]
 * @swap: the value of [property@Gnn.TripletMarginLoss:swap]
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.TripletMarginLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_TRIPLET_MARGIN_LOSS, NULL)` gives
 * PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnTripletMarginLoss
 *
 * Since: 0.1
 */
GnnTripletMarginLoss *
gnn_triplet_margin_loss_new (double      margin,
                             double      p,
                             double      eps,
                             gboolean    swap,
                             GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_TRIPLET_MARGIN_LOSS,
                       "margin", margin,
                       "p", p,
                       "eps", eps,
                       "swap", swap,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_triplet_margin_loss_compute:
 * @self: a GnnTripletMarginLoss
 * @anchor: the anchor
 * @positive: the positive
 * @negative: the negative
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(anchor, positive, negative)`: calls
 * [func@Gnn.triplet_margin_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_triplet_margin_loss_compute (GnnTripletMarginLoss  *self,
                                 GnnTensor             *anchor,
                                 GnnTensor             *positive,
                                 GnnTensor             *negative,
                                 GError               **error)
{
  g_return_val_if_fail (GNN_IS_TRIPLET_MARGIN_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { anchor, positive, negative }, 3, error);
}
