/* gnn-l1-losses.c: the L1-type losses as modules (torch.nn.L1Loss,
 * torch.nn.SmoothL1Loss, torch.nn.HuberLoss): one implementation, the
 * function a switch on the type
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnL1Loss:
 *
 * The mean absolute error between an input and a target (broadcast together),
 * like `torch.nn.L1Loss`: a module holding the settings of
 * [func@Gnn.l1_loss]. It prints as `L1Loss()`, as PyTorch's losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.L1Loss.compute]; [method@Gnn.Module.call]
 * with the input alone fails with PyTorch's message, "L1Loss.forward()
 * missing 1 required positional argument: 'target'".
 *
 * Since: 0.1
 */
/**
 * GnnSmoothL1Loss:
 *
 * The smooth L1 loss, quadratic for differences below
 * [property@Gnn.SmoothL1Loss:beta] and linear above, like
 * `torch.nn.SmoothL1Loss`: a module holding the settings of
 * [func@Gnn.smooth_l1_loss]. It prints as `SmoothL1Loss()`, as PyTorch's
 * losses do.
 *
 * A loss takes two tensors and [vfunc@Gnn.Module.forward] takes one, so the
 * loss is computed with [method@Gnn.SmoothL1Loss.compute];
 * [method@Gnn.Module.call] with the input alone fails with PyTorch's message,
 * "SmoothL1Loss.forward() missing 1 required positional argument: 'target'".
 *
 * Since: 0.1
 */
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
 * Since: 0.1
 */
struct _GnnL1Loss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnL1Loss, gnn_l1_loss, GNN_TYPE_MODULE)

struct _GnnSmoothL1Loss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnSmoothL1Loss, gnn_smooth_l1_loss, GNN_TYPE_MODULE)

struct _GnnHuberLoss
{
  GnnLossBase base;
};

G_DEFINE_FINAL_TYPE (GnnHuberLoss, gnn_huber_loss, GNN_TYPE_MODULE)

/* The loss of whichever family member @base is. */
static GnnTensor *
family_compute (GnnLossBase       *base,
                GnnTensor *const  *in,
                GError           **error)
{
  const double *v = base->values;
  GnnReduction reduction;

  if (!gnn_loss_get_reduction (base, &reduction, error))
    return NULL;
  if (GNN_IS_L1_LOSS (base))
    return gnn_l1_loss (in[0], in[1], reduction, error);
  if (GNN_IS_SMOOTH_L1_LOSS (base))
    return gnn_smooth_l1_loss (in[0], in[1], reduction, v[0], error);
  return gnn_huber_loss (in[0], in[1], reduction, v[0], error);
}

static void
gnn_l1_loss_class_init (GnnL1LossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnL1Loss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes [method@Gnn.L1Loss.compute] fail
   * ("foo is not a valid value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_l1_loss_compute", family_compute, inputs);
}

static void
gnn_smooth_l1_loss_class_init (GnnSmoothL1LossClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const inputs[] = { "input", "target", NULL };

  /**
   * GnnSmoothL1Loss:reduction:
   *
   * How the losses are reduced: `"mean"` (the default), `"sum"` or `"none"`,
   * PyTorch's strings. Another value makes [method@Gnn.SmoothL1Loss.compute]
   * fail ("foo is not a valid value for reduction").
   *
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_smooth_l1_loss_compute", family_compute, inputs);

  /**
   * GnnSmoothL1Loss:beta:
   *
   * Where the loss changes from quadratic to linear; a negative value makes
   * compute fail with PyTorch's message.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "beta", -G_MAXDOUBLE, G_MAXDOUBLE, 1.0);
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
   * Since: 0.1
   */
  gnn_loss_class_setup (object_class, "gnn_huber_loss_compute",
                        family_compute, inputs);

  /**
   * GnnHuberLoss:delta:
   *
   * Where the loss changes from quadratic to linear; a value not above 0
   * makes compute fail with PyTorch's message.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_double (object_class, GNN_LOSS_N_PROPS, "delta", -G_MAXDOUBLE, G_MAXDOUBLE,
                           1.0);
}

static void
gnn_l1_loss_init (GnnL1Loss *self)
{
}

/**
 * gnn_l1_loss_new:
 * @reduction: the reduction
 *
 * Creates the loss, like `torch.nn.L1Loss(...)` with the same arguments;
 * `g_object_new (GNN_TYPE_L1_LOSS, NULL)` gives PyTorch's defaults.
 *
 * Returns: (transfer full): a new GnnL1Loss
 *
 * Since: 0.1
 */
GnnL1Loss *
gnn_l1_loss_new (GnnReduction reduction)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_L1_LOSS,
                       "reduction", gnn_loss_reduction_name (reduction),
                       NULL);
}

/**
 * gnn_l1_loss_compute:
 * @self: a GnnL1Loss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.l1_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_l1_loss_compute (GnnL1Loss  *self,
                     GnnTensor  *input,
                     GnnTensor  *target,
                     GError    **error)
{
  g_return_val_if_fail (GNN_IS_L1_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
}

static void
gnn_smooth_l1_loss_init (GnnSmoothL1Loss *self)
{
}

/**
 * gnn_smooth_l1_loss_new:
 * @reduction: the reduction
 * @beta: the value of [property@Gnn.SmoothL1Loss:beta]
 *
 * Creates the loss, like `torch.nn.SmoothL1Loss(...)` with the same
 * arguments; `g_object_new (GNN_TYPE_SMOOTH_L1_LOSS, NULL)` gives PyTorch's
 * defaults.
 *
 * Returns: (transfer full): a new GnnSmoothL1Loss
 *
 * Since: 0.1
 */
GnnSmoothL1Loss *
gnn_smooth_l1_loss_new (GnnReduction reduction,
                        double      beta)
{
  g_return_val_if_fail (gnn_loss_reduction_name (reduction) != NULL, NULL);

  return g_object_new (GNN_TYPE_SMOOTH_L1_LOSS,
                       "reduction", gnn_loss_reduction_name (reduction),
                       "beta", beta,
                       NULL);
}

/**
 * gnn_smooth_l1_loss_compute:
 * @self: a GnnSmoothL1Loss
 * @input: the input
 * @target: the target
 * @error: return location for a #GError
 *
 * Computes the loss, PyTorch's `criterion(input, target)`: calls
 * [func@Gnn.smooth_l1_loss] with the module's settings. The result is
 * differentiable.
 *
 * Returns: (transfer full): the loss (0-d unless the reduction is
 *   `"none"`), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_smooth_l1_loss_compute (GnnSmoothL1Loss  *self,
                            GnnTensor        *input,
                            GnnTensor        *target,
                            GError          **error)
{
  g_return_val_if_fail (GNN_IS_SMOOTH_L1_LOSS (self), NULL);

  return gnn_loss_compute (self, (GnnTensor *[]) { input, target }, 2, error);
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
 * Since: 0.1
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
 * Since: 0.1
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
