/* gnn-nll-loss.c: the negative log-likelihood loss as a module (torch.nn.NLLLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"

/**
 * GnnNLLLoss:
 *
 * The negative log-likelihood loss between log-probabilities and class
 * indices, like `torch.nn.NLLLoss`: a module holding the options of
 * [func@Gnn.nll_loss] ([property@Gnn.NLLLoss:reduction],
 * [property@Gnn.NLLLoss:ignore-index]) and the class weights as
 * the buffer `weight` (an empty slot by default, so it is in the state dict
 * only when set, as in PyTorch). It prints as `NLLLoss()`.
 *
 * A loss takes two tensors, (input, target), and [vfunc@Gnn.Module.forward]
 * takes one, so the loss is computed with
 * [method@Gnn.NLLLoss.compute]; [method@Gnn.Module.call] fails with
 * PyTorch's message, "NLLLoss.forward() missing 1 required positional
 * argument: 'target'".
 * (Forward hooks, which see one input, do not run for compute.)
 *
 * ```c
 * g_autoptr(GnnNLLLoss) criterion = gnn_nll_loss_new (NULL, -100, GNN_REDUCTION_MEAN);
 * g_autoptr(GnnTensor) loss = gnn_nll_loss_compute (criterion, log_probs, labels, &error);
 * ```
 *
 * Since: 0.1
 */
struct _GnnNLLLoss
{
  GnnLossBase base;
  gint64      ignore_index;
};

enum {
  PROP_IGNORE_INDEX = GNN_LOSS_N_PROPS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnNLLLoss, gnn_nll_loss, GNN_TYPE_MODULE)

static GnnTensor *
nll_loss_compute (GnnLossBase       *base,
                  GnnTensor *const  *inputs,
                  GError           **error)
{
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_nll_loss (inputs[0], inputs[1], gnn_loss_buffer (base, "weight"),
                       ((GnnNLLLoss *) base)->ignore_index, reduction, error);
}

static void
gnn_nll_loss_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  if (prop_id == PROP_IGNORE_INDEX)
    g_value_set_int64 (value, GNN_NLL_LOSS (object)->ignore_index);
  else
    gnn_loss_get_property (object, prop_id, value, pspec);
}

static void
gnn_nll_loss_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  if (prop_id == PROP_IGNORE_INDEX)
    GNN_NLL_LOSS (object)->ignore_index = g_value_get_int64 (value);
  else
    gnn_loss_set_property (object, prop_id, value, pspec);
}

static void
gnn_nll_loss_class_init (GnnNLLLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /**
   * GnnNLLLoss:reduction:
   *
   * How the per-sample losses are reduced: `"mean"` (the default; weighted
   * by the class weights of the targets), `"sum"` or `"none"`, PyTorch's
   * strings. Another value makes [method@Gnn.NLLLoss.compute] fail
   * ("foo is not a valid value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_nll_loss_compute", nll_loss_compute, NULL);
  object_class->get_property = gnn_nll_loss_get_property;
  object_class->set_property = gnn_nll_loss_set_property;

  /**
   * GnnNLLLoss:ignore-index:
   *
   * A target value that contributes neither to the loss nor to the mean's
   * denominator (PyTorch's default, -100).
   *
   * Since: 0.1
   */
  properties[PROP_IGNORE_INDEX] =
    g_param_spec_int64 ("ignore-index", NULL, NULL, G_MININT64, G_MAXINT64, -100,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (object_class, PROP_IGNORE_INDEX, properties[PROP_IGNORE_INDEX]);

  /**
   * GnnNLLLoss:weight:
   *
   * The weight of each class (`[C]`), the buffer `weight`, or %NULL.
   *
   * Since: 0.1
   */
  gnn_loss_class_add_buffer (object_class, "weight");
}

static void
gnn_nll_loss_init (GnnNLLLoss *self)
{
  /* PyTorch's _WeightedLoss: register_buffer('weight', None) */
  gnn_loss_init_buffer (&self->base, "weight");
}

/**
 * gnn_nll_loss_new:
 * @weight: (nullable): the weight of each class, `[C]`
 * @ignore_index: the value of [property@Gnn.NLLLoss:ignore-index]
 *   (PyTorch's default is -100)
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.NLLLoss(weight, ignore_index=,
 * reduction=)`. `g_object_new (GNN_TYPE_NLL_LOSS,
 * NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnNLLLoss
 *
 * Since: 0.1
 */
GnnNLLLoss *
gnn_nll_loss_new (GnnTensor    *weight,
                  gint64        ignore_index,
                  GnnReduction  reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_NLL_LOSS,
                       "weight", weight,
                       "ignore-index", ignore_index,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_nll_loss_compute:
 * @self: a GnnNLLLoss
 * @input: log-probabilities, `[N, C]`, `[C]` or `[N, C, d1, ...]`
 * @target: class indices (int64), `[N]`, `[]` or `[N, d1, ...]`
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.nll_loss] with the module's options and weight. The result
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
gnn_nll_loss_compute (GnnNLLLoss  *self,
                      GnnTensor   *input,
                      GnnTensor   *target,
                      GError     **error)
{
  g_return_val_if_fail (GNN_IS_NLL_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
