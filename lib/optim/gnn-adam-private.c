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
  return gnn_optim_check (h->eps >= 0.0, "epsilon value", h->eps, error) &&
         gnn_optim_check_beta (h->beta1, 0, error) &&
         gnn_optim_check_beta (h->beta2, 1, error) &&
         gnn_optim_check (h->weight_decay >= 0.0, "weight_decay value", h->weight_decay, error);
}

/* torch.maximum propagates NaN. */
#define NAN_MAX(a, b) ((a) > (b) || isnan (a) ? (a) : (b))

/* Per element, in the parameter's precision and torch's op order (fma:
 * the fused multiply-adds of its kernels):
 *   param.mul_(1 - lr * wd)                      (AdamW)
 *   grad = fma(wd, param, grad)                  (Adam, wd != 0)
 *   exp_avg = fma(1 - beta1, grad, exp_avg * beta1)
 *   exp_avg_sq = fma((1 - beta2) * grad, grad, exp_avg_sq * beta2)
 *   denom = sqrt(exp_avg_sq or max) / bc2_sqrt + eps
 *   param = param + (-step_size) * exp_avg / denom */
#define DEFINE_ADAM_KERNEL(T, suffix, SQRT)                                    \
GNN_OPTIM_KERNEL                                                               \
adam_##suffix##_typed (T *p, const T *g, T *m, T *v, T *vmax, gint64 n,        \
                       const GnnAdamHyper *h, double step_size,                \
                       double bc2_sqrt_d)                                      \
{                                                                              \
  const T b1 = (T) h->beta1, one_b1 = (T) (1.0 - h->beta1);                    \
  const T b2 = (T) h->beta2, one_b2 = (T) (1.0 - h->beta2);                    \
  const T wd = (T) h->weight_decay, decay = (T) (1.0 - h->lr * h->weight_decay); \
  const T eps = (T) h->eps, bc2_sqrt = (T) bc2_sqrt_d;                         \
  const T neg_step = (T) -step_size;                                           \
  const gboolean l2 = !h->decoupled && h->weight_decay != 0;                   \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T gj = h->maximize ? -g[j] : g[j];                                       \
      T denom;                                                                 \
      if (h->decoupled)                                                        \
        p[j] = p[j] * decay;                                                   \
      else if (l2)                                                             \
        gj = GNN_FMA (T, wd, p[j], gj);                                        \
      m[j] = GNN_FMA (T, one_b1, gj, m[j] * b1);                               \
      v[j] = GNN_FMA (T, one_b2 * gj, gj, v[j] * b2);                          \
      if (vmax != NULL)                                                        \
        {                                                                      \
          vmax[j] = NAN_MAX (vmax[j], v[j]);                                   \
          denom = SQRT (vmax[j]) / bc2_sqrt + eps;                             \
        }                                                                      \
      else                                                                     \
        denom = SQRT (v[j]) / bc2_sqrt + eps;                                  \
      p[j] = p[j] + neg_step * m[j] / denom;                                   \
    }                                                                          \
}                                                                              \
DISPATCH_KERNEL (adam_##suffix,                                                \
                 (T *p, const T *g, T *m, T *v, T *vmax, gint64 n,             \
                  const GnnAdamHyper *h, double step_size, double bc2_sqrt_d), \
                 (p, g, m, v, vmax, n, h, step_size, bc2_sqrt_d))

DEFINE_ADAM_KERNEL (float, f32, sqrtf)
DEFINE_ADAM_KERNEL (double, f64, sqrt)

void
gnn_adam_update (const GnnAdamHyper *h,
                 GnnTensor          *param,
                 GnnTensor          *grad,
                 GnnStateDict       *state)
{
  GnnTensorPrivate *pp = gnn_tensor_priv (param);
  GnnTensor *step_t = gnn_optim_state_scalar (state, "step", GNN_DTYPE_F32, 0);
  gpointer m = gnn_optim_data (gnn_optim_state_like_param (state, "exp_avg", param, 0));
  gpointer v = gnn_optim_data (gnn_optim_state_like_param (state, "exp_avg_sq", param, 0));
  gpointer vmax = h->amsgrad
                  ? gnn_optim_data (gnn_optim_state_like_param (state, "max_exp_avg_sq", param, 0))
                  : NULL;
  float *step_p = gnn_optim_data (step_t);
  double step, bc1, bc2, step_size;

  /* torch keeps step as a float32 tensor and reads it back with item() */
  *step_p += 1.0f;
  step = *step_p;
  bc1 = 1.0 - pow (h->beta1, step);
  bc2 = 1.0 - pow (h->beta2, step);
  step_size = h->lr / bc1;
  GNN_OPTIM_DISPATCH (param, adam, gnn_optim_data (param), gnn_optim_data (grad), m, v, vmax,
                      pp->numel, h, step_size, sqrt (bc2));
}
