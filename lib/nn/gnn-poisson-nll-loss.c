/* gnn-poisson-nll-loss.c: the PoissonNLLLoss module (torch.nn.PoissonNLLLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnPoissonNLLLoss:
 *
 * The negative log-likelihood of a Poisson distribution of the target with
 * the input as its rate (or its log), like `torch.nn.PoissonNLLLoss`: a
 * module holding the settings of [func@Gnn.poisson_nll_loss]. It prints as
 * `PoissonNLLLoss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.PoissonNLLLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "PoissonNLLLoss.forward() missing 1 required positional argument:
 * 'target'".
 *
 * Since: 0.1
 */
struct _GnnPoissonNLLLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnPoissonNLLLoss, gnn_poisson_nll_loss, GNN_TYPE_MODULE)

static GnnTensor *
poisson_nll_loss_compute (GnnLossBase       *base,
                          GnnTensor *const  *in,
                          GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_poisson_nll_loss (in[0], in[1], v[0] != 0, v[1] != 0, v[2], reduction, error);
}

static void
gnn_poisson_nll_loss_class_init (GnnPoissonNLLLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnPoissonNLLLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.PoissonNLLLoss.compute] fail ("foo is not a valid value for
   * reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_poisson_nll_loss_compute", poisson_nll_loss_compute,
                        inputs);

  /**
   * GnnPoissonNLLLoss:log-input:
   *
   * Whether the input is the log of the rate.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, GNN_LOSS_N_PROPS, "log-input", TRUE);
  /**
   * GnnPoissonNLLLoss:full:
   *
   * Whether Stirling's approximation of log (target!) is added.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, GNN_LOSS_N_PROPS + 1, "full", FALSE);
  /**
   * GnnPoissonNLLLoss:eps:
   *
   * Keeps log (input + eps) finite when the input is not a log.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS + 2, "eps", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1e-8);
}

static void
gnn_poisson_nll_loss_init (GnnPoissonNLLLoss *self)
{
}

/**
 * gnn_poisson_nll_loss_new:
 * @log_input: the value of [property@Gnn.PoissonNLLLoss:log-input]
 * @full: the value of [property@Gnn.PoissonNLLLoss:full]
 * @eps: the value of [property@Gnn.PoissonNLLLoss:eps]
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.PoissonNLLLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_POISSON_NLL_LOSS, NULL)` gives PyTorch's
 * defaults.
 *
 * Returns: (transfer full): a new GnnPoissonNLLLoss
 *
 * Since: 0.1
 */
GnnPoissonNLLLoss *
gnn_poisson_nll_loss_new (gboolean    log_input,
                          gboolean    full,
                          double      eps,
                          GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_POISSON_NLL_LOSS,
                       "log-input", log_input,
                       "full", full,
                       "eps", eps,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_poisson_nll_loss_compute:
 * @self: a GnnPoissonNLLLoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.poisson_nll_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_poisson_nll_loss_compute (GnnPoissonNLLLoss  *self,
                              GnnTensor          *input,
                              GnnTensor          *target,
                              GError            **error)
{
  g_return_val_if_fail (GNN_IS_POISSON_NLL_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
