/* gnn-sgd.c: stochastic gradient descent (with momentum)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnSGD:
 *
 * Stochastic gradient descent, optionally with momentum, Nesterov momentum
 * and L2 weight decay, with the exact update of PyTorch 1.13's
 * `torch.optim.SGD` (single-tensor implementation):
 *
 * ```
 * d = grad (+ weight_decay * param)
 * buf = d on the first step, else momentum * buf + (1 - dampening) * d
 * d = nesterov ? d + momentum * buf : buf        (when momentum != 0)
 * param -= lr * d
 * ```
 *
 * The per-parameter state holds `momentum_buffer` (only when momentum is
 * non-zero). Every hyper-parameter is also a per-group option.
 *
 * Since: 1.0
 */
struct _GnnSGD
{
  GnnOptimizer parent_instance;
};

/* torch's defaults order: lr (the base class's), then these */
enum {
  PROP_0,
  PROP_MOMENTUM,
  PROP_DAMPENING,
  PROP_WEIGHT_DECAY,
  PROP_NESTEROV,
  PROP_MAXIMIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnSGD, gnn_sgd, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry sgd_state[] = {
  { "momentum_buffer", GNN_OPTIM_STATE_LIKE_PARAM, FALSE },
  { NULL, 0, FALSE },
};

#define OPT(o, name) gnn_optim_prop_double (o, GNN_TYPE_SGD, name)

static gboolean
gnn_sgd_validate (GnnOptimizer  *self,
                  GError       **error)
{
  double momentum = OPT (self, PROP_MOMENTUM), dampening = OPT (self, PROP_DAMPENING);

  if (!gnn_optim_check (momentum >= 0.0, "momentum value", momentum, error) ||
      !gnn_optim_check (OPT (self, PROP_WEIGHT_DECAY) >= 0.0, "weight_decay value",
                        OPT (self, PROP_WEIGHT_DECAY), error))
    return FALSE;
  if (gnn_optim_prop_bool (self, GNN_TYPE_SGD, PROP_NESTEROV) && (momentum <= 0 || dampening != 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Nesterov momentum requires a momentum and zero dampening");
      return FALSE;
    }
  return TRUE;
}

/* One loop per case so the compiler vectorizes each; the arithmetic follows
 * torch's op sequence in the parameter's own precision. */
#define DEFINE_SGD_KERNEL(T, suffix)                                           \
static void                                                                    \
sgd_update_##suffix (T *restrict p, const T *restrict g, T *restrict buf,     \
                     gint64 n, double lr_d,                                    \
                     double momentum_d, double dampening_d, double wd_d,       \
                     gboolean nesterov, gboolean maximize, gboolean first)     \
{                                                                              \
  const T neg_lr = (T) -lr_d, wd = (T) wd_d, mom = (T) momentum_d;             \
  const T damp1 = (T) (1.0 - dampening_d);                                     \
  const T sign = maximize ? (T) -1 : (T) 1;                                    \
  const gboolean use_wd = wd_d != 0;                                           \
                                                                               \
  if (buf == NULL)                                                             \
    {                                                                          \
      if (use_wd)                                                              \
        for (gint64 j = 0; j < n; j++)                                         \
          p[j] = p[j] + neg_lr * (sign * g[j] + wd * p[j]);                    \
      else                                                                     \
        for (gint64 j = 0; j < n; j++)                                         \
          p[j] = p[j] + neg_lr * (sign * g[j]);                                \
      return;                                                                  \
    }                                                                          \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T d = sign * g[j];                                                       \
      if (use_wd)                                                              \
        d = d + wd * p[j];                                                     \
      buf[j] = first ? d : buf[j] * mom + damp1 * d;                           \
      d = nesterov ? d + mom * buf[j] : buf[j];                                \
      p[j] = p[j] + neg_lr * d;                                                \
    }                                                                          \
}

DEFINE_SGD_KERNEL (float, f32)
DEFINE_SGD_KERNEL (double, f64)

static gboolean
sgd_update (GnnOptimizer  *self,
            const GValue  *o,
            GnnTensor     *param,
            GnnTensor     *grad,
            GnnStateDict  *state,
            gpointer       data,
            GError       **error)
{
  GnnTensorPrivate *pp = gnn_tensor_priv (param);
  double lr = g_value_get_double (&o[GNN_OPTIM_LR]);
  double momentum = g_value_get_double (&o[PROP_MOMENTUM]);
  double dampening = g_value_get_double (&o[PROP_DAMPENING]);
  double weight_decay = g_value_get_double (&o[PROP_WEIGHT_DECAY]);
  gboolean nesterov = g_value_get_boolean (&o[PROP_NESTEROV]);
  gboolean maximize = g_value_get_boolean (&o[PROP_MAXIMIZE]);
  gboolean first = FALSE;
  gpointer buf = NULL;

  (void) self, (void) data, (void) error;
  if (momentum != 0)
    {
      first = gnn_state_dict_lookup (state, "momentum_buffer") == NULL;
      buf = gnn_optim_data (gnn_optim_state_like_param (state, "momentum_buffer", param, 0));
    }
  if (pp->dtype == GNN_DTYPE_F32)
    sgd_update_f32 (gnn_optim_data (param), gnn_optim_data (grad), buf, pp->numel, lr,
                    momentum, dampening, weight_decay, nesterov, maximize, first);
  else
    sgd_update_f64 (gnn_optim_data (param), gnn_optim_data (grad), buf, pp->numel, lr,
                    momentum, dampening, weight_decay, nesterov, maximize, first);
  return TRUE;
}

static gboolean
gnn_sgd_step (GnnOptimizer  *self,
              GError       **error)
{
  return gnn_optim_foreach_param (self, sgd_update, NULL, error);
}

static void
gnn_sgd_class_init (GnnSGDClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS] = { NULL, };

  optimizer_class->validate = gnn_sgd_validate;
  optimizer_class->step = gnn_sgd_step;
  gnn_optimizer_class_set_state_entries (optimizer_class, sgd_state);

  /**
   * GnnSGD:momentum:
   *
   * The momentum factor (0 disables momentum).
   *
   * Since: 1.0
   */
  properties[PROP_MOMENTUM] = gnn_optim_double_property ("momentum", 0.0);
  /**
   * GnnSGD:dampening:
   *
   * The dampening of the momentum: the new gradient enters the buffer
   * scaled by `1 - dampening`.
   *
   * Since: 1.0
   */
  properties[PROP_DAMPENING] = gnn_optim_double_property ("dampening", 0.0);
  /**
   * GnnSGD:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   *
   * Since: 1.0
   */
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", 0.0);
  /**
   * GnnSGD:nesterov:
   *
   * Whether to use Nesterov momentum (needs a momentum and zero dampening).
   *
   * Since: 1.0
   */
  properties[PROP_NESTEROV] = gnn_optim_bool_property ("nesterov", FALSE);
  /**
   * GnnSGD:maximize:
   *
   * Whether to maximize the objective (step along the gradient).
   *
   * Since: 1.0
   */
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_sgd_init (GnnSGD *self)
{
  (void) self;
}

/**
 * gnn_sgd_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate
 * @momentum: the momentum factor (0 for plain SGD)
 * @dampening: the dampening of the momentum
 * @weight_decay: the L2 penalty
 * @nesterov: whether to use Nesterov momentum
 *
 * Creates an SGD optimizer, like `torch.optim.SGD(params, lr, momentum,
 * dampening, weight_decay, nesterov)`, with PyTorch's checks:
 * "Invalid learning rate: -1", "Invalid momentum value: …",
 * "Invalid weight_decay value: …", "Nesterov momentum requires a momentum
 * and zero dampening", "optimizer got an empty parameter list".
 *
 * Returns: (transfer full): a new optimizer, or %NULL with
 *   @error set
 *
 * Since: 1.0
 */
GnnSGD *
gnn_sgd_new (GPtrArray  *params,
             double      lr,
             double      momentum,
             double      dampening,
             double      weight_decay,
             gboolean    nesterov,
             GError    **error)
{
  GnnOptimizer *self;

  g_return_val_if_fail (params != NULL, NULL);
  self = g_object_new (GNN_TYPE_SGD, "lr", lr, "momentum", momentum,
                       "dampening", dampening, "weight-decay", weight_decay,
                       "nesterov", nesterov, NULL);
  return (GnnSGD *) gnn_optim_finish_new (self, params, error);
}
