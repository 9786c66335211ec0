/* gnn-adam.c: Adam (L2 weight decay) and the update it shares with AdamW
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "autograd/gnn-optim-private.h"

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
 */
struct _GnnAdam
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

G_DEFINE_FINAL_TYPE (GnnAdam, gnn_adam, GNN_TYPE_OPTIMIZER)

/* --- the shared update ------------------------------------------------------ */

gboolean
gnn_adam_validate_hyper (const GnnAdamHyper  *h,
                         GError             **error)
{
  g_autofree char *v = NULL;

  if (!(h->eps >= 0.0))
    {
      v = gnn_optim_double_to_string (h->eps);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid epsilon value: %s", v);
      return FALSE;
    }
  if (!(h->beta1 >= 0.0 && h->beta1 < 1.0))
    {
      v = gnn_optim_double_to_string (h->beta1);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid beta parameter at index 0: %s", v);
      return FALSE;
    }
  if (!(h->beta2 >= 0.0 && h->beta2 < 1.0))
    {
      v = gnn_optim_double_to_string (h->beta2);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid beta parameter at index 1: %s", v);
      return FALSE;
    }
  if (!(h->weight_decay >= 0.0))
    {
      v = gnn_optim_double_to_string (h->weight_decay);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid weight_decay value: %s", v);
      return FALSE;
    }
  return TRUE;
}

gboolean
gnn_adam_validate_state (GnnOptimizer  *optimizer,
                         guint          index,
                         GnnStateDict  *state,
                         GError       **error)
{
  static const char * const known[] = { "step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq", NULL };
  g_auto (GStrv) names = gnn_state_dict_get_keys (state);
  const char *type_name = G_OBJECT_TYPE_NAME (optimizer) + 3;   /* skip "Gnn" */

  for (guint i = 0; names[i] != NULL; i++)
    if (!g_strv_contains (known, names[i]))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                     "unexpected key in %s state dict: 'state.%u.%s'",
                     type_name, index, names[i]);
        return FALSE;
      }
  if (names[0] != NULL)
    for (guint i = 0; i < 3; i++)
      if (!g_strv_contains ((const char * const *) names, known[i]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "missing key in %s state dict: 'state.%u.%s'",
                       type_name, index, known[i]);
          return FALSE;
        }
  return TRUE;
}

/* torch.maximum propagates NaN. */
#define NAN_MAX(a, b) ((a) > (b) || isnan (a) ? (a) : (b))

/* Per element, in the parameter's precision and torch's op order:
 *   param.mul_(1 - lr * wd)                      (AdamW)
 *   grad = grad + wd * param                     (Adam, wd != 0)
 *   exp_avg = exp_avg * beta1 + (1 - beta1) * grad
 *   exp_avg_sq = exp_avg_sq * beta2 + (1 - beta2) * grad * grad
 *   denom = sqrt(exp_avg_sq or max) / bc2_sqrt + eps
 *   param = param + (-step_size) * exp_avg / denom */
#define DEFINE_ADAM_KERNEL(T, suffix, SQRT)                                    \
static void                                                                    \
adam_update_##suffix (T *p, const T *g, T *m, T *v, T *vmax, gint64 n,         \
                      const GnnAdamHyper *h, double step_size,                 \
                      double bc2_sqrt_d)                                       \
{                                                                              \
  const T b1 = (T) h->beta1, one_b1 = (T) (1.0 - h->beta1);                    \
  const T b2 = (T) h->beta2, one_b2 = (T) (1.0 - h->beta2);                    \
  const T wd = (T) h->weight_decay, decay = (T) (1.0 - h->lr * h->weight_decay); \
  const T eps = (T) h->eps, bc2_sqrt = (T) bc2_sqrt_d;                         \
  const T neg_step = (T) -step_size, sign = h->maximize ? (T) -1 : (T) 1;      \
  const gboolean l2 = !h->decoupled && h->weight_decay != 0;                   \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T gj = sign * g[j];                                                      \
      T denom;                                                                 \
      if (h->decoupled)                                                        \
        p[j] = p[j] * decay;                                                   \
      else if (l2)                                                             \
        gj = gj + wd * p[j];                                                   \
      m[j] = m[j] * b1 + one_b1 * gj;                                          \
      v[j] = v[j] * b2 + one_b2 * gj * gj;                                     \
      if (vmax != NULL)                                                        \
        {                                                                      \
          vmax[j] = NAN_MAX (vmax[j], v[j]);                                   \
          denom = SQRT (vmax[j]) / bc2_sqrt + eps;                             \
        }                                                                      \
      else                                                                     \
        denom = SQRT (v[j]) / bc2_sqrt + eps;                                  \
      p[j] = p[j] + neg_step * m[j] / denom;                                   \
    }                                                                          \
}

DEFINE_ADAM_KERNEL (float, f32, sqrtf)
DEFINE_ADAM_KERNEL (double, f64, sqrt)

static GnnTensor *
state_buffer (GnnStateDict      *state,
              const char        *name,
              GnnTensorPrivate  *pp)
{
  GnnTensor *t = gnn_state_dict_lookup (state, name);

  if (t == NULL)
    {
      g_autoptr (GnnTensor) fresh = gnn_tensor_new_contiguous (pp->dtype, pp->shape, pp->ndim, TRUE);
      gnn_state_dict_insert (state, name, fresh);
      t = fresh;
    }
  return t;
}

gboolean
gnn_adam_update (GnnOptimizer        *self,
                 const GnnAdamHyper  *h,
                 GError             **error)
{
  guint n_params = gnn_optimizer_get_n_params (self);

  (void) error;
  for (guint i = 0; i < n_params; i++)
    {
      GnnTensor *param = gnn_optimizer_get_param (self, i);
      GnnTensor *grad = gnn_tensor_get_grad (param);
      GnnTensorPrivate *pp = gnn_tensor_priv (param);
      GnnStateDict *state = gnn_optimizer_get_state (self, i);
      g_autoptr (GnnTensor) grad_c = NULL;
      GnnTensor *step_t, *m, *v, *vmax = NULL;
      const gint64 scalar_shape = 1;
      float *step_p;
      double step, bc1, bc2, step_size;
      gpointer vmax_data;

      if (grad == NULL)
        continue;
      if (!gnn_tensor_is_contiguous (grad))
        grad = grad_c = gnn_tensor_contiguous (grad);

      step_t = gnn_state_dict_lookup (state, "step");
      if (step_t == NULL)
        {
          g_autoptr (GnnTensor) fresh = gnn_tensor_new_contiguous (GNN_DTYPE_F32, &scalar_shape, 0, TRUE);
          gnn_state_dict_insert (state, "step", fresh);
          step_t = fresh;
        }
      m = state_buffer (state, "exp_avg", pp);
      v = state_buffer (state, "exp_avg_sq", pp);
      if (h->amsgrad)
        vmax = state_buffer (state, "max_exp_avg_sq", pp);

      /* torch keeps step as a float32 tensor and reads it back with item() */
      step_p = (float *) gnn_tensor_priv_data (gnn_tensor_priv (step_t));
      *step_p += 1.0f;
      step = *step_p;
      bc1 = 1.0 - pow (h->beta1, step);
      bc2 = 1.0 - pow (h->beta2, step);
      step_size = h->lr / bc1;
      vmax_data = vmax != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (vmax)) : NULL;

      if (pp->dtype == GNN_DTYPE_F32)
        adam_update_f32 ((float *) gnn_tensor_priv_data (pp),
                         (const float *) gnn_tensor_priv_data (gnn_tensor_priv (grad)),
                         (float *) gnn_tensor_priv_data (gnn_tensor_priv (m)),
                         (float *) gnn_tensor_priv_data (gnn_tensor_priv (v)),
                         vmax_data, pp->numel, h, step_size, sqrt (bc2));
      else
        adam_update_f64 ((double *) gnn_tensor_priv_data (pp),
                         (const double *) gnn_tensor_priv_data (gnn_tensor_priv (grad)),
                         (double *) gnn_tensor_priv_data (gnn_tensor_priv (m)),
                         (double *) gnn_tensor_priv_data (gnn_tensor_priv (v)),
                         vmax_data, pp->numel, h, step_size, sqrt (bc2));
    }
  return TRUE;
}

/* --- GnnAdam ------------------------------------------------------------------ */

static void
adam_hyper (GnnAdam      *self,
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
  h->decoupled = FALSE;
}

static void
gnn_adam_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  GnnAdam *self = GNN_ADAM (object);

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
gnn_adam_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  GnnAdam *self = GNN_ADAM (object);

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
gnn_adam_validate (GnnOptimizer  *optimizer,
                   GError       **error)
{
  GnnAdamHyper h;

  adam_hyper (GNN_ADAM (optimizer), &h);
  return gnn_adam_validate_hyper (&h, error);
}

static gboolean
gnn_adam_step (GnnOptimizer  *optimizer,
               GError       **error)
{
  GnnAdamHyper h;

  adam_hyper (GNN_ADAM (optimizer), &h);
  return gnn_adam_update (optimizer, &h, error);
}

static void
gnn_adam_class_init (GnnAdamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  object_class->get_property = gnn_adam_get_property;
  object_class->set_property = gnn_adam_set_property;
  optimizer_class->validate = gnn_adam_validate;
  optimizer_class->step = gnn_adam_step;
  optimizer_class->validate_state = gnn_adam_validate_state;

  /**
   * GnnAdam:beta1:
   *
   * The decay of the running average of the gradient (PyTorch's
   * `betas[0]`).
   */
  properties[PROP_BETA1] =
    g_param_spec_double ("beta1", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.9,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnAdam:beta2:
   *
   * The decay of the running average of the squared gradient (PyTorch's
   * `betas[1]`).
   */
  properties[PROP_BETA2] =
    g_param_spec_double ("beta2", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.999,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnAdam:eps:
   *
   * The term added to the denominator for numerical stability.
   */
  properties[PROP_EPS] =
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-8,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnAdam:weight-decay:
   *
   * The L2 penalty: `weight_decay * param` is added to the gradient.
   */
  properties[PROP_WEIGHT_DECAY] =
    g_param_spec_double ("weight-decay", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnAdam:amsgrad:
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
gnn_adam_init (GnnAdam *self)
{
  self->beta1 = 0.9;
  self->beta2 = 0.999;
  self->eps = 1e-8;
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
 *
 * Creates an Adam optimizer, like `torch.optim.Adam(params, lr, (beta1,
 * beta2), eps, weight_decay, amsgrad)`, with PyTorch's checks
 * ("Invalid learning rate: …", "Invalid epsilon value: …",
 * "Invalid beta parameter at index 0: …", "Invalid weight_decay value: …").
 *
 * Returns: (transfer full) (type Gnn.Adam): a new optimizer, or %NULL with
 *   @error set
 */
GnnOptimizer *
gnn_adam_new (GPtrArray  *params,
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
  self = g_object_new (GNN_TYPE_ADAM, "lr", lr, "beta1", beta1, "beta2", beta2,
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
