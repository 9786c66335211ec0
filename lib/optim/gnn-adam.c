/* gnn-adam.c: Adam and AdamW, one implementation with a switch for
 * decoupled weight decay (torch 1.13 _single_tensor_adam / _adamw)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "optim/gnn-adam-private.h"

/**
 * GnnAdam:
 *
 * The Adam optimizer with the exact update of PyTorch 1.13's
 * `torch.optim.Adam` (single-tensor implementation): weight decay is an L2
 * penalty added to the gradient, moments are bias-corrected, and with
 * [property@Gnn.Adam:amsgrad] the running maximum of the second moment
 * normalizes the step. See [class@Gnn.AdamW] for decoupled weight decay.
 *
 * The per-parameter state holds `step` (a float32 scalar, as in PyTorch),
 * `exp_avg`, `exp_avg_sq` and, with amsgrad, `max_exp_avg_sq`.
 *
 * Since: 0.1
 */

/**
 * GnnAdamW:
 *
 * The AdamW optimizer with the exact update of PyTorch 1.13's
 * `torch.optim.AdamW` (single-tensor implementation): like [class@Gnn.Adam]
 * but weight decay is decoupled from the gradient — each step first
 * multiplies the parameter by `1 - lr * weight_decay` — and
 * [property@Gnn.AdamW:weight-decay] defaults to 0.01.
 *
 * The per-parameter state holds `step` (a float32 scalar, as in PyTorch),
 * `exp_avg`, `exp_avg_sq` and, with amsgrad, `max_exp_avg_sq`.
 *
 * Since: 0.1
 */

struct _GnnAdam
{
  GnnOptimizer parent_instance;
};

struct _GnnAdamW
{
  GnnOptimizer parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnAdam, gnn_adam, GNN_TYPE_OPTIMIZER)
G_DEFINE_FINAL_TYPE (GnnAdamW, gnn_adamw, GNN_TYPE_OPTIMIZER)

/* torch's defaults order: lr, betas, eps, weight_decay, amsgrad, maximize */
enum {
  PROP_LR,
  PROP_BETA1,
  PROP_BETA2,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_AMSGRAD,
  PROP_MAXIMIZE,
  N_PROPS
};

static const GnnOptimStateEntry adam_state[] = {
  { "step", GNN_OPTIM_STATE_F32, TRUE },
  { "exp_avg", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { "exp_avg_sq", GNN_OPTIM_STATE_LIKE_PARAM, TRUE },
  { "max_exp_avg_sq", GNN_OPTIM_STATE_LIKE_PARAM, FALSE },
  { NULL, 0, FALSE },
};

/* A group's options (both types install the same, in the same order); the
 * instance's type selects the weight decay (decoupled for AdamW). */
static void
adam_hyper (GnnOptimizer *optimizer,
            const GValue *o,
            GnnAdamHyper *h)
{
  h->lr = g_value_get_double (&o[PROP_LR]);
  h->beta1 = g_value_get_double (&o[PROP_BETA1]);
  h->beta2 = g_value_get_double (&o[PROP_BETA2]);
  h->eps = g_value_get_double (&o[PROP_EPS]);
  h->weight_decay = g_value_get_double (&o[PROP_WEIGHT_DECAY]);
  h->amsgrad = g_value_get_boolean (&o[PROP_AMSGRAD]);
  h->maximize = g_value_get_boolean (&o[PROP_MAXIMIZE]);
  h->decoupled = G_TYPE_CHECK_INSTANCE_TYPE (optimizer, GNN_TYPE_ADAMW);
}

static gboolean
adam_validate (GnnOptimizer  *optimizer,
               GError       **error)
{
  GnnAdamHyper h;

  adam_hyper (optimizer, gnn_optim_bag_values (G_OBJECT (optimizer)), &h);
  return gnn_adam_validate_hyper (&h, error);
}

static gboolean
adam_update_one (GnnOptimizer  *self,
                 const GValue  *o,
                 GnnTensor     *param,
                 GnnTensor     *grad,
                 GnnStateDict  *state,
                 gpointer       data,
                 GError       **error)
{
  GnnAdamHyper h;

  (void) data, (void) error;
  adam_hyper (self, o, &h);
  gnn_adam_update (&h, param, grad, state);
  return TRUE;
}

static void
adam_class_setup (gpointer klass,
                  double   weight_decay)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  optimizer_class->validate = adam_validate;
  gnn_optimizer_class_set_update (optimizer_class, adam_update_one);
  gnn_optimizer_class_set_state_entries (optimizer_class, adam_state);

  properties[PROP_LR] = gnn_optim_double_property ("lr", 1e-3);
  properties[PROP_BETA1] = gnn_optim_double_property ("beta1", 0.9);
  properties[PROP_BETA2] = gnn_optim_double_property ("beta2", 0.999);
  properties[PROP_EPS] = gnn_optim_double_property ("eps", 1e-8);
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", weight_decay);
  properties[PROP_AMSGRAD] = gnn_optim_bool_property ("amsgrad", FALSE);
  properties[PROP_MAXIMIZE] = gnn_optim_bool_property ("maximize", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

/**
 * GnnAdam:lr:
 *
 * The learning rate: the default of new parameter groups (PyTorch's
 * `defaults['lr']`, 0.001); setting it sets every group's.
 *
 * Since: 0.1
 */
/**
 * GnnAdam:beta1:
 *
 * The decay of the running average of the gradient (PyTorch's
 * `betas[0]`).
 *
 * Since: 0.1
 */
/**
 * GnnAdam:beta2:
 *
 * The decay of the running average of the squared gradient (PyTorch's
 * `betas[1]`).
 *
 * Since: 0.1
 */
/**
 * GnnAdam:eps:
 *
 * The term added to the denominator for numerical stability.
 *
 * Since: 0.1
 */
/**
 * GnnAdam:weight-decay:
 *
 * The L2 penalty: `weight_decay * param` is added to the gradient.
 *
 * Since: 0.1
 */
/**
 * GnnAdam:amsgrad:
 *
 * Whether to use the AMSGrad variant (normalize by the running maximum of
 * the second moment).
 *
 * Since: 0.1
 */
/**
 * GnnAdam:maximize:
 *
 * Whether to maximize the objective (step along the gradient).
 *
 * Since: 0.1
 */
static void
gnn_adam_class_init (GnnAdamClass *klass)
{
  adam_class_setup (klass, 0.0);
}

/**
 * GnnAdamW:lr:
 *
 * The learning rate: the default of new parameter groups (PyTorch's
 * `defaults['lr']`, 0.001); setting it sets every group's.
 *
 * Since: 0.1
 */
/**
 * GnnAdamW:beta1:
 *
 * The decay of the running average of the gradient (PyTorch's
 * `betas[0]`).
 *
 * Since: 0.1
 */
/**
 * GnnAdamW:beta2:
 *
 * The decay of the running average of the squared gradient (PyTorch's
 * `betas[1]`).
 *
 * Since: 0.1
 */
/**
 * GnnAdamW:eps:
 *
 * The term added to the denominator for numerical stability.
 *
 * Since: 0.1
 */
/**
 * GnnAdamW:weight-decay:
 *
 * The decoupled weight decay: each step multiplies the parameter by
 * `1 - lr * weight_decay`.
 *
 * Since: 0.1
 */
/**
 * GnnAdamW:amsgrad:
 *
 * Whether to use the AMSGrad variant (normalize by the running maximum of
 * the second moment).
 *
 * Since: 0.1
 */
/**
 * GnnAdamW:maximize:
 *
 * Whether to maximize the objective (step along the gradient).
 *
 * Since: 0.1
 */
static void
gnn_adamw_class_init (GnnAdamWClass *klass)
{
  adam_class_setup (klass, 0.01);
}

static void
gnn_adam_init (GnnAdam *self)
{
  (void) self;
}

static void
gnn_adamw_init (GnnAdamW *self)
{
  (void) self;
}

static GnnOptimizer *
adam_new (GType       type,
          GPtrArray  *params,
          double      lr,
          double      beta1,
          double      beta2,
          double      eps,
          double      weight_decay,
          gboolean    amsgrad,
          GError    **error)
{
  GnnOptimizer *self;

  self = g_object_new (type, "lr", lr, "beta1", beta1, "beta2", beta2,
                       "eps", eps, "weight-decay", weight_decay, "amsgrad", amsgrad, NULL);
  return gnn_optim_finish_new (self, params, error);
}

/**
 * gnn_adam_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 1e-3)
 * @beta1: the gradient average decay (default 0.9)
 * @beta2: the squared gradient average decay (default 0.999)
 * @eps: the denominator term (default 1e-8)
 * @weight_decay: the L2 penalty (default 0)
 * @amsgrad: whether to use AMSGrad
 * @error: return location for a #GError
 *
 * Creates an Adam optimizer, like `torch.optim.Adam(params, lr, (beta1,
 * beta2), eps, weight_decay, amsgrad)`, with PyTorch's checks
 * ("Invalid learning rate: …", "Invalid epsilon value: …",
 * "Invalid beta parameter at index 0: …", "Invalid weight_decay value: …").
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnAdam *
gnn_adam_new (GPtrArray  *params,
              double      lr,
              double      beta1,
              double      beta2,
              double      eps,
              double      weight_decay,
              gboolean    amsgrad,
              GError    **error)
{
  g_return_val_if_fail (params != NULL, NULL);
  return (GnnAdam *) adam_new (GNN_TYPE_ADAM, params, lr, beta1, beta2, eps, weight_decay,
                               amsgrad, error);
}

/**
 * gnn_adamw_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 1e-3)
 * @beta1: the gradient average decay (default 0.9)
 * @beta2: the squared gradient average decay (default 0.999)
 * @eps: the denominator term (default 1e-8)
 * @weight_decay: the decoupled weight decay (default 0.01)
 * @amsgrad: whether to use AMSGrad
 * @error: return location for a #GError
 *
 * Creates an AdamW optimizer, like `torch.optim.AdamW(params, lr, (beta1,
 * beta2), eps, weight_decay, amsgrad)`, with the checks of
 * [ctor@Gnn.Adam.new].
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnAdamW *
gnn_adamw_new (GPtrArray  *params,
               double      lr,
               double      beta1,
               double      beta2,
               double      eps,
               double      weight_decay,
               gboolean    amsgrad,
               GError    **error)
{
  g_return_val_if_fail (params != NULL, NULL);
  return (GnnAdamW *) adam_new (GNN_TYPE_ADAMW, params, lr, beta1, beta2, eps, weight_decay,
                                amsgrad, error);
}
