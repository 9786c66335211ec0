/* gnn-kl-div-loss.c: the KLDivLoss module (torch.nn.KLDivLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnKLDivLoss:
 *
 * The Kullback-Leibler divergence between log-probabilities and target
 * probabilities (log-probabilities with [property@Gnn.KLDivLoss:log-target]);
 * its [property@Gnn.KLDivLoss:reduction] also takes `"batchmean"`, like
 * `torch.nn.KLDivLoss`: a module holding the settings of [func@Gnn.kl_div].
 * It prints as `KLDivLoss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.KLDivLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "KLDivLoss.forward() missing 1 required positional argument: 'target'".
 *
 * Since: 0.1
 */
struct _GnnKLDivLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnKLDivLoss, gnn_kl_div_loss, GNN_TYPE_MODULE)

static GnnTensor *
kl_div_loss_compute (GnnLossBase       *base,
                     GnnTensor *const  *in,
                     GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction_full (base, TRUE, &reduction, error))
    return NULL;
  return gnn_kl_div (in[0], in[1], reduction, v[0] != 0, error);
}

static void
gnn_kl_div_loss_class_init (GnnKLDivLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnKLDivLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"`,
   * `"batchmean"` or `"none"`, PyTorch's strings. Another value makes
   * [method@Gnn.KLDivLoss.compute] fail ("foo is not a valid value for
   * reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_kl_div_loss_compute", kl_div_loss_compute, inputs);

  /**
   * GnnKLDivLoss:log-target:
   *
   * Whether the target holds log-probabilities.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, GNN_LOSS_N_PROPS, "log-target", FALSE);
}

static void
gnn_kl_div_loss_init (GnnKLDivLoss *self)
{
}

/**
 * gnn_kl_div_loss_new:
 * @reduction: the reduction
 * @log_target: the value of [property@Gnn.KLDivLoss:log-target]
 *
 * Creates the loss, like `torch.nn.KLDivLoss(...)` with the same arguments;
 * `g_object_new (GNN_TYPE_KL_DIV_LOSS, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnKLDivLoss
 *
 * Since: 0.1
 */
GnnKLDivLoss *
gnn_kl_div_loss_new (GnnReduction reduction,
                     gboolean    log_target)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_KL_DIV_LOSS,
                       "reduction", gnn_loss_reduction_name (reduction),
                       "log-target", log_target,
                       NULL);
}

/**
 * gnn_kl_div_loss_compute:
 * @self: a GnnKLDivLoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.kl_div] with the module's settings. The result is differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_kl_div_loss_compute (GnnKLDivLoss  *self,
                         GnnTensor     *input,
                         GnnTensor     *target,
                         GError       **error)
{
  g_return_val_if_fail (GNN_IS_KL_DIV_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
