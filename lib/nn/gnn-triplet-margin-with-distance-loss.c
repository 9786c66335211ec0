/* gnn-triplet-margin-with-distance-loss.c: the triplet loss with a distance
 * function of the caller's (torch.nn.TripletMarginWithDistanceLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnTripletMarginWithDistanceLoss:
 *
 * The triplet loss of anchors, positive and negative examples under a
 * distance function (a [callback@Gnn.DistanceFunc] from C, a callable from
 * Python and GJS; [func@Gnn.pairwise_distance] when none is set), computed
 * from three tensors (anchor, positive, negative), like
 * `torch.nn.TripletMarginWithDistanceLoss`: a module holding the settings of
 * [func@Gnn.triplet_margin_with_distance_loss]. It prints as
 * `TripletMarginWithDistanceLoss()`.
 *
 * A loss takes three tensors and [vfunc@Gnn.Module.forward] takes one, so
 * the loss is computed with
 * [method@Gnn.TripletMarginWithDistanceLoss.compute]; [method@Gnn.Module.call]
 * with the input alone fails with PyTorch's message.
 *
 * Since: 0.1
 */
struct _GnnTripletMarginWithDistanceLoss
{
  GnnLossBase     base;
  GnnDistanceFunc func;
  gpointer        user_data;
  GDestroyNotify  destroy;
};

G_DEFINE_FINAL_TYPE (GnnTripletMarginWithDistanceLoss, gnn_triplet_margin_with_distance_loss,
                     GNN_TYPE_MODULE)

static GnnTensor *
compute (GnnLossBase       *base,
         GnnTensor *const  *in,
         GError           **error)
{
  GnnTripletMarginWithDistanceLoss *self = (GnnTripletMarginWithDistanceLoss *) base;
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_triplet_margin_with_distance_loss (in[0], in[1], in[2], self->func, self->user_data,
                                                v[0], v[1] != 0, reduction, error);
}

static void
clear_function (GnnTripletMarginWithDistanceLoss *self)
{
  GDestroyNotify destroy = self->destroy;
  gpointer user_data = self->user_data;

  self->func = NULL;
  self->user_data = NULL;
  self->destroy = NULL;
  if (destroy != NULL)
    destroy (user_data);
}

static void
gnn_triplet_margin_with_distance_loss_dispose (GObject *object)
{
  clear_function ((GnnTripletMarginWithDistanceLoss *) object);
  G_OBJECT_CLASS (gnn_triplet_margin_with_distance_loss_parent_class)->dispose (object);
}

static void
gnn_triplet_margin_with_distance_loss_class_init (GnnTripletMarginWithDistanceLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "anchor", "positive", "negative", NULL };

  /**
   * GnnTripletMarginWithDistanceLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.TripletMarginWithDistanceLoss.compute] fail ("foo is not a
   * valid value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_triplet_margin_with_distance_loss_compute", compute,
                        inputs);
  object_class->dispose = gnn_triplet_margin_with_distance_loss_dispose;

  /**
   * GnnTripletMarginWithDistanceLoss:margin:
   *
   * The margin.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "margin", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1.0);
  /**
   * GnnTripletMarginWithDistanceLoss:swap:
   *
   * Whether to use the distance between positive and negative when it is
   * smaller.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, GNN_LOSS_N_PROPS + 1, "swap", FALSE);
}

static void
gnn_triplet_margin_with_distance_loss_init (GnnTripletMarginWithDistanceLoss *self)
{
}

/**
 * gnn_triplet_margin_with_distance_loss_new:
 * @distance_function: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   the distance of two tensors; %NULL for [func@Gnn.pairwise_distance]
 * @user_data: the data given to @distance_function
 * @destroy: (nullable): frees @user_data when the loss no longer needs it
 * @margin: the value of [property@Gnn.TripletMarginWithDistanceLoss:margin]
 * @swap: the value of [property@Gnn.TripletMarginWithDistanceLoss:swap]
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.TripletMarginWithDistanceLoss(...)`
 * with the same arguments; `g_object_new
 * (GNN_TYPE_TRIPLET_MARGIN_WITH_DISTANCE_LOSS, NULL)` gives PyTorch's
 * defaults.
 *
 * Returns: (transfer full): a new GnnTripletMarginWithDistanceLoss
 *
 * Since: 0.1
 */
GnnTripletMarginWithDistanceLoss *
gnn_triplet_margin_with_distance_loss_new (GnnDistanceFunc distance_function,
                                           gpointer        user_data,
                                           GDestroyNotify  destroy,
                                           double          margin,
                                           gboolean        swap,
                                           GnnReduction    reduction)
{
  GnnTripletMarginWithDistanceLoss *self;

  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  self = g_object_new (GNN_TYPE_TRIPLET_MARGIN_WITH_DISTANCE_LOSS,
                       "margin", margin,
                       "swap", swap,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
  gnn_triplet_margin_with_distance_loss_set_distance_function (self, distance_function,
                                                               user_data, destroy);
  return self;
}

/**
 * gnn_triplet_margin_with_distance_loss_set_distance_function:
 * @self: a GnnTripletMarginWithDistanceLoss
 * @distance_function: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   the distance of two tensors; %NULL for [func@Gnn.pairwise_distance]
 * @user_data: the data given to @distance_function
 * @destroy: (nullable): frees @user_data when the loss no longer needs it
 *
 * Sets the distance function (PyTorch's `distance_function` attribute),
 * releasing the previous one.
 *
 * Since: 0.1
 */
void
gnn_triplet_margin_with_distance_loss_set_distance_function (GnnTripletMarginWithDistanceLoss *self,
                                                             GnnDistanceFunc  distance_function,
                                                             gpointer         user_data,
                                                             GDestroyNotify   destroy)
{
  g_return_if_fail (GNN_IS_TRIPLET_MARGIN_WITH_DISTANCE_LOSS (self));

  clear_function (self);
  self->func = distance_function;
  self->user_data = user_data;
  self->destroy = destroy;
}

/**
 * gnn_triplet_margin_with_distance_loss_compute:
 * @self: a GnnTripletMarginWithDistanceLoss
 * @anchor: the anchors
 * @positive: the positive examples
 * @negative: the negative examples
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(anchor, positive, negative)`:
 * calls [func@Gnn.triplet_margin_with_distance_loss] with the module's
 * distance function and settings. The result is differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_triplet_margin_with_distance_loss_compute (GnnTripletMarginWithDistanceLoss  *self,
                                               GnnTensor                         *anchor,
                                               GnnTensor                         *positive,
                                               GnnTensor                         *negative,
                                               GError                           **error)
{
  g_return_val_if_fail (GNN_IS_TRIPLET_MARGIN_WITH_DISTANCE_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { anchor, positive, negative }, 3, error);
}
