/* gnn-nll-loss.c: the negative log-likelihood loss as a module (torch.nn.NLLLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"

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
 */
struct _GnnNLLLoss
{
  GnnModule parent_instance;
  char     *reduction;
  gint64    ignore_index;
};

enum {
  PROP_0,
  PROP_REDUCTION,
  PROP_IGNORE_INDEX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnNLLLoss, gnn_nll_loss, GNN_TYPE_MODULE)

static const char *
reduction_name (GnnReduction reduction)
{
  switch (reduction)
    {
    case GNN_REDUCTION_NONE: return "none";
    case GNN_REDUCTION_MEAN: return "mean";
    case GNN_REDUCTION_SUM: return "sum";
    default: return NULL;
    }
}

/* PyTorch's _Reduction.get_enum, with its message. */
static gboolean
parse_reduction (const char   *name,
                 GnnReduction *out,
                 GError      **error)
{
  for (GnnReduction r = GNN_REDUCTION_NONE; r <= GNN_REDUCTION_SUM; r++)
    if (g_strcmp0 (name, reduction_name (r)) == 0)
      {
        *out = r;
        return TRUE;
      }
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s is not a valid value for reduction", name ? name : "None");
  return FALSE;
}

static GnnTensor *
gnn_nll_loss_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "NLLLoss.forward() missing 1 required positional argument: 'target' "
                       "(use gnn_nll_loss_compute (loss, input, target))");
  return NULL;
}

static void
gnn_nll_loss_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  GnnNLLLoss *self = GNN_NLL_LOSS (object);

  switch (prop_id)
    {
    case PROP_REDUCTION:
      g_value_set_string (value, self->reduction);
      break;
    case PROP_IGNORE_INDEX:
      g_value_set_int64 (value, self->ignore_index);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_nll_loss_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  GnnNLLLoss *self = GNN_NLL_LOSS (object);

  switch (prop_id)
    {
    case PROP_REDUCTION:
      g_free (self->reduction);
      self->reduction = g_value_dup_string (value);
      break;
    case PROP_IGNORE_INDEX:
      self->ignore_index = g_value_get_int64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_nll_loss_finalize (GObject *object)
{
  GnnNLLLoss *self = GNN_NLL_LOSS (object);

  g_free (self->reduction);
  G_OBJECT_CLASS (gnn_nll_loss_parent_class)->finalize (object);
}

static void
gnn_nll_loss_class_init (GnnNLLLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->get_property = gnn_nll_loss_get_property;
  object_class->set_property = gnn_nll_loss_set_property;
  object_class->finalize = gnn_nll_loss_finalize;
  module_class->forward = gnn_nll_loss_forward;

  /**
   * GnnNLLLoss:reduction:
   *
   * How the per-sample losses are reduced: `"mean"` (the default; weighted
   * by the class weights of the targets), `"sum"` or `"none"`, PyTorch's
   * strings. Another value makes [method@Gnn.NLLLoss.compute] fail
   * ("foo is not a valid value for reduction").
   */
  properties[PROP_REDUCTION] =
    g_param_spec_string ("reduction", NULL, NULL, "mean",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  /**
   * GnnNLLLoss:ignore-index:
   *
   * A target value that contributes neither to the loss nor to the mean's
   * denominator (PyTorch's default, -100).
   */
  properties[PROP_IGNORE_INDEX] =
    g_param_spec_int64 ("ignore-index", NULL, NULL, G_MININT64, G_MAXINT64, -100,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnNLLLoss:weight:
   *
   * The weight of each class (`[C]`), the buffer `weight`, or %NULL.
   */
  gnn_module_class_install_child_slot (module_class, "weight", GNN_TYPE_TENSOR);
}

static void
gnn_nll_loss_init (GnnNLLLoss *self)
{
  /* PyTorch's _WeightedLoss: register_buffer('weight', None) */
  gnn_module_register_buffer (GNN_MODULE (self), "weight", NULL, TRUE, NULL);
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
 */
GnnNLLLoss *
gnn_nll_loss_new (GnnTensor    *weight,
                  gint64        ignore_index,
                  GnnReduction  reduction)
{
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_NLL_LOSS,
                       "weight", weight,
                       "ignore-index", ignore_index,
                       "reduction", reduction_name (reduction),
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
 */
GnnTensor *
gnn_nll_loss_compute (GnnNLLLoss  *self,
                      GnnTensor   *input,
                      GnnTensor   *target,
                      GError     **error)
{
  GnnReduction reduction;
  GnnTensor *weight;

  g_return_val_if_fail (GNN_IS_NLL_LOSS (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);

  if (!parse_reduction (self->reduction, &reduction, error))
    return NULL;
  weight = gnn_module_get_buffer (GNN_MODULE (self), "weight", NULL);
  return gnn_nll_loss (input, target, weight, self->ignore_index, reduction, error);
}
