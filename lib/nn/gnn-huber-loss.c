/* gnn-huber-loss.c: the HuberLoss module (torch.nn.HuberLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnHuberLoss:
 *
 * The Huber loss, quadratic for differences below
 * [property@Gnn.HuberLoss:delta] and linear (with slope delta) above, like
 * `torch.nn.HuberLoss`: a module holding the settings of
 * [func@Gnn.huber_loss]. It prints as `HuberLoss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.HuberLoss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "HuberLoss.forward() missing 1 required positional argument: 'target'".
 *
 * Since: 1.0
 */
struct _GnnHuberLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnHuberLoss, gnn_huber_loss, GNN_TYPE_MODULE)

static GnnTensor *
huber_loss_compute (GnnLossBase       *base,
                    GnnTensor *const  *in,
                    GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  return gnn_huber_loss (in[0], in[1], reduction, v[0], error);
}

static void
gnn_huber_loss_class_init (GnnHuberLossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnHuberLoss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes [method@Gnn.HuberLoss.compute]
   * fail ("foo is not a valid value for reduction").
   *
   * Since: 1.0
   */
  gnn_loss_class_setup (object_class, "gnn_huber_loss_compute", huber_loss_compute, inputs);

  /**
   * GnnHuberLoss:delta:
   *
   * Where the loss changes from quadratic to linear; a value not above 0
   * makes compute fail with PyTorch's message.
   *
   * Since: 1.0
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "delta", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1.0);
}

static void
gnn_huber_loss_init (GnnHuberLoss *self)
{
}

/**
 * gnn_huber_loss_new:
 * @reduction: the reduction
 * @delta: the value of [property@Gnn.HuberLoss:delta]
 *
 * Creates the loss, like `torch.nn.HuberLoss(...)` with the same arguments;
 * `g_object_new (GNN_TYPE_HUBER_LOSS, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnHuberLoss
 *
 * Since: 1.0
 */
GnnHuberLoss *
gnn_huber_loss_new (GnnReduction reduction,
                    double      delta)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_HUBER_LOSS,
                       "reduction", gnn_loss_reduction_name (reduction),
                       "delta", delta,
                       NULL);
}

/**
 * gnn_huber_loss_compute:
 * @self: a GnnHuberLoss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.huber_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 1.0
 */
GnnTensor *
gnn_huber_loss_compute (GnnHuberLoss  *self,
                        GnnTensor     *input,
                        GnnTensor     *target,
                        GError       **error)
{
  g_return_val_if_fail (GNN_IS_HUBER_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}
