/* gnn-adagrad.c: Adagrad (torch 1.13 _single_tensor_adagrad)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnAdagrad:
 *
 * The Adagrad optimizer with the update of PyTorch 1.13's
 * `torch.optim.Adagrad`, operation for operation:
 *
 * ```
 * g = grad (negated with maximize) (+ weight_decay * param)
 * clr = lr / (1 + (step - 1) * lr_decay)
 * sum += g * g
 * param -= clr * g / (sqrt(sum) + eps)
 * ```
 *
 * As in PyTorch, the state of each parameter — `step` (a float32 scalar)
 * and `sum`, filled with [property@Gnn.Adagrad:initial-accumulator-value]
 * as it is when the parameter joins the optimizer — exists from the start,
 * before the first step.
 *
 * Since: 0.1
 */
struct _GnnAdagrad
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_LR,
  PROP_LR_DECAY,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_INITIAL_ACCUMULATOR_VALUE,
  PROP_MAXIMIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnAdagrad, gnn_adagrad, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry adagrad_state[] = {
  { "step", GNN_OPTIM_STATE_F32, TRUE },
  { "sum", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { NULL, 0, FALSE },
};

static gboolean
gnn_adagrad_validate (GnnOptimizer  *self,
                      GError       **error)
{
  const GValue *o = gnn_optim_bag_values (G_OBJECT (self));
  double lr_decay = g_value_get_double (&o[PROP_LR_DECAY]);
  double wd = g_value_get_double (&o[PROP_WEIGHT_DECAY]);
  double init = g_value_get_double (&o[PROP_INITIAL_ACCUMULATOR_VALUE]);
  double eps = g_value_get_double (&o[PROP_EPS]);

  return gnn_optim_check (lr_decay >= 0.0, "lr_decay value", lr_decay, error) &&
         gnn_optim_check (wd >= 0.0, "weight_decay value", wd, error) &&
         gnn_optim_check (init >= 0.0, "initial_accumulator_value value", init, error) &&
         gnn_optim_check (eps >= 0.0, "epsilon value", eps, error);
}

/* PyTorch fills the state in its constructor, with the constructor's
 * initial_accumulator_value (not the group's). */
static void
gnn_adagrad_init_state (GnnOptimizer *self,
                        guint         index,
                        GnnStateDict *state)
{
  const GValue *o = gnn_optim_bag_values (G_OBJECT (self));

  gnn_optim_state_scalar (state, "step", GNN_DTYPE_F32, 0);
  gnn_optim_state_like_param (state, "sum", gnn_optimizer_get_param (self, index),
                              g_value_get_double (&o[PROP_INITIAL_ACCUMULATOR_VALUE]));
}

#define DEFINE_ADAGRAD_KERNEL(T, suffix, SQRT)                                 \
GNN_OPTIM_KERNEL                                                               \
adagrad_##suffix##_typed (T *p, const T *grad, T *sum, gint64 n, double clr,   \
                          double eps_d, double wd_d, gboolean maximize)        \
{                                                                              \
  const T eps = (T) eps_d, wd = (T) wd_d, neg_clr = (T) -clr;                  \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T g = maximize ? -grad[j] : grad[j];                                     \
      if (wd_d != 0)                                                           \
        g = GNN_FMA (T, wd, p[j], g);                                          \
      sum[j] = GNN_FMA (T, g, g, sum[j]);                                      \
      p[j] = p[j] + neg_clr * g / (SQRT (sum[j]) + eps);                       \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (adagrad_##suffix, (T *p, const T *grad, T *sum, gint64 n, \
                 double clr, double eps_d, double wd_d, gboolean maximize),    \
                 (p, grad, sum, n, clr, eps_d, wd_d, maximize))

DEFINE_ADAGRAD_KERNEL (float, f32, sqrtf)
DEFINE_ADAGRAD_KERNEL (double, f64, sqrt)

static gboolean
adagrad_update (GnnOptimizer  *self,
                const GValue  *o,
                GnnTensor     *param,
                GnnTensor     *grad,
                GnnStateDict  *state,
                gpointer       data,
                GError       **error)
{
  float *step = gnn_optim_data (gnn_optim_state_scalar (state, "step", GNN_DTYPE_F32, 0));
  gpointer sum = gnn_optim_data (gnn_optim_state_like_param (state, "sum", param,
                                                             g_value_get_double (&o[PROP_INITIAL_ACCUMULATOR_VALUE])));
  double clr;

  (void) self, (void) data, (void) error;
  *step += 1.0f;
  clr = g_value_get_double (&o[PROP_LR]) /
        (1 + ((double) *step - 1) * g_value_get_double (&o[PROP_LR_DECAY]));
  GNN_OPTIM_DISPATCH (param, adagrad, gnn_optim_data (param), gnn_optim_data (grad), sum,
                      gnn_tensor_get_numel (param), clr, g_value_get_double (&o[PROP_EPS]),
                      g_value_get_double (&o[PROP_WEIGHT_DECAY]),
                      g_value_get_boolean (&o[PROP_MAXIMIZE]));
  return TRUE;
}

static void
gnn_adagrad_class_init (GnnAdagradClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = gnn_adagrad_validate;
  optimizer_class->init_state = gnn_adagrad_init_state;
  gnn_optimizer_class_set_update (optimizer_class, adagrad_update);
  gnn_optimizer_class_set_state_entries (optimizer_class, adagrad_state);

  /**
   * GnnAdagrad:lr:
   *
   * The learning rate: the default of new parameter groups (PyTorch's
   * `defaults['lr']`, 0.01); setting it sets every group's.
   *
   * Since: 0.1
   */
  properties[PROP_LR] = gnn_optim_double_property ("lr", 1e-2);
  /**
   * GnnAdagrad:lr-decay:
   *
   * The decay of the rate with the step count: step `t` uses
   * `lr / (1 + (t - 1) * lr_decay)`.
   *
   * Since: 0.1
   */
  properties[PROP_LR_DECAY] = gnn_optim_double_property ("lr-decay", 0.0);
  /**
   * GnnAdagrad:eps:
   *
   * The term added to the denominator for numerical stability.
   *
   * Since: 0.1
   */
  properties[PROP_EPS] = gnn_optim_double_property ("eps", 1e-10);
  /**
   * GnnAdagrad:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   *
   * Since: 0.1
   */
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", 0.0);
  /**
   * GnnAdagrad:initial-accumulator-value:
   *
   * The starting value of every element of the `sum` of squared gradients.
   *
   * Since: 0.1
   */
  properties[PROP_INITIAL_ACCUMULATOR_VALUE] =
    gnn_optim_double_property ("initial-accumulator-value", 0.0);
  /**
   * GnnAdagrad:maximize:
   *
   * Whether to maximize the objective (step along the gradient).
   *
   * Since: 0.1
   */
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_adagrad_init (GnnAdagrad *self)
{
  (void) self;
}

/**
 * gnn_adagrad_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 0.01)
 * @error: return location for a #GError
 *
 * Creates an Adagrad optimizer over one group, like
 * `torch.optim.Adagrad(params, lr)`; the other settings are properties.
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnAdagrad *
gnn_adagrad_new (GPtrArray  *params,
                 double      lr,
                 GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_ADAGRAD, params, lr, error);
}
