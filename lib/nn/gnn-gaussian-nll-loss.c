/* gnn-gaussian-nll-loss.c: the GaussianNLLLoss module (torch.nn.GaussianNLLLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnGaussianNLLLoss:
 *
 * The negative log-likelihood of Gaussians with the input as expectations and
 * a variance, computed from three tensors (input, target, var), like
 * `torch.nn.GaussianNLLLoss`: a module holding the settings of
 * [func@Gnn.gaussian_nll_loss]. It prints as `GaussianNLLLoss()`, as
 * PyTorch's losses do.
 *
 * A loss takes three tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.GaussianNLLLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "GaussianNLLLoss.forward() missing 2 required positional arguments:
 * 'target' and 'var'".
 *
 * Since: 0.1
 */
struct _GnnGaussianNLLLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnGaussianNLLLoss, gnn_gaussian_nll_loss, GNN_TYPE_MODULE)

static GnnTensor *
gaussian_nll_loss_compute (GnnLossBase       *base,
                           GnnTensor *const  *in,
                           GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_gaussian_nll_loss (in[0], in[1], in[2], v[0] != 0, v[1], reduction, error);
}

static void
gnn_gaussian_nll_loss_class_init (GnnGaussianNLLLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", "var", NULL };

  /**
   * GnnGaussianNLLLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes
   * [method@Gnn.GaussianNLLLoss.compute] fail ("foo is not a valid value for
   * reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_gaussian_nll_loss_compute", gaussian_nll_loss_compute,
                        inputs);

  /**
   * GnnGaussianNLLLoss:full:
   *
   * Whether the constant 0.5 log (2π) is added.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_boolean (object_class, GNN_LOSS_N_PROPS, "full", FALSE);
  /**
   * GnnGaussianNLLLoss:eps:
   *
   * The smallest variance used.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS + 1, "eps", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1e-6);
}

static void
gnn_gaussian_nll_loss_init (GnnGaussianNLLLoss *self)
{
}

/**
 * gnn_gaussian_nll_loss_new:
 * @full: the value of [property@Gnn.GaussianNLLLoss:full]
 * @eps: the value of [property@Gnn.GaussianNLLLoss:eps]
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.GaussianNLLLoss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_GAUSSIAN_NLL_LOSS, NULL)` gives
 * PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnGaussianNLLLoss
 *
 * Since: 0.1
 */
GnnGaussianNLLLoss *
gnn_gaussian_nll_loss_new (gboolean    full,
                           double      eps,
                           GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_GAUSSIAN_NLL_LOSS,
                       "full", full,
                       "eps", eps,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_gaussian_nll_loss_compute:
 * @self: a GnnGaussianNLLLoss
 * @input: the input
 * @target: the target
 * @var: the var
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target, var)`: calls
 * [func@Gnn.gaussian_nll_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_gaussian_nll_loss_compute (GnnGaussianNLLLoss  *self,
                               GnnTensor           *input,
                               GnnTensor           *target,
                               GnnTensor           *var,
                               GError             **error)
{
  g_return_val_if_fail (GNN_IS_GAUSSIAN_NLL_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target, var }, 3, error);
}
