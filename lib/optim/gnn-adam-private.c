/* gnn-adam-private.c: the Adam update (torch 1.13 _single_tensor_adam), with
 * a switch for AdamW's decoupled weight decay
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "optim/gnn-adam-private.h"

/* --- the update ---------------------------------------------------------------- */

gboolean
gnn_adam_validate_hyper (const GnnAdamHyper  *h,
                         GError             **error)
{
  g_autofree char *v = NULL;

  if (!(h->eps >= 0.0))
    {
      v = gnn_format_double_shortest (h->eps);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid epsilon value: %s", v);
      return FALSE;
    }
  if (!(h->beta1 >= 0.0 && h->beta1 < 1.0))
    {
      v = gnn_format_double_shortest (h->beta1);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid beta parameter at index 0: %s", v);
      return FALSE;
    }
  if (!(h->beta2 >= 0.0 && h->beta2 < 1.0))
    {
      v = gnn_format_double_shortest (h->beta2);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid beta parameter at index 1: %s", v);
      return FALSE;
    }
  if (!(h->weight_decay >= 0.0))
    {
      v = gnn_format_double_shortest (h->weight_decay);
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
      if (!gnn_tensor_is_contiguous (grad) &&
          (grad = grad_c = gnn_tensor_contiguous_checked (grad, error)) == NULL)
        return FALSE;

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
