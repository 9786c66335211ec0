/* gnn-nadam.c: NAdam and RAdam (torch 1.13 _single_tensor_nadam/_radam):
 * Adam's moments with a Nesterov step or a rectified one
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnNAdam:
 *
 * The NAdam optimizer (Adam with Nesterov momentum) with the update of
 * PyTorch 1.13's `torch.optim.NAdam`, operation for operation, including
 * its float32 `mu_product`:
 *
 * ```
 * g = grad (+ weight_decay * param)
 * mu = beta1 * (1 - 0.5 * 0.96 ** (step * momentum_decay)), mu_next likewise at step + 1
 * mu_product *= mu
 * exp_avg, exp_avg_sq as in Adam; denom = sqrt(exp_avg_sq / (1 - beta2 ** step)) + eps
 * param -= lr * (1 - mu) / (1 - mu_product) * g / denom
 * param -= lr * mu_next / (1 - mu_product * mu * mu_next) * exp_avg / denom
 * ```
 *
 * (PyTorch multiplies the updated `mu_product` by `mu` once more for the
 * second coefficient; so does this.)
 *
 * PyTorch 1.13's NAdam has no `maximize`. The per-parameter state holds
 * `step`, `mu_product` (float32 scalars), `exp_avg` and `exp_avg_sq`.
 *
 * Since: 0.1
 */

/**
 * GnnRAdam:
 *
 * The RAdam optimizer (rectified Adam) with the update of PyTorch 1.13's
 * `torch.optim.RAdam`, operation for operation: Adam's moments, and a step
 * that uses the variance rectification term while the approximated SMA
 * length `rho_t` exceeds 5 (a plain bias-corrected momentum step before).
 * PyTorch 1.13's RAdam has no `maximize`. The per-parameter state holds
 * `step` (a float32 scalar), `exp_avg` and `exp_avg_sq`.
 *
 * Since: 0.1
 */
struct _GnnNAdam
{
  GnnOptimizer parent_instance;
};

struct _GnnRAdam
{
  GnnOptimizer parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnNAdam, gnn_nadam, GNN_TYPE_OPTIMIZER)
G_DEFINE_FINAL_TYPE (GnnRAdam, gnn_radam, GNN_TYPE_OPTIMIZER)

/* torch's defaults order; RAdam stops before momentum_decay */
enum {
  PROP_LR,
  PROP_BETA1,
  PROP_BETA2,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_MOMENTUM_DECAY,
  N_PROPS
};

static const GnnOptimStateEntry nadam_state[] = {
  { "step", GNN_OPTIM_STATE_F32, TRUE },
  { "mu_product", GNN_OPTIM_STATE_F32, TRUE },
  { "exp_avg", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { "exp_avg_sq", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { NULL, 0, FALSE },
};

static const GnnOptimStateEntry radam_state[] = {
  { "step", GNN_OPTIM_STATE_F32, TRUE },
  { "exp_avg", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { "exp_avg_sq", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { NULL, 0, FALSE },
};

static gboolean
validate (GnnOptimizer  *self,
          GError       **error)
{
  const GValue *o = gnn_optim_bag_values (G_OBJECT (self));
  double eps = g_value_get_double (&o[PROP_EPS]);
  double wd = g_value_get_double (&o[PROP_WEIGHT_DECAY]);

  if (!gnn_optim_check (eps >= 0.0, "epsilon value", eps, error) ||
      !gnn_optim_check_beta (g_value_get_double (&o[PROP_BETA1]), 0, error) ||
      !gnn_optim_check_beta (g_value_get_double (&o[PROP_BETA2]), 1, error) ||
      !gnn_optim_check (wd >= 0.0, "weight_decay value", wd, error))
    return FALSE;
  return !GNN_IS_NADAM (self) ||
         gnn_optim_check (g_value_get_double (&o[PROP_MOMENTUM_DECAY]) >= 0.0, "momentum_decay value",
                          g_value_get_double (&o[PROP_MOMENTUM_DECAY]), error);
}

/* Adam's moments, then NAdam's two addcdiv_ steps (the coefficients are
 * computed in double, as PyTorch's Python scalars are). */
#define DEFINE_NADAM_KERNEL(T, suffix, SQRT)                                   \
GNN_OPTIM_KERNEL                                                               \
nadam_##suffix##_typed (T *p, const T *grad, T *m, T *v, gint64 n,             \
                        double b1_d, double b2_d, double eps_d, double wd_d,   \
                        double bc2_d, double c_grad, double c_avg)             \
{                                                                              \
  const T b1 = (T) b1_d, one_b1 = (T) (1.0 - b1_d), b2 = (T) b2_d;             \
  const T one_b2 = (T) (1.0 - b2_d), eps = (T) eps_d, wd = (T) wd_d;           \
  const T bc2 = (T) bc2_d, cg = (T) c_grad, ca = (T) c_avg;                    \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T g = grad[j], denom;                                                    \
      if (wd_d != 0)                                                           \
        g = GNN_FMA (T, wd, p[j], g);                                          \
      m[j] = GNN_FMA (T, one_b1, g, m[j] * b1);                                \
      v[j] = GNN_FMA (T, one_b2 * g, g, v[j] * b2);                            \
      denom = SQRT (v[j] / bc2) + eps;                                         \
      p[j] = p[j] + cg * g / denom;                                            \
      p[j] = p[j] + ca * m[j] / denom;                                         \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (nadam_##suffix, (T *p, const T *grad, T *m, T *v, gint64 n,   \
                 double b1_d, double b2_d, double eps_d, double wd_d,          \
                 double bc2_d, double c_grad, double c_avg),                   \
                 (p, grad, m, v, n, b1_d, b2_d, eps_d, wd_d, bc2_d, c_grad, c_avg))

DEFINE_NADAM_KERNEL (float, f32, sqrtf)
DEFINE_NADAM_KERNEL (double, f64, sqrt)

static gboolean
nadam_update (GnnOptimizer  *self,
              const GValue  *o,
              GnnTensor     *param,
              GnnTensor     *grad,
              GnnStateDict  *state,
              gpointer       data,
              GError       **error)
{
  float *step = gnn_optim_data (gnn_optim_state_scalar (state, "step", GNN_DTYPE_F32, 0));
  float *mu_product = gnn_optim_data (gnn_optim_state_scalar (state, "mu_product", GNN_DTYPE_F32, 1));
  gpointer m = gnn_optim_data (gnn_optim_state_like_param (state, "exp_avg", param, 0));
  gpointer v = gnn_optim_data (gnn_optim_state_like_param (state, "exp_avg_sq", param, 0));
  double lr = g_value_get_double (&o[PROP_LR]), beta1 = g_value_get_double (&o[PROP_BETA1]);
  double beta2 = g_value_get_double (&o[PROP_BETA2]);
  double decay = g_value_get_double (&o[PROP_MOMENTUM_DECAY]);
  double t, mu, mu_next;
  float mu_product_next;

  (void) self, (void) data, (void) error;
  *step += 1.0f;
  t = *step;
  mu = beta1 * (1. - 0.5 * pow (0.96, t * decay));
  mu_next = beta1 * (1. - 0.5 * pow (0.96, (t + 1) * decay));
  /* float32 tensor arithmetic: the Python floats are rounded first */
  *mu_product = *mu_product * (float) mu;
  mu_product_next = (*mu_product * (float) mu) * (float) mu_next;
  GNN_OPTIM_DISPATCH (param, nadam, gnn_optim_data (param), gnn_optim_data (grad), m, v,
                      gnn_tensor_get_numel (param), beta1, beta2,
                      g_value_get_double (&o[PROP_EPS]), g_value_get_double (&o[PROP_WEIGHT_DECAY]),
                      1 - pow (beta2, t), -lr * (1. - mu) / (1. - (double) *mu_product),
                      -lr * mu_next / (1. - (double) mu_product_next));
  return TRUE;
}

/* RAdam: 1 / x is torch's `float / tensor` (reciprocal, then multiply). */
#define DEFINE_RADAM_KERNEL(T, suffix, SQRT)                                   \
GNN_OPTIM_KERNEL                                                               \
radam_##suffix##_typed (T *p, const T *grad, T *m, T *v, gint64 n,             \
                        double lr_d, double b1_d, double b2_d, double eps_d,   \
                        double wd_d, double bc1_d, double bc2_sqrt_d,          \
                        double rect_d, gboolean rectified)                     \
{                                                                              \
  const T b1 = (T) b1_d, one_b1 = (T) (1.0 - b1_d), b2 = (T) b2_d;             \
  const T one_b2 = (T) (1.0 - b2_d), eps = (T) eps_d, wd = (T) wd_d;           \
  const T lr = (T) lr_d, bc1 = (T) bc1_d, bc2_sqrt = (T) bc2_sqrt_d;           \
  const T rect = (T) rect_d;                                                   \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T g = grad[j], corrected;                                                \
      if (wd_d != 0)                                                           \
        g = GNN_FMA (T, wd, p[j], g);                                          \
      m[j] = GNN_FMA (T, one_b1, g, m[j] * b1);                                \
      v[j] = GNN_FMA (T, one_b2 * g, g, v[j] * b2);                            \
      corrected = m[j] / bc1;                                                  \
      if (rectified)                                                           \
        {                                                                      \
          T adaptive = (T) 1 / (SQRT (v[j]) + eps) * bc2_sqrt;                 \
          p[j] = p[j] + (T) -1 * (corrected * lr * adaptive * rect);           \
        }                                                                      \
      else                                                                     \
        p[j] = p[j] + (T) -1 * (corrected * lr);                               \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (radam_##suffix, (T *p, const T *grad, T *m, T *v, gint64 n,   \
                 double lr_d, double b1_d, double b2_d, double eps_d,          \
                 double wd_d, double bc1_d, double bc2_sqrt_d, double rect_d,  \
                 gboolean rectified),                                          \
                 (p, grad, m, v, n, lr_d, b1_d, b2_d, eps_d, wd_d, bc1_d, bc2_sqrt_d, rect_d, rectified))

DEFINE_RADAM_KERNEL (float, f32, sqrtf)
DEFINE_RADAM_KERNEL (double, f64, sqrt)

static gboolean
radam_update (GnnOptimizer  *self,
              const GValue  *o,
              GnnTensor     *param,
              GnnTensor     *grad,
              GnnStateDict  *state,
              gpointer       data,
              GError       **error)
{
  float *step = gnn_optim_data (gnn_optim_state_scalar (state, "step", GNN_DTYPE_F32, 0));
  gpointer m = gnn_optim_data (gnn_optim_state_like_param (state, "exp_avg", param, 0));
  gpointer v = gnn_optim_data (gnn_optim_state_like_param (state, "exp_avg_sq", param, 0));
  double beta1 = g_value_get_double (&o[PROP_BETA1]), beta2 = g_value_get_double (&o[PROP_BETA2]);
  double t, bc1, bc2, rho_inf, rho_t, rect = 0;

  (void) self, (void) data, (void) error;
  *step += 1.0f;
  t = *step;
  bc1 = 1 - pow (beta1, t);
  bc2 = 1 - pow (beta2, t);
  rho_inf = 2 / (1 - beta2) - 1;
  rho_t = rho_inf - 2 * t * pow (beta2, t) / bc2;
  if (rho_t > 5.)
    rect = sqrt ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t));
  GNN_OPTIM_DISPATCH (param, radam, gnn_optim_data (param), gnn_optim_data (grad), m, v,
                      gnn_tensor_get_numel (param), g_value_get_double (&o[PROP_LR]), beta1, beta2,
                      g_value_get_double (&o[PROP_EPS]), g_value_get_double (&o[PROP_WEIGHT_DECAY]),
                      bc1, sqrt (bc2), rect, rho_t > 5.);
  return TRUE;
}

static void
install (gpointer     klass,
         gboolean     nadam)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = validate;
  gnn_optimizer_class_set_update (optimizer_class, nadam ? nadam_update : radam_update);
  gnn_optimizer_class_set_state_entries (optimizer_class, nadam ? nadam_state : radam_state);
  properties[PROP_LR] = gnn_optim_double_property ("lr", nadam ? 2e-3 : 1e-3);
  properties[PROP_BETA1] = gnn_optim_double_property ("beta1", 0.9);
  properties[PROP_BETA2] = gnn_optim_double_property ("beta2", 0.999);
  properties[PROP_EPS] = gnn_optim_double_property ("eps", 1e-8);
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", 0.0);
  if (nadam)
    properties[PROP_MOMENTUM_DECAY] = gnn_optim_double_property ("momentum-decay", 4e-3);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties,
                                      nadam ? N_PROPS : PROP_MOMENTUM_DECAY);
}

/**
 * GnnNAdam:lr:
 *
 * The learning rate: the default of new parameter groups (PyTorch's
 * `defaults['lr']`, 0.002); setting it sets every group's.
 *
 * Since: 0.1
 */
/**
 * GnnNAdam:beta1:
 *
 * The decay of the running average of the gradient (PyTorch's `betas[0]`).
 *
 * Since: 0.1
 */
/**
 * GnnNAdam:beta2:
 *
 * The decay of the running average of the squared gradient (PyTorch's
 * `betas[1]`).
 *
 * Since: 0.1
 */
/**
 * GnnNAdam:eps:
 *
 * The term added to the denominator for numerical stability.
 *
 * Since: 0.1
 */
/**
 * GnnNAdam:weight-decay:
 *
 * The L2 penalty: `weight_decay * param` is added to the gradient.
 *
 * Since: 0.1
 */
/**
 * GnnNAdam:momentum-decay:
 *
 * The decay of the momentum schedule `mu`.
 *
 * Since: 0.1
 */
static void
gnn_nadam_class_init (GnnNAdamClass *klass)
{
  install (klass, TRUE);
}

/**
 * GnnRAdam:lr:
 *
 * The learning rate: the default of new parameter groups (PyTorch's
 * `defaults['lr']`, 0.001); setting it sets every group's.
 *
 * Since: 0.1
 */
/**
 * GnnRAdam:beta1:
 *
 * The decay of the running average of the gradient (PyTorch's `betas[0]`).
 *
 * Since: 0.1
 */
/**
 * GnnRAdam:beta2:
 *
 * The decay of the running average of the squared gradient (PyTorch's
 * `betas[1]`).
 *
 * Since: 0.1
 */
/**
 * GnnRAdam:eps:
 *
 * The term added to the denominator for numerical stability.
 *
 * Since: 0.1
 */
/**
 * GnnRAdam:weight-decay:
 *
 * The L2 penalty: `weight_decay * param` is added to the gradient.
 *
 * Since: 0.1
 */
static void
gnn_radam_class_init (GnnRAdamClass *klass)
{
  install (klass, FALSE);
}

static void
gnn_nadam_init (GnnNAdam *self)
{
  (void) self;
}

static void
gnn_radam_init (GnnRAdam *self)
{
  (void) self;
}

/**
 * gnn_nadam_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 0.002)
 * @error: return location for a #GError
 *
 * Creates a NAdam optimizer over one group, like
 * `torch.optim.NAdam(params, lr)`; the other settings are properties.
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnNAdam *
gnn_nadam_new (GPtrArray  *params,
               double      lr,
               GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_NADAM, params, lr, error);
}

/**
 * gnn_radam_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 0.001)
 * @error: return location for a #GError
 *
 * Creates a RAdam optimizer over one group, like
 * `torch.optim.RAdam(params, lr)`; the other settings are properties.
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRAdam *
gnn_radam_new (GPtrArray  *params,
               double      lr,
               GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_RADAM, params, lr, error);
}
