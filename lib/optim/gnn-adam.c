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
 * Since: 1.0
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
 * Since: 1.0
 */

/* The hyper-parameters both types hold; which type the instance is selects
 * the weight decay (decoupled for AdamW). */
typedef struct
{
  double   beta1;
  double   beta2;
  double   eps;
  double   weight_decay;
  gboolean amsgrad;
} AdamParams;

struct _GnnAdam
{
  GnnOptimizer parent_instance;
  AdamParams   params;
};

struct _GnnAdamW
{
  GnnOptimizer parent_instance;
  AdamParams   params;
};

G_DEFINE_FINAL_TYPE (GnnAdam, gnn_adam, GNN_TYPE_OPTIMIZER)
G_DEFINE_FINAL_TYPE (GnnAdamW, gnn_adamw, GNN_TYPE_OPTIMIZER)

/* The shared functions below reach the parameters of either type through
 * GnnAdam's layout. */
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnAdam, params) == G_STRUCT_OFFSET (GnnAdamW, params));

enum {
  PROP_0,
  PROP_BETA1,
  PROP_BETA2,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_AMSGRAD,
  N_PROPS
};

static AdamParams *
adam_params (gpointer self)
{
  return &((GnnAdam *) self)->params;
}

static gboolean
adam_is_decoupled (gpointer self)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (self, GNN_TYPE_ADAMW);
}

static void
adam_get_property (GObject    *object,
                   guint       prop_id,
                   GValue     *value,
                   GParamSpec *pspec)
{
  AdamParams *params = adam_params (object);

  switch (prop_id)
    {
    case PROP_BETA1:
      g_value_set_double (value, params->beta1);
      break;
    case PROP_BETA2:
      g_value_set_double (value, params->beta2);
      break;
    case PROP_EPS:
      g_value_set_double (value, params->eps);
      break;
    case PROP_WEIGHT_DECAY:
      g_value_set_double (value, params->weight_decay);
      break;
    case PROP_AMSGRAD:
      g_value_set_boolean (value, params->amsgrad);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adam_set_property (GObject      *object,
                   guint         prop_id,
                   const GValue *value,
                   GParamSpec   *pspec)
{
  AdamParams *params = adam_params (object);

  switch (prop_id)
    {
    case PROP_BETA1:
      params->beta1 = g_value_get_double (value);
      break;
    case PROP_BETA2:
      params->beta2 = g_value_get_double (value);
      break;
    case PROP_EPS:
      params->eps = g_value_get_double (value);
      break;
    case PROP_WEIGHT_DECAY:
      params->weight_decay = g_value_get_double (value);
      break;
    case PROP_AMSGRAD:
      params->amsgrad = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adam_hyper (GnnOptimizer *optimizer,
            GnnAdamHyper *h)
{
  const AdamParams *params = adam_params (optimizer);

  h->lr = gnn_optimizer_get_lr (optimizer);
  h->beta1 = params->beta1;
  h->beta2 = params->beta2;
  h->eps = params->eps;
  h->weight_decay = params->weight_decay;
  h->amsgrad = params->amsgrad;
  h->maximize = gnn_optimizer_get_maximize (optimizer);
  h->decoupled = adam_is_decoupled (optimizer);
}

static gboolean
adam_validate (GnnOptimizer  *optimizer,
               GError       **error)
{
  GnnAdamHyper h;

  adam_hyper (optimizer, &h);
  return gnn_adam_validate_hyper (&h, error);
}

static gboolean
adam_step (GnnOptimizer  *optimizer,
           GError       **error)
{
  GnnAdamHyper h;

  adam_hyper (optimizer, &h);
  return gnn_adam_update (optimizer, &h, error);
}

static void
adam_params_init (AdamParams *params,
                  double      weight_decay)
{
  params->beta1 = 0.9;
  params->beta2 = 0.999;
  params->eps = 1e-8;
  params->weight_decay = weight_decay;
  params->amsgrad = FALSE;
}

static void
adam_class_setup (gpointer klass,
                  double   weight_decay)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS] = { NULL, };

  object_class->get_property = adam_get_property;
  object_class->set_property = adam_set_property;
  optimizer_class->validate = adam_validate;
  optimizer_class->step = adam_step;
  optimizer_class->validate_state = gnn_adam_validate_state;

  properties[PROP_BETA1] = gnn_optim_double_property ("beta1", 0.9);
  properties[PROP_BETA2] = gnn_optim_double_property ("beta2", 0.999);
  properties[PROP_EPS] = gnn_optim_double_property ("eps", 1e-8);
  properties[PROP_WEIGHT_DECAY] = gnn_optim_double_property ("weight-decay", weight_decay);
  properties[PROP_AMSGRAD] = gnn_optim_bool_property ("amsgrad", FALSE);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

/**
 * GnnAdam:beta1:
 *
 * The decay of the running average of the gradient (PyTorch's
 * `betas[0]`).
 *
 * Since: 1.0
 */
/**
 * GnnAdam:beta2:
 *
 * The decay of the running average of the squared gradient (PyTorch's
 * `betas[1]`).
 *
 * Since: 1.0
 */
/**
 * GnnAdam:eps:
 *
 * The term added to the denominator for numerical stability.
 *
 * Since: 1.0
 */
/**
 * GnnAdam:weight-decay:
 *
 * The L2 penalty: `weight_decay * param` is added to the gradient.
 *
 * Since: 1.0
 */
/**
 * GnnAdam:amsgrad:
 *
 * Whether to use the AMSGrad variant (normalize by the running maximum of
 * the second moment).
 *
 * Since: 1.0
 */
static void
gnn_adam_class_init (GnnAdamClass *klass)
{
  adam_class_setup (klass, 0.0);
}

/**
 * GnnAdamW:beta1:
 *
 * The decay of the running average of the gradient (PyTorch's
 * `betas[0]`).
 *
 * Since: 1.0
 */
/**
 * GnnAdamW:beta2:
 *
 * The decay of the running average of the squared gradient (PyTorch's
 * `betas[1]`).
 *
 * Since: 1.0
 */
/**
 * GnnAdamW:eps:
 *
 * The term added to the denominator for numerical stability.
 *
 * Since: 1.0
 */
/**
 * GnnAdamW:weight-decay:
 *
 * The decoupled weight decay: each step multiplies the parameter by
 * `1 - lr * weight_decay`.
 *
 * Since: 1.0
 */
/**
 * GnnAdamW:amsgrad:
 *
 * Whether to use the AMSGrad variant (normalize by the running maximum of
 * the second moment).
 *
 * Since: 1.0
 */
static void
gnn_adamw_class_init (GnnAdamWClass *klass)
{
  adam_class_setup (klass, 0.01);
}

static void
gnn_adam_init (GnnAdam *self)
{
  adam_params_init (&self->params, 0.0);
}

static void
gnn_adamw_init (GnnAdamW *self)
{
  adam_params_init (&self->params, 0.01);
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
 * Since: 1.0
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
 * Since: 1.0
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
