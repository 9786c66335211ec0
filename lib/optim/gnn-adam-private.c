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
 * the fused multiply-adds of its kernels; -grad as grad * -1, the same bits):
 *   param.mul_(1 - lr * wd)                      (AdamW)
 *   grad = fma(wd, param, grad)                  (Adam, wd != 0)
 *   exp_avg = fma(1 - beta1, grad, exp_avg * beta1)
 *   exp_avg_sq = fma((1 - beta2) * grad, grad, exp_avg_sq * beta2)
 *   denom = sqrt(exp_avg_sq or max) / bc2_sqrt + eps
 *   param = param + (-step_size) * exp_avg / denom */
#define DEFINE_ADAM_KERNEL(T, suffix, SQRT)                                    \
/* k: sign, beta1, 1 - beta1, beta2, 1 - beta2, wd, 1 - lr * wd, eps,          \
 * sqrt (bias correction 2), -step_size; the constant flags make each          \
 * caller's copy a loop without branches, which vectorizes */                  \
GNN_OPTIM_KERNEL                                                               \
adam_##suffix##_loop (T *restrict p, const T *restrict g, T *restrict m,       \
                      T *restrict v, T *restrict vmax, gint64 n,               \
                      const T *k, int decay_mode, gboolean ams)                \
{                                                                              \
  const T sign = k[0], b1 = k[1], one_b1 = k[2], b2 = k[3], one_b2 = k[4];     \
  const T wd = k[5], decay = k[6], eps = k[7], bc2_sqrt = k[8];                \
  const T neg_step = k[9];                                                     \
                                                                               \
  for (gint64 j = 0; j < n; j++)                                               \
    {                                                                          \
      T gj = g[j] * sign, s;                                                   \
      if (decay_mode == DECOUPLED)                                             \
        p[j] = p[j] * decay;                                                   \
      else if (decay_mode == L2)                                               \
        gj = GNN_FMA (T, wd, p[j], gj);                                        \
      m[j] = GNN_FMA (T, one_b1, gj, m[j] * b1);                               \
      v[j] = GNN_FMA (T, one_b2 * gj, gj, v[j] * b2);                          \
      s = v[j];                                                                \
      if (ams)                                                                 \
        s = vmax[j] = NAN_MAX (vmax[j], v[j]);                                 \
      p[j] = p[j] + neg_step * m[j] / (SQRT (s) / bc2_sqrt + eps);             \
    }                                                                          \
}                                                                              \
GNN_OPTIM_KERNEL                                                               \
adam_##suffix##_typed (T *p, const T *g, T *m, T *v, T *vmax, gint64 n,        \
                       const GnnAdamHyper *h, double step_size,                \
                       double bc2_sqrt_d)                                      \
{                                                                              \
  const T k[10] = { h->maximize ? (T) -1 : (T) 1, (T) h->beta1,                \
                    (T) (1.0 - h->beta1), (T) h->beta2, (T) (1.0 - h->beta2),  \
                    (T) h->weight_decay, (T) (1.0 - h->lr * h->weight_decay),  \
                    (T) h->eps, (T) bc2_sqrt_d, (T) -step_size };              \
  int mode = h->decoupled ? DECOUPLED : h->weight_decay != 0 ? L2 : NO_DECAY;  \
                                                                               \
  switch (mode * 2 + (vmax != NULL))                                           \
    {                                                                          \
    case NO_DECAY * 2: adam_##suffix##_loop (p, g, m, v, vmax, n, k, NO_DECAY, FALSE); break; \
    case NO_DECAY * 2 + 1: adam_##suffix##_loop (p, g, m, v, vmax, n, k, NO_DECAY, TRUE); break; \
    case L2 * 2: adam_##suffix##_loop (p, g, m, v, vmax, n, k, L2, FALSE); break; \
    case L2 * 2 + 1: adam_##suffix##_loop (p, g, m, v, vmax, n, k, L2, TRUE); break; \
    case DECOUPLED * 2: adam_##suffix##_loop (p, g, m, v, vmax, n, k, DECOUPLED, FALSE); break; \
    default: adam_##suffix##_loop (p, g, m, v, vmax, n, k, DECOUPLED, TRUE); break; \
    }                                                                          \
}                                                                              \
GNN_DISPATCH_KERNEL (adam_##suffix,                                            \
                 (T *p, const T *g, T *m, T *v, T *vmax, gint64 n,             \
                  const GnnAdamHyper *h, double step_size, double bc2_sqrt_d), \
                 (p, g, m, v, vmax, n, h, step_size, bc2_sqrt_d))

enum { NO_DECAY, L2, DECOUPLED };

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
