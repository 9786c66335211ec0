/* gnn-adadelta.c: Adadelta (torch 1.13 _single_tensor_adadelta)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnAdadelta:
 *
 * The Adadelta optimizer with the update of PyTorch 1.13's
 * `torch.optim.Adadelta`, operation for operation:
 *
 * ```
 * g = grad (negated with maximize) (+ weight_decay * param)
 * square_avg = rho * square_avg + (1 - rho) * g * g
 * delta = sqrt(acc_delta + eps) / sqrt(square_avg + eps) * g
 * acc_delta = rho * acc_delta + (1 - rho) * delta * delta
 * param -= lr * delta
 * ```
 *
 * The per-parameter state holds `step` (an int64 scalar: PyTorch's Python
 * int), `square_avg` and `acc_delta`. Every hyper-parameter is also a
 * per-group option.
 *
 * Since: 0.1
 */
struct _GnnAdadelta
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_LR,
  PROP_RHO,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_MAXIMIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnAdadelta, gnn_adadelta, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry adadelta_state[] = {
  { "step", GNN_OPTIM_STATE_I64, TRUE },
  { "square_avg", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { "acc_delta", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { NULL, 0, FALSE },
};

static gboolean
gnn_adadelta_validate (GnnOptimizer  *self,
                       GError       **error)
{
  const GValue *o = gnn_optim_bag_values (G_OBJECT (self));
  double rho = g_value_get_double (&o[PROP_RHO]);

  return gnn_optim_check (rho >= 0.0 && rho <= 1.0, "rho value", rho, error) &&
         gnn_optim_check (g_value_get_double (&o[PROP_EPS]) >= 0.0, "epsilon value",
                          g_value_get_double (&o[PROP_EPS]), error) &&
         gnn_optim_check (g_value_get_double (&o[PROP_WEIGHT_DECAY]) >= 0.0, "weight_decay value",
                          g_value_get_double (&o[PROP_WEIGHT_DECAY]), error);
}

#define DEFINE_ADADELTA_KERNEL(T, suffix, SQRT)                                \
GNN_OPTIM_KERNEL                                                               \
adadelta_##suffix##_typed (T *p, const T *grad, T *sq, T *acc, gint64 n,       \
                           double lr_d, double rho_d, double eps_d,            \
                           double wd_d, gboolean maximize)                     \
{                                                                              \
  const T rho = (T) rho_d, one_rho = (T) (1.0 - rho_d), eps = (T) eps_d;       \
  const T wd = (T) wd_d, neg_lr = (T) -lr_d;                                   \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T g = maximize ? -grad[j] : grad[j];                                     \
      T delta;                                                                 \
      if (wd_d != 0)                                                           \
        g = GNN_FMA (T, wd, p[j], g);                                          \
      sq[j] = GNN_FMA (T, one_rho * g, g, sq[j] * rho);                        \
      delta = SQRT (acc[j] + eps) / SQRT (sq[j] + eps) * g;                    \
      acc[j] = GNN_FMA (T, one_rho * delta, delta, acc[j] * rho);              \
      p[j] = GNN_FMA (T, neg_lr, delta, p[j]);                                 \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (adadelta_##suffix, (T *p, const T *grad, T *sq, T *acc,   \
                 gint64 n, double lr_d, double rho_d, double eps_d,            \
                 double wd_d, gboolean maximize),                              \
                 (p, grad, sq, acc, n, lr_d, rho_d, eps_d, wd_d, maximize))

DEFINE_ADADELTA_KERNEL (float, f32, sqrtf)
DEFINE_ADADELTA_KERNEL (double, f64, sqrt)

static gboolean
adadelta_update (GnnOptimizer  *self,
                 const GValue  *o,
                 GnnTensor     *param,
                 GnnTensor     *grad,
                 GnnStateDict  *state,
                 gpointer       data,
                 GError       **error)
{
  gint64 *step = gnn_optim_data (gnn_optim_state_scalar (state, "step", GNN_DTYPE_I64, 0));
  gpointer sq = gnn_optim_data (gnn_optim_state_like_param (state, "square_avg", param, 0));
  gpointer acc = gnn_optim_data (gnn_optim_state_like_param (state, "acc_delta", param, 0));

  (void) self, (void) data, (void) error;
  *step += 1;
  GNN_OPTIM_DISPATCH (param, adadelta, gnn_optim_data (param), gnn_optim_data (grad), sq, acc,
                      gnn_tensor_get_numel (param), g_value_get_double (&o[PROP_LR]),
                      g_value_get_double (&o[PROP_RHO]), g_value_get_double (&o[PROP_EPS]),
                      g_value_get_double (&o[PROP_WEIGHT_DECAY]),
                      g_value_get_boolean (&o[PROP_MAXIMIZE]));
  return TRUE;
}

static void
gnn_adadelta_class_init (GnnAdadeltaClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = gnn_adadelta_validate;
  gnn_optimizer_class_set_update (optimizer_class, adadelta_update);
  gnn_optimizer_class_set_state_entries (optimizer_class, adadelta_state);

  /**
   * GnnAdadelta:lr:
   *
   * The learning rate: the default of new parameter groups (PyTorch's
   * `defaults['lr']`, 1.0); setting it sets every group's.
   *
   * Since: 0.1
   */
  properties[PROP_LR] = gnn_optim_double_property ("lr", 1.0);
  /**
   * GnnAdadelta:rho:
   *
   * The decay of the running averages (between 0 and 1).
   *
   * Since: 0.1
   */
  properties[PROP_RHO] = gnn_optim_double_property ("rho", 0.9);
  /**
   * GnnAdadelta:eps:
   *
   * The term added inside the square roots for numerical stability.
   *
   * Since: 0.1
   */
  properties[PROP_EPS] = gnn_optim_double_property ("eps", 1e-6);
  /**
   * GnnAdadelta:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   *
   * Since: 0.1
   */
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", 0.0);
  /**
   * GnnAdadelta:maximize:
   *
   * Whether to maximize the objective (step along the gradient).
   *
   * Since: 0.1
   */
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_adadelta_init (GnnAdadelta *self)
{
  (void) self;
}

/**
 * gnn_adadelta_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 1.0)
 * @error: return location for a #GError
 *
 * Creates an Adadelta optimizer over one group, like
 * `torch.optim.Adadelta(params, lr)`; the other settings are properties
 * (`g_initable_new (GNN_TYPE_ADADELTA, NULL, &error, "rho", 0.95, NULL)`
 * and [method@Gnn.Optimizer.add_param_group]).
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnAdadelta *
gnn_adadelta_new (GPtrArray  *params,
                  double      lr,
                  GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_ADADELTA, params, lr, error);
}
