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
 * non-zero).
 *
 * Since: 1.0
 */
struct _GnnSGD
{
  GnnOptimizer parent_instance;
  double       momentum;
  double       dampening;
  double       weight_decay;
  gboolean     nesterov;
};

enum {
  PROP_0,
  PROP_MOMENTUM,
  PROP_DAMPENING,
  PROP_WEIGHT_DECAY,
  PROP_NESTEROV,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnSGD, gnn_sgd, GNN_TYPE_OPTIMIZER)

static void
gnn_sgd_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  GnnSGD *self = GNN_SGD (object);

  switch (prop_id)
    {
    case PROP_MOMENTUM:
      g_value_set_double (value, self->momentum);
      break;
    case PROP_DAMPENING:
      g_value_set_double (value, self->dampening);
      break;
    case PROP_WEIGHT_DECAY:
      g_value_set_double (value, self->weight_decay);
      break;
    case PROP_NESTEROV:
      g_value_set_boolean (value, self->nesterov);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_sgd_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  GnnSGD *self = GNN_SGD (object);

  switch (prop_id)
    {
    case PROP_MOMENTUM:
      self->momentum = g_value_get_double (value);
      break;
    case PROP_DAMPENING:
      self->dampening = g_value_get_double (value);
      break;
    case PROP_WEIGHT_DECAY:
      self->weight_decay = g_value_get_double (value);
      break;
    case PROP_NESTEROV:
      self->nesterov = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
gnn_sgd_validate (GnnOptimizer  *optimizer,
                  GError       **error)
{
  GnnSGD *self = GNN_SGD (optimizer);
  g_autofree char *v = NULL;

  if (!(self->momentum >= 0.0))
    {
      v = gnn_format_double_shortest (self->momentum);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid momentum value: %s", v);
      return FALSE;
    }
  if (!(self->weight_decay >= 0.0))
    {
      v = gnn_format_double_shortest (self->weight_decay);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid weight_decay value: %s", v);
      return FALSE;
    }
  if (self->nesterov && (self->momentum <= 0 || self->dampening != 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Nesterov momentum requires a momentum and zero dampening");
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_sgd_validate_state (GnnOptimizer  *optimizer,
                        guint          index,
                        GnnStateDict  *state,
                        GError       **error)
{
  g_auto (GStrv) names = gnn_state_dict_get_keys (state);

  (void) optimizer;
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (names[i], "momentum_buffer") != 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                     "unexpected key in SGD state dict: 'state.%u.%s'", index, names[i]);
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
gnn_sgd_step (GnnOptimizer  *optimizer,
              GError       **error)
{
  GnnSGD *self = GNN_SGD (optimizer);
  guint n_params = gnn_optimizer_get_n_params (optimizer);
  double lr = gnn_optimizer_get_lr (optimizer);
  gboolean maximize = gnn_optimizer_get_maximize (optimizer);

  for (guint i = 0; i < n_params; i++)
    {
      GnnTensor *param = gnn_optimizer_get_param (optimizer, i);
      GnnTensor *grad = gnn_tensor_get_grad (param);
      GnnTensorPrivate *pp = gnn_tensor_priv (param);
      g_autoptr (GnnTensor) grad_c = NULL;
      GnnTensor *buf = NULL;
      gboolean first = FALSE;
      gpointer buf_data = NULL;

      if (grad == NULL)
        continue;
      if (!gnn_tensor_is_contiguous (grad) &&
          (grad = grad_c = gnn_tensor_contiguous_checked (grad, error)) == NULL)
        return FALSE;
      if (self->momentum != 0)
        {
          GnnStateDict *state = gnn_optimizer_get_state (optimizer, i);

          buf = gnn_state_dict_lookup (state, "momentum_buffer");
          if (buf == NULL)
            {
              g_autoptr (GnnTensor) fresh =
                gnn_tensor_new_contiguous (pp->dtype, pp->shape, pp->ndim, FALSE);
              gnn_state_dict_insert (state, "momentum_buffer", fresh);
              buf = fresh;
              first = TRUE;
            }
          buf_data = gnn_tensor_priv_data (gnn_tensor_priv (buf));
        }
      if (pp->dtype == GNN_DTYPE_F32)
        sgd_update_f32 ((float *) gnn_tensor_priv_data (pp),
                        (const float *) gnn_tensor_priv_data (gnn_tensor_priv (grad)),
                        buf_data, pp->numel, lr, self->momentum, self->dampening,
                        self->weight_decay, self->nesterov, maximize, first);
      else
        sgd_update_f64 ((double *) gnn_tensor_priv_data (pp),
                        (const double *) gnn_tensor_priv_data (gnn_tensor_priv (grad)),
                        buf_data, pp->numel, lr, self->momentum, self->dampening,
                        self->weight_decay, self->nesterov, maximize, first);
    }
  return TRUE;
}

static void
gnn_sgd_class_init (GnnSGDClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  object_class->get_property = gnn_sgd_get_property;
  object_class->set_property = gnn_sgd_set_property;
  optimizer_class->validate = gnn_sgd_validate;
  optimizer_class->step = gnn_sgd_step;
  optimizer_class->validate_state = gnn_sgd_validate_state;

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
  g_object_class_install_properties (object_class, N_PROPS, properties);
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
