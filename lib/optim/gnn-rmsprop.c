/* gnn-rmsprop.c: RMSprop (torch 1.13 _single_tensor_rmsprop)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnRMSprop:
 *
 * The RMSprop optimizer with the update of PyTorch 1.13's
 * `torch.optim.RMSprop`, operation for operation:
 *
 * ```
 * g = grad (negated with maximize) (+ weight_decay * param)
 * square_avg = alpha * square_avg + (1 - alpha) * g * g
 * avg = sqrt(square_avg) + eps, or centered: sqrt(square_avg - grad_avg ** 2) + eps
 *       with grad_avg = alpha * grad_avg + (1 - alpha) * g
 * momentum > 0: buf = momentum * buf + g / avg; param -= lr * buf
 * else: param -= lr * g / avg
 * ```
 *
 * The per-parameter state holds `step` (an int64 scalar: PyTorch's Python
 * int), `square_avg`, and `momentum_buffer` / `grad_avg` when momentum /
 * centered are on.
 *
 * Since: 0.1
 */
struct _GnnRMSprop
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_LR,
  PROP_MOMENTUM,
  PROP_ALPHA,
  PROP_EPS,
  PROP_CENTERED,
  PROP_WEIGHT_DECAY,
  PROP_MAXIMIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnRMSprop, gnn_rmsprop, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry rmsprop_state[] = {
  { "step", GNN_OPTIM_STATE_I64, TRUE },
  { "square_avg", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { "momentum_buffer", GNN_OPTIM_STATE_LIKE_PARAM, FALSE },
  { "grad_avg", GNN_OPTIM_STATE_LIKE_PARAM, FALSE },
  { NULL, 0, FALSE },
};

static gboolean
gnn_rmsprop_validate (GnnOptimizer  *self,
                      GError       **error)
{
  const GValue *o = gnn_optim_bag_values (G_OBJECT (self));
  double eps = g_value_get_double (&o[PROP_EPS]);
  double momentum = g_value_get_double (&o[PROP_MOMENTUM]);
  double wd = g_value_get_double (&o[PROP_WEIGHT_DECAY]);
  double alpha = g_value_get_double (&o[PROP_ALPHA]);

  return gnn_optim_check (eps >= 0.0, "epsilon value", eps, error) &&
         gnn_optim_check (momentum >= 0.0, "momentum value", momentum, error) &&
         gnn_optim_check (wd >= 0.0, "weight_decay value", wd, error) &&
         gnn_optim_check (alpha >= 0.0, "alpha value", alpha, error);
}

#define DEFINE_RMSPROP_KERNEL(T, suffix, SQRT)                                 \
GNN_OPTIM_KERNEL                                                               \
rmsprop_##suffix##_typed (T *p, const T *grad, T *sq, T *gavg, T *buf,         \
                          gint64 n, double lr_d, double momentum_d,            \
                          double alpha_d, double eps_d, double wd_d,           \
                          gboolean maximize)                                   \
{                                                                              \
  const T alpha = (T) alpha_d, one_alpha = (T) (1.0 - alpha_d);                \
  const T eps = (T) eps_d, wd = (T) wd_d, neg_lr = (T) -lr_d;                  \
  const T momentum = (T) momentum_d;                                           \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T g = maximize ? -grad[j] : grad[j];                                     \
      T avg;                                                                   \
      if (wd_d != 0)                                                           \
        g = GNN_FMA (T, wd, p[j], g);                                          \
      sq[j] = GNN_FMA (T, one_alpha * g, g, sq[j] * alpha);                    \
      if (gavg != NULL)                                                        \
        {                                                                      \
          gavg[j] = GNN_FMA (T, one_alpha, g, gavg[j] * alpha);                \
          avg = SQRT (GNN_FMA (T, -gavg[j], gavg[j], sq[j]));                  \
        }                                                                      \
      else                                                                     \
        avg = SQRT (sq[j]);                                                    \
      avg = avg + eps;                                                         \
      if (buf != NULL)                                                         \
        {                                                                      \
          buf[j] = buf[j] * momentum + g / avg;                                \
          p[j] = GNN_FMA (T, neg_lr, buf[j], p[j]);                            \
        }                                                                      \
      else                                                                     \
        p[j] = p[j] + neg_lr * g / avg;                                        \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (rmsprop_##suffix, (T *p, const T *grad, T *sq, T *gavg,   \
                 T *buf, gint64 n, double lr_d, double momentum_d,             \
                 double alpha_d, double eps_d, double wd_d,                    \
                 gboolean maximize),                                           \
                 (p, grad, sq, gavg, buf, n, lr_d, momentum_d, alpha_d, eps_d, wd_d, maximize))

DEFINE_RMSPROP_KERNEL (float, f32, sqrtf)
DEFINE_RMSPROP_KERNEL (double, f64, sqrt)

static gboolean
rmsprop_update (GnnOptimizer  *self,
                const GValue  *o,
                GnnTensor     *param,
                GnnTensor     *grad,
                GnnStateDict  *state,
                gpointer       data,
                GError       **error)
{
  gint64 *step = gnn_optim_data (gnn_optim_state_scalar (state, "step", GNN_DTYPE_I64, 0));
  gpointer sq = gnn_optim_data (gnn_optim_state_like_param (state, "square_avg", param, 0));
  double momentum = g_value_get_double (&o[PROP_MOMENTUM]);
  gpointer buf = NULL, gavg = NULL;

  (void) self, (void) data, (void) error;
  if (momentum > 0)
    buf = gnn_optim_data (gnn_optim_state_like_param (state, "momentum_buffer", param, 0));
  if (g_value_get_boolean (&o[PROP_CENTERED]))
    gavg = gnn_optim_data (gnn_optim_state_like_param (state, "grad_avg", param, 0));
  *step += 1;
  GNN_OPTIM_DISPATCH (param, rmsprop, gnn_optim_data (param), gnn_optim_data (grad), sq, gavg, buf,
                      gnn_tensor_get_numel (param), g_value_get_double (&o[PROP_LR]), momentum,
                      g_value_get_double (&o[PROP_ALPHA]), g_value_get_double (&o[PROP_EPS]),
                      g_value_get_double (&o[PROP_WEIGHT_DECAY]),
                      g_value_get_boolean (&o[PROP_MAXIMIZE]));
  return TRUE;
}

static void
gnn_rmsprop_class_init (GnnRMSpropClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = gnn_rmsprop_validate;
  gnn_optimizer_class_set_update (optimizer_class, rmsprop_update);
  gnn_optimizer_class_set_state_entries (optimizer_class, rmsprop_state);

  /**
   * GnnRMSprop:lr:
   *
   * The learning rate: the default of new parameter groups (PyTorch's
   * `defaults['lr']`, 0.01); setting it sets every group's.
   *
   * Since: 0.1
   */
  properties[PROP_LR] = gnn_optim_double_property ("lr", 1e-2);
  /**
   * GnnRMSprop:momentum:
   *
   * The momentum factor (0 disables momentum).
   *
   * Since: 0.1
   */
  properties[PROP_MOMENTUM] = gnn_optim_double_property ("momentum", 0.0);
  /**
   * GnnRMSprop:alpha:
   *
   * The smoothing constant of the running averages.
   *
   * Since: 0.1
   */
  properties[PROP_ALPHA] = gnn_optim_double_property ("alpha", 0.99);
  /**
   * GnnRMSprop:eps:
   *
   * The term added to the denominator for numerical stability.
   *
   * Since: 0.1
   */
  properties[PROP_EPS] = gnn_optim_double_property ("eps", 1e-8);
  /**
   * GnnRMSprop:centered:
   *
   * Whether to normalize by an estimate of the gradient's variance (the
   * squared average minus the squared running mean of the gradient).
   *
   * Since: 0.1
   */
  properties[PROP_CENTERED] = gnn_optim_bool_property ("centered", FALSE);
  /**
   * GnnRMSprop:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   *
   * Since: 0.1
   */
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", 0.0);
  /**
   * GnnRMSprop:maximize:
   *
   * Whether to maximize the objective (step along the gradient).
   *
   * Since: 0.1
   */
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_rmsprop_init (GnnRMSprop *self)
{
  (void) self;
}

/**
 * gnn_rmsprop_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 0.01)
 * @error: return location for a #GError
 *
 * Creates an RMSprop optimizer over one group, like
 * `torch.optim.RMSprop(params, lr)`; the other settings are properties.
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRMSprop *
gnn_rmsprop_new (GPtrArray  *params,
                 double      lr,
                 GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_RMSPROP, params, lr, error);
}
