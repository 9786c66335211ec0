/* gnn-mse-loss.c: the mean squared error loss as a module (torch.nn.MSELoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"

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
 */
struct _GnnMSELoss
{
  GnnModule parent_instance;
  char     *reduction;
};

enum {
  PROP_0,
  PROP_REDUCTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnMSELoss, gnn_mse_loss, GNN_TYPE_MODULE)

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
gnn_mse_loss_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "MSELoss.forward() missing 1 required positional argument: 'target' "
                       "(use gnn_mse_loss_compute (loss, input, target))");
  return NULL;
}

static void
gnn_mse_loss_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  GnnMSELoss *self = GNN_MSE_LOSS (object);

  switch (prop_id)
    {
    case PROP_REDUCTION:
      g_value_set_string (value, self->reduction);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_mse_loss_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  GnnMSELoss *self = GNN_MSE_LOSS (object);

  switch (prop_id)
    {
    case PROP_REDUCTION:
      g_free (self->reduction);
      self->reduction = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_mse_loss_finalize (GObject *object)
{
  GnnMSELoss *self = GNN_MSE_LOSS (object);

  g_free (self->reduction);
  G_OBJECT_CLASS (gnn_mse_loss_parent_class)->finalize (object);
}

static void
gnn_mse_loss_class_init (GnnMSELossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->get_property = gnn_mse_loss_get_property;
  object_class->set_property = gnn_mse_loss_set_property;
  object_class->finalize = gnn_mse_loss_finalize;
  module_class->forward = gnn_mse_loss_forward;

  /**
   * GnnMSELoss:reduction:
   *
   * How the per-element losses are reduced: `"mean"` (the default),
   * `"sum"` or `"none"`, PyTorch's strings. Another value makes
   * [method@Gnn.MSELoss.compute] fail ("foo is not a valid value for
   * reduction").
   */
  properties[PROP_REDUCTION] =
    g_param_spec_string ("reduction", NULL, NULL, "mean",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

}

static void
gnn_mse_loss_init (GnnMSELoss *self)
{
}

/**
 * gnn_mse_loss_new:
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.MSELoss(reduction=)`. `g_object_new (GNN_TYPE_MSE_LOSS,
 * NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnMSELoss
 */
GnnMSELoss *
gnn_mse_loss_new (GnnReduction reduction)
{
  g_return_val_if_fail (reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_MSE_LOSS,
                       "reduction", reduction_name (reduction),
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
 */
GnnTensor *
gnn_mse_loss_compute (GnnMSELoss  *self,
                      GnnTensor   *input,
                      GnnTensor   *target,
                      GError     **error)
{
  GnnReduction reduction;

  g_return_val_if_fail (GNN_IS_MSE_LOSS (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);

  if (!parse_reduction (self->reduction, &reduction, error))
    return NULL;
  return gnn_mse_loss (input, target, reduction, error);
}
