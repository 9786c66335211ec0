/* gnn-asgd.c: averaged SGD (torch 1.13 _single_tensor_asgd)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnASGD:
 *
 * Averaged stochastic gradient descent with the update of PyTorch 1.13's
 * `torch.optim.ASGD`, operation for operation, including its float32 `eta`
 * and `mu`:
 *
 * ```
 * g = grad (negated with maximize) (+ weight_decay * param)
 * param *= 1 - lambd * eta;  param -= eta * g
 * ax = param while mu == 1, else ax += (param - ax) * mu
 * eta = lr / (1 + lambd * lr * step) ** alpha;  mu = 1 / max(1, step - t0)
 * ```
 *
 * The per-parameter state holds `step`, `eta`, `mu` (float32 scalars) and
 * `ax`, the averaged parameter.
 *
 * Since: 0.1
 */
struct _GnnASGD
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_LR,
  PROP_LAMBD,
  PROP_ALPHA,
  PROP_T0,
  PROP_WEIGHT_DECAY,
  PROP_MAXIMIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnASGD, gnn_asgd, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry asgd_state[] = {
  { "step", GNN_OPTIM_STATE_F32, TRUE },
  { "eta", GNN_OPTIM_STATE_F32, TRUE },
  { "mu", GNN_OPTIM_STATE_F32, TRUE },
  { "ax", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { NULL, 0, FALSE },
};

static gboolean
gnn_asgd_validate (GnnOptimizer  *self,
                   GError       **error)
{
  double wd = g_value_get_double (&gnn_optim_bag_values (G_OBJECT (self))[PROP_WEIGHT_DECAY]);

  return gnn_optim_check (wd >= 0.0, "weight_decay value", wd, error);
}

#define DEFINE_ASGD_KERNEL(T, suffix)                                          \
GNN_OPTIM_KERNEL                                                               \
asgd_##suffix##_typed (T *p, const T *grad, T *ax, gint64 n, double decay_d,   \
                       double neg_eta_d, float mu, double wd_d,                \
                       gboolean maximize)                                      \
{                                                                              \
  const T decay = (T) decay_d, neg_eta = (T) neg_eta_d, wd = (T) wd_d;         \
  const T m = (T) mu;                                                          \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T g = maximize ? -grad[j] : grad[j];                                     \
      if (wd_d != 0)                                                           \
        g = GNN_FMA (T, wd, p[j], g);                                          \
      p[j] = p[j] * decay;                                                     \
      p[j] = GNN_FMA (T, neg_eta, g, p[j]);                                    \
      ax[j] = mu != 1 ? ax[j] + (p[j] - ax[j]) * m : p[j];                     \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (asgd_##suffix, (T *p, const T *grad, T *ax, gint64 n,     \
                 double decay_d, double neg_eta_d, float mu, double wd_d,      \
                 gboolean maximize),                                           \
                 (p, grad, ax, n, decay_d, neg_eta_d, mu, wd_d, maximize))

DEFINE_ASGD_KERNEL (float, f32)
DEFINE_ASGD_KERNEL (double, f64)

static gboolean
asgd_update (GnnOptimizer  *self,
             const GValue  *o,
             GnnTensor     *param,
             GnnTensor     *grad,
             GnnStateDict  *state,
             gpointer       data,
             GError       **error)
{
  double lr = g_value_get_double (&o[PROP_LR]), lambd = g_value_get_double (&o[PROP_LAMBD]);
  float *step = gnn_optim_data (gnn_optim_state_scalar (state, "step", GNN_DTYPE_F32, 0));
  float *eta = gnn_optim_data (gnn_optim_state_scalar (state, "eta", GNN_DTYPE_F32, lr));
  float *mu = gnn_optim_data (gnn_optim_state_scalar (state, "mu", GNN_DTYPE_F32, 1));
  gpointer ax = gnn_optim_data (gnn_optim_state_like_param (state, "ax", param, 0));
  double t;

  (void) self, (void) data, (void) error;
  *step += 1.0f;
  t = *step;
  GNN_OPTIM_DISPATCH (param, asgd, gnn_optim_data (param), gnn_optim_data (grad), ax,
                      gnn_tensor_get_numel (param), 1 - lambd * (double) *eta, -(double) *eta,
                      *mu, g_value_get_double (&o[PROP_WEIGHT_DECAY]),
                      g_value_get_boolean (&o[PROP_MAXIMIZE]));
  *eta = (float) (lr / pow (1 + lambd * lr * t, g_value_get_double (&o[PROP_ALPHA])));
  *mu = (float) (1 / MAX (1, t - g_value_get_double (&o[PROP_T0])));
  return TRUE;
}

static void
gnn_asgd_class_init (GnnASGDClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = gnn_asgd_validate;
  gnn_optimizer_class_set_update (optimizer_class, asgd_update);
  gnn_optimizer_class_set_state_entries (optimizer_class, asgd_state);

  /**
   * GnnASGD:lr:
   *
   * The learning rate: the default of new parameter groups (PyTorch's
   * `defaults['lr']`, 0.01); setting it sets every group's.
   *
   * Since: 0.1
   */
  properties[PROP_LR] = gnn_optim_double_property ("lr", 1e-2);
  /**
   * GnnASGD:lambd:
   *
   * The decay term.
   *
   * Since: 0.1
   */
  properties[PROP_LAMBD] = gnn_optim_double_property ("lambd", 1e-4);
  /**
   * GnnASGD:alpha:
   *
   * The power of the rate's decay.
   *
   * Since: 0.1
   */
  properties[PROP_ALPHA] = gnn_optim_double_property ("alpha", 0.75);
  /**
   * GnnASGD:t0:
   *
   * The step at which averaging starts.
   *
   * Since: 0.1
   */
  properties[PROP_T0] = gnn_optim_double_property ("t0", 1e6);
  /**
   * GnnASGD:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   *
   * Since: 0.1
   */
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", 0.0);
  /**
   * GnnASGD:maximize:
   *
   * Whether to maximize the objective (step along the gradient).
   *
   * Since: 0.1
   */
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_asgd_init (GnnASGD *self)
{
  (void) self;
}

/**
 * gnn_asgd_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 0.01)
 * @error: return location for a #GError
 *
 * Creates an ASGD optimizer over one group, like
 * `torch.optim.ASGD(params, lr)`; the other settings are properties.
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnASGD *
gnn_asgd_new (GPtrArray  *params,
              double      lr,
              GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_ASGD, params, lr, error);
}
