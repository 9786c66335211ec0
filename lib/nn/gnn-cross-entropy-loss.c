/* gnn-cross-entropy-loss.c: the cross-entropy loss as a module (torch.nn.CrossEntropyLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"

/**
 * GnnCrossEntropyLoss:
 *
 * The cross-entropy loss between logits and class indices, like
 * `torch.nn.CrossEntropyLoss`: a module holding the options of
 * [func@Gnn.cross_entropy] ([property@Gnn.CrossEntropyLoss:reduction],
 * [property@Gnn.CrossEntropyLoss:ignore-index],
 * [property@Gnn.CrossEntropyLoss:label-smoothing]) and the class weights as
 * the buffer `weight` (an empty slot by default, so it is in the state dict
 * only when set, as in PyTorch). It prints as `CrossEntropyLoss()`.
 *
 * A loss takes two tensors, (input, target), and [vfunc@Gnn.Module.forward]
 * takes one, so the loss is computed with
 * [method@Gnn.CrossEntropyLoss.compute]; [method@Gnn.Module.call] fails with
 * PyTorch's message, "CrossEntropyLoss.forward() missing 1 required positional
 * argument: 'target'".
 * (Forward hooks, which see one input, do not run for compute.)
 *
 * ```c
 * g_autoptr(GnnCrossEntropyLoss) criterion =
 *     gnn_cross_entropy_loss_new (NULL, -100, GNN_REDUCTION_MEAN, 0.0);
 * g_autoptr(GnnTensor) loss =
 *     gnn_cross_entropy_loss_compute (criterion, logits, labels, &error);
 * ```
 *
 * Since: 0.1
 */
struct _GnnCrossEntropyLoss
{
  GnnLossBase base;
  gint64      ignore_index;
  double      label_smoothing;
};

enum {
  PROP_IGNORE_INDEX = GNN_LOSS_N_PROPS,
  PROP_LABEL_SMOOTHING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnCrossEntropyLoss, gnn_cross_entropy_loss, GNN_TYPE_MODULE)

static GnnTensor *
cross_entropy_loss_compute (GnnLossBase       *base,
                            GnnTensor *const  *inputs,
                            GError           **error)
{
  GnnReduction reduction;
  GnnCrossEntropyLoss *self = (GnnCrossEntropyLoss *) base;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_cross_entropy (inputs[0], inputs[1], gnn_loss_buffer (base, "weight"),
                            self->ignore_index, reduction, self->label_smoothing, error);
}

static void
gnn_cross_entropy_loss_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  GnnCrossEntropyLoss *self = GNN_CROSS_ENTROPY_LOSS (object);

  switch (prop_id)
    {
    case PROP_IGNORE_INDEX:
      g_value_set_int64 (value, self->ignore_index);
      break;
    case PROP_LABEL_SMOOTHING:
      g_value_set_double (value, self->label_smoothing);
      break;
    default:
      gnn_loss_get_property (object, prop_id, value, pspec);
    }
}

static void
gnn_cross_entropy_loss_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  GnnCrossEntropyLoss *self = GNN_CROSS_ENTROPY_LOSS (object);

  switch (prop_id)
    {
    case PROP_IGNORE_INDEX:
      self->ignore_index = g_value_get_int64 (value);
      break;
    case PROP_LABEL_SMOOTHING:
      self->label_smoothing = g_value_get_double (value);
      break;
    default:
      gnn_loss_set_property (object, prop_id, value, pspec);
    }
}

static void
gnn_cross_entropy_loss_class_init (GnnCrossEntropyLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /**
   * GnnCrossEntropyLoss:reduction:
   *
   * How the per-sample losses are reduced: `"mean"` (the default; weighted
   * by the class weights of the targets), `"sum"` or `"none"`, PyTorch's
   * strings. Another value makes [method@Gnn.CrossEntropyLoss.compute] fail
   * ("foo is not a valid value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_cross_entropy_loss_compute",
                        cross_entropy_loss_compute, NULL);
  object_class->get_property = gnn_cross_entropy_loss_get_property;
  object_class->set_property = gnn_cross_entropy_loss_set_property;

  /**
   * GnnCrossEntropyLoss:ignore-index:
   *
   * A target value that contributes neither to the loss nor to the mean's
   * denominator (PyTorch's default, -100).
   *
   * Since: 0.1
   */
  properties[PROP_IGNORE_INDEX] =
    g_param_spec_int64 ("ignore-index", NULL, NULL, G_MININT64, G_MAXINT64, -100,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  /**
   * GnnCrossEntropyLoss:label-smoothing:
   *
   * The share of the target mass spread evenly over all classes, in
   * [0, 1] (checked by [method@Gnn.CrossEntropyLoss.compute]).
   *
   * Since: 0.1
   */
  properties[PROP_LABEL_SMOOTHING] =
    g_param_spec_double ("label-smoothing", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (object_class, PROP_IGNORE_INDEX, properties[PROP_IGNORE_INDEX]);
  g_object_class_install_property (object_class, PROP_LABEL_SMOOTHING,
                                   properties[PROP_LABEL_SMOOTHING]);

  /**
   * GnnCrossEntropyLoss:weight:
   *
   * The weight of each class (`[C]`), the buffer `weight`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_loss_class_add_buffer (object_class, "weight");
}

static void
gnn_cross_entropy_loss_init (GnnCrossEntropyLoss *self)
{
  /* PyTorch's _WeightedLoss: register_buffer('weight', None) */
  gnn_loss_init_buffer (&self->base, "weight");
}

/**
 * gnn_cross_entropy_loss_new:
 * @weight: (nullable): the weight of each class, `[C]`
 * @ignore_index: the value of [property@Gnn.CrossEntropyLoss:ignore-index]
 *   (PyTorch's default is -100)
 * @reduction: the reduction
 * @label_smoothing: the value of [property@Gnn.CrossEntropyLoss:label-smoothing]
 *
 * Creates the loss, like `torch.nn.CrossEntropyLoss(weight, ignore_index=,
 * reduction=, label_smoothing=)`. `g_object_new (GNN_TYPE_CROSS_ENTROPY_LOSS,
 * NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnCrossEntropyLoss
 *
 * Since: 0.1
 */
GnnCrossEntropyLoss *
gnn_cross_entropy_loss_new (GnnTensor    *weight,
                            gint64        ignore_index,
                            GnnReduction  reduction,
                            double        label_smoothing)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_CROSS_ENTROPY_LOSS,
                       "weight", weight,
                       "ignore-index", ignore_index,
                       "reduction", gnn_loss_reduction_name (reduction),
                       "label-smoothing", label_smoothing,
                       NULL);
}

/**
 * gnn_cross_entropy_loss_compute:
 * @self: a GnnCrossEntropyLoss
 * @input: unnormalized scores (logits), `[N, C]`, `[C]` or `[N, C, d1, ...]`
 * @target: class indices (int64), `[N]`, `[]` or `[N, d1, ...]`
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.cross_entropy] with the module's options and weight. The result
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
gnn_cross_entropy_loss_compute (GnnCrossEntropyLoss  *self,
                                GnnTensor            *input,
                                GnnTensor            *target,
                                GError              **error)
{
  g_return_val_if_fail (GNN_IS_CROSS_ENTROPY_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
