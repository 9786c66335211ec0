/* gnn-adamax.c: Adamax (torch 1.13 _single_tensor_adamax)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnAdamax:
 *
 * The Adamax optimizer (Adam with the infinity norm) with the update of
 * PyTorch 1.13's `torch.optim.Adamax`, operation for operation:
 *
 * ```
 * g = grad (negated with maximize) (+ weight_decay * param)
 * exp_avg = beta1 * exp_avg + (1 - beta1) * g
 * exp_inf = max(beta2 * exp_inf, |g| + eps)
 * param -= lr / (1 - beta1 ** step) * exp_avg / exp_inf
 * ```
 *
 * The per-parameter state holds `step` (a float32 scalar), `exp_avg` and
 * `exp_inf`.
 *
 * Since: 0.1
 */
struct _GnnAdamax
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_LR,
  PROP_BETA1,
  PROP_BETA2,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_MAXIMIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnAdamax, gnn_adamax, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry adamax_state[] = {
  { "step", GNN_OPTIM_STATE_F32, TRUE },
  { "exp_avg", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { "exp_inf", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { NULL, 0, FALSE },
};

static gboolean
gnn_adamax_validate (GnnOptimizer  *self,
                     GError       **error)
{
  const GValue *o = gnn_optim_bag_values (G_OBJECT (self));
  double eps = g_value_get_double (&o[PROP_EPS]);
  double wd = g_value_get_double (&o[PROP_WEIGHT_DECAY]);

  return gnn_optim_check (eps >= 0.0, "epsilon value", eps, error) &&
         gnn_optim_check_beta (g_value_get_double (&o[PROP_BETA1]), 0, error) &&
         gnn_optim_check_beta (g_value_get_double (&o[PROP_BETA2]), 1, error) &&
         gnn_optim_check (wd >= 0.0, "weight_decay value", wd, error);
}

/* torch.amax propagates NaN. */
#define NAN_MAX(a, b) ((a) > (b) || isnan (a) ? (a) : (b))

#define DEFINE_ADAMAX_KERNEL(T, suffix, FABS)                                  \
GNN_OPTIM_KERNEL                                                               \
adamax_##suffix##_typed (T *p, const T *grad, T *m, T *u, gint64 n,            \
                         double clr, double b1_d, double b2_d, double eps_d,   \
                         double wd_d, gboolean maximize)                       \
{                                                                              \
  const T b1 = (T) b1_d, one_b1 = (T) (1.0 - b1_d), b2 = (T) b2_d;             \
  const T eps = (T) eps_d, wd = (T) wd_d, neg_clr = (T) -clr;                  \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T g = maximize ? -grad[j] : grad[j];                                     \
      T decayed, fresh;                                                        \
      if (wd_d != 0)                                                           \
        g = GNN_FMA (T, wd, p[j], g);                                          \
      m[j] = GNN_FMA (T, one_b1, g, m[j] * b1);                                \
      decayed = u[j] * b2;                                                     \
      fresh = FABS (g) + eps;                                                  \
      u[j] = isnan (fresh) ? fresh : NAN_MAX (decayed, fresh);                 \
      p[j] = p[j] + neg_clr * m[j] / u[j];                                     \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (adamax_##suffix, (T *p, const T *grad, T *m, T *u, gint64 n,  \
                 double clr, double b1_d, double b2_d, double eps_d,           \
                 double wd_d, gboolean maximize),                              \
                 (p, grad, m, u, n, clr, b1_d, b2_d, eps_d, wd_d, maximize))

DEFINE_ADAMAX_KERNEL (float, f32, fabsf)
DEFINE_ADAMAX_KERNEL (double, f64, fabs)

static gboolean
adamax_update (GnnOptimizer  *self,
               const GValue  *o,
               GnnTensor     *param,
               GnnTensor     *grad,
               GnnStateDict  *state,
               gpointer       data,
               GError       **error)
{
  float *step = gnn_optim_data (gnn_optim_state_scalar (state, "step", GNN_DTYPE_F32, 0));
  gpointer m = gnn_optim_data (gnn_optim_state_like_param (state, "exp_avg", param, 0));
  gpointer u = gnn_optim_data (gnn_optim_state_like_param (state, "exp_inf", param, 0));
  double beta1 = g_value_get_double (&o[PROP_BETA1]), clr;

  (void) self, (void) data, (void) error;
  *step += 1.0f;
  clr = g_value_get_double (&o[PROP_LR]) / (1 - pow (beta1, (double) *step));
  GNN_OPTIM_DISPATCH (param, adamax, gnn_optim_data (param), gnn_optim_data (grad), m, u,
                      gnn_tensor_get_numel (param), clr, beta1,
                      g_value_get_double (&o[PROP_BETA2]), g_value_get_double (&o[PROP_EPS]),
                      g_value_get_double (&o[PROP_WEIGHT_DECAY]),
                      g_value_get_boolean (&o[PROP_MAXIMIZE]));
  return TRUE;
}

static void
gnn_adamax_class_init (GnnAdamaxClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = gnn_adamax_validate;
  gnn_optimizer_class_set_update (optimizer_class, adamax_update);
  gnn_optimizer_class_set_state_entries (optimizer_class, adamax_state);

  /**
   * GnnAdamax:lr:
   *
   * The learning rate: the default of new parameter groups (PyTorch's
   * `defaults['lr']`, 0.002); setting it sets every group's.
   *
   * Since: 0.1
   */
  properties[PROP_LR] = gnn_optim_double_property ("lr", 2e-3);
  /**
   * GnnAdamax:beta1:
   *
   * The decay of the running average of the gradient (PyTorch's
   * `betas[0]`).
   *
   * Since: 0.1
   */
  properties[PROP_BETA1] = gnn_optim_double_property ("beta1", 0.9);
  /**
   * GnnAdamax:beta2:
   *
   * The decay of the infinity norm (PyTorch's `betas[1]`).
   *
   * Since: 0.1
   */
  properties[PROP_BETA2] = gnn_optim_double_property ("beta2", 0.999);
  /**
   * GnnAdamax:eps:
   *
   * The term added to the gradient's magnitude for numerical stability.
   *
   * Since: 0.1
   */
  properties[PROP_EPS] = gnn_optim_double_property ("eps", 1e-8);
  /**
   * GnnAdamax:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   *
   * Since: 0.1
   */
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", 0.0);
  /**
   * GnnAdamax:maximize:
   *
   * Whether to maximize the objective (step along the gradient).
   *
   * Since: 0.1
   */
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_adamax_init (GnnAdamax *self)
{
  (void) self;
}

/**
 * gnn_adamax_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 0.002)
 * @error: return location for a #GError
 *
 * Creates an Adamax optimizer over one group, like
 * `torch.optim.Adamax(params, lr)`; the other settings are properties.
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnAdamax *
gnn_adamax_new (GPtrArray  *params,
                double      lr,
                GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_ADAMAX, params, lr, error);
}
