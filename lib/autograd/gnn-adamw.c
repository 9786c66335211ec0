/* gnn-adamw.c: Adam with decoupled weight decay
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "autograd/gnn-optim-private.h"

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
 */
struct _GnnAdamW
{
  GnnOptimizer parent_instance;
  double       beta1;
  double       beta2;
  double       eps;
  double       weight_decay;
  gboolean     amsgrad;
};

enum {
  PROP_0,
  PROP_BETA1,
  PROP_BETA2,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_AMSGRAD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnAdamW, gnn_adamw, GNN_TYPE_OPTIMIZER)

/* --- GnnAdamW ----------------------------------------------------------------- */

static void
adam_hyper (GnnAdamW     *self,
            GnnAdamHyper *h)
{
  GnnOptimizer *optimizer = GNN_OPTIMIZER (self);

  h->lr = gnn_optimizer_get_lr (optimizer);
  h->beta1 = self->beta1;
  h->beta2 = self->beta2;
  h->eps = self->eps;
  h->weight_decay = self->weight_decay;
  h->amsgrad = self->amsgrad;
  h->maximize = gnn_optimizer_get_maximize (optimizer);
  h->decoupled = TRUE;
}

static void
gnn_adamw_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  GnnAdamW *self = GNN_ADAMW (object);

  switch (prop_id)
    {
    case PROP_BETA1:
      g_value_set_double (value, self->beta1);
      break;
    case PROP_BETA2:
      g_value_set_double (value, self->beta2);
      break;
    case PROP_EPS:
      g_value_set_double (value, self->eps);
      break;
    case PROP_WEIGHT_DECAY:
      g_value_set_double (value, self->weight_decay);
      break;
    case PROP_AMSGRAD:
      g_value_set_boolean (value, self->amsgrad);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_adamw_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  GnnAdamW *self = GNN_ADAMW (object);

  switch (prop_id)
    {
    case PROP_BETA1:
      self->beta1 = g_value_get_double (value);
      break;
    case PROP_BETA2:
      self->beta2 = g_value_get_double (value);
      break;
    case PROP_EPS:
      self->eps = g_value_get_double (value);
      break;
    case PROP_WEIGHT_DECAY:
      self->weight_decay = g_value_get_double (value);
      break;
    case PROP_AMSGRAD:
      self->amsgrad = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
gnn_adamw_validate (GnnOptimizer  *optimizer,
                    GError       **error)
{
  GnnAdamHyper h;

  adam_hyper (GNN_ADAMW (optimizer), &h);
  return gnn_adam_validate_hyper (&h, error);
}

static gboolean
gnn_adamw_step (GnnOptimizer  *optimizer,
                GError       **error)
{
  GnnAdamHyper h;

  adam_hyper (GNN_ADAMW (optimizer), &h);
  return gnn_adam_update (optimizer, &h, error);
}

static void
gnn_adamw_class_init (GnnAdamWClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  object_class->get_property = gnn_adamw_get_property;
  object_class->set_property = gnn_adamw_set_property;
  optimizer_class->validate = gnn_adamw_validate;
  optimizer_class->step = gnn_adamw_step;
  optimizer_class->validate_state = gnn_adam_validate_state;

  /**
   * GnnAdamW:beta1:
   *
   * The decay of the running average of the gradient (PyTorch's
   * `betas[0]`).
   */
  properties[PROP_BETA1] =
    g_param_spec_double ("beta1", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.9,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnAdamW:beta2:
   *
   * The decay of the running average of the squared gradient (PyTorch's
   * `betas[1]`).
   */
  properties[PROP_BETA2] =
    g_param_spec_double ("beta2", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.999,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnAdamW:eps:
   *
   * The term added to the denominator for numerical stability.
   */
  properties[PROP_EPS] =
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-8,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnAdamW:weight-decay:
   *
   * The decoupled weight decay: each step multiplies the parameter by
   * `1 - lr * weight_decay`.
   */
  properties[PROP_WEIGHT_DECAY] =
    g_param_spec_double ("weight-decay", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.01,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnAdamW:amsgrad:
   *
   * Whether to use the AMSGrad variant (normalize by the running maximum of
   * the second moment).
   */
  properties[PROP_AMSGRAD] =
    g_param_spec_boolean ("amsgrad", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_adamw_init (GnnAdamW *self)
{
  self->beta1 = 0.9;
  self->beta2 = 0.999;
  self->eps = 1e-8;
  self->weight_decay = 1e-2;
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
 *
 * Creates an AdamW optimizer, like `torch.optim.AdamW(params, lr, (beta1,
 * beta2), eps, weight_decay, amsgrad)`, with PyTorch's checks
 * ("Invalid learning rate: …", "Invalid epsilon value: …",
 * "Invalid beta parameter at index 0: …", "Invalid weight_decay value: …").
 *
 * Returns: (transfer full) (type Gnn.AdamW): a new optimizer, or %NULL with
 *   @error set
 */
GnnOptimizer *
gnn_adamw_new (GPtrArray  *params,
               double      lr,
               double      beta1,
               double      beta2,
               double      eps,
               double      weight_decay,
               gboolean    amsgrad,
               GError    **error)
{
  g_autoptr (GnnOptimizer) self = NULL;

  g_return_val_if_fail (params != NULL, NULL);
  self = g_object_new (GNN_TYPE_ADAMW, "lr", lr, "beta1", beta1, "beta2", beta2,
                       "eps", eps, "weight-decay", weight_decay, "amsgrad", amsgrad, NULL);
  if (!gnn_optimizer_ensure_initialized (self, error))
    return NULL;
  if (params->len == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "optimizer got an empty parameter list");
      return NULL;
    }
  if (!gnn_optimizer_add_params (self, params, error))
    return NULL;
  return g_steal_pointer (&self);
}
