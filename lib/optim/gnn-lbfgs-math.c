/* gnn-lbfgs-math.c: LBFGS's arithmetic as PyTorch does it — flat vectors of
 * the parameters' dtype (BLAS dots, fused multiply-adds, ATen's summation
 * order), and the closure's evaluations
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <cblas.h>

#include "optim/gnn-lbfgs-private.h"

/* --- flat vectors of the parameters' dtype ----------------------------------- */

GnnTensor *
gnn_lbfgs_vec_new (const GnnLbfgsCtx *c)
{
  return gnn_tensor_new_contiguous (c->f32 ? GNN_DTYPE_F32 : GNN_DTYPE_F64, &c->n, 1, TRUE);
}

#define F(t) ((float *) gnn_optim_data (t))
#define D(t) ((double *) gnn_optim_data (t))

GnnLbfgsNum
gnn_lbfgs_vec_dot (const GnnLbfgsCtx *c,
                   GnnTensor         *a,
                   GnnTensor         *b)
{
  return gnn_lbfgs_tensor (c, c->f32 ? cblas_sdot ((int) c->n, F (a), 1, F (b), 1)
                         : cblas_ddot ((int) c->n, D (a), 1, D (b), 1));
}

/* y += alpha * x (PyTorch's add_ with alpha: alpha rounded to the dtype,
 * one fused multiply-add) */
static void
axpy (const GnnLbfgsCtx *c,
      gpointer           y,
      GnnLbfgsNum        alpha,
      gconstpointer      x)
{
  if (c->f32)
    {
      float a = (float) alpha.v, *fy = y;
      const float *fx = x;
      for (gint64 j = 0; j < c->n; j++)
        fy[j] = fmaf (a, fx[j], fy[j]);
    }
  else
    {
      double *dy = y;
      const double *dx = x;
      for (gint64 j = 0; j < c->n; j++)
        dy[j] = fma (alpha.v, dx[j], dy[j]);
    }
}

void
gnn_lbfgs_vec_axpy (const GnnLbfgsCtx *c,
                    GnnTensor         *y,
                    GnnLbfgsNum        alpha,
                    GnnTensor         *x)
{
  axpy (c, gnn_optim_data (y), alpha, gnn_optim_data (x));
}

/* out = a * s (PyTorch's mul by a scalar); a new vector */
GnnTensor *
gnn_lbfgs_vec_scaled (const GnnLbfgsCtx *c,
                      GnnTensor         *a,
                      GnnLbfgsNum        s)
{
  GnnTensor *out = gnn_lbfgs_vec_new (c);

  if (c->f32)
    for (gint64 j = 0; j < c->n; j++)
      F (out)[j] = F (a)[j] * (float) s.v;
  else
    for (gint64 j = 0; j < c->n; j++)
      D (out)[j] = D (a)[j] * s.v;
  return out;
}

/* a - b, a new vector */
GnnTensor *
gnn_lbfgs_vec_sub (const GnnLbfgsCtx *c,
                   GnnTensor         *a,
                   GnnTensor         *b)
{
  GnnTensor *out = gnn_lbfgs_vec_new (c);

  if (c->f32)
    for (gint64 j = 0; j < c->n; j++)
      F (out)[j] = F (a)[j] - F (b)[j];
  else
    for (gint64 j = 0; j < c->n; j++)
      D (out)[j] = D (a)[j] - D (b)[j];
  return out;
}

/* max |a| (NaN wins, as torch's max does) */
GnnLbfgsNum
gnn_lbfgs_vec_abs_max (const GnnLbfgsCtx *c,
                       GnnTensor         *a)
{
  double m = 0;

  for (gint64 j = 0; j < c->n; j++)
    {
      double v = fabs (c->f32 ? F (a)[j] : D (a)[j]);
      if (v > m || isnan (v))
        m = v;
      if (isnan (m))
        break;
    }
  return gnn_lbfgs_tensor (c, m);
}

/* sum |a| as torch sums a contiguous vector (ATen 1.13's cascade_sum on a
 * CPU without AVX-512, its default: 32-byte vectors, rows of 4 entries
 * summed in up to 4 levels), so float32 rounds alike. */
static gint64
ceil_log2 (gint64 x)
{
  gint64 bits = 0;

  if (x <= 2)
    return 1;
  for (guint64 v = (guint64) (x - 1); v != 0; v >>= 1)
    bits++;
  return bits;
}

#define DEFINE_TORCH_ABS_SUM(T, suffix, LANES, FABS)                           \
/* entries of @w values, entry e at x + e * w, as rows of 4 */               \
static void                                                                  \
multi_row_sum_##suffix (const T *x, gint64 size, int w, T out[4][LANES])     \
{                                                                            \
  const gint64 level_power = MAX (4, ceil_log2 (size) / 4);                  \
  const gint64 level_step = (gint64) 1 << level_power;                       \
  const gint64 level_mask = level_step - 1;                                  \
  T acc[4][4][LANES];                                                        \
  gint64 i = 0;                                                              \
                                                                             \
  memset (acc, 0, sizeof acc);                                               \
  while (i + level_step <= size)                                             \
    {                                                                        \
      for (gint64 j = 0; j < level_step; j++)                                \
        for (int k = 0; k < 4; k++)                                          \
          for (int l = 0; l < w; l++)                                        \
            acc[0][k][l] += FABS (x[((i + j) * 4 + k) * w + l]);             \
      i += level_step;                                                       \
      for (int j = 1; j < 4; j++)                                            \
        {                                                                    \
          for (int k = 0; k < 4; k++)                                        \
            for (int l = 0; l < w; l++)                                      \
              {                                                              \
                acc[j][k][l] += acc[j - 1][k][l];                            \
                acc[j - 1][k][l] = 0;                                        \
              }                                                              \
          if ((i & (level_mask << (j * level_power))) != 0)                  \
            break;                                                           \
        }                                                                    \
    }                                                                        \
  for (; i < size; i++)                                                      \
    for (int k = 0; k < 4; k++)                                              \
      for (int l = 0; l < w; l++)                                            \
        acc[0][k][l] += FABS (x[(i * 4 + k) * w + l]);                       \
  for (int j = 1; j < 4; j++)                                                \
    for (int k = 0; k < 4; k++)                                              \
      for (int l = 0; l < w; l++)                                            \
        acc[0][k][l] += acc[j][k][l];                                        \
  memcpy (out, acc[0], sizeof acc[0]);                                       \
}                                                                            \
                                                                             \
/* @size entries of @w values: the 4 row sums, the leftover entries, then  \
 * the row sums added in order, lane by lane */                              \
static void                                                                  \
row_sum_##suffix (const T *x, gint64 size, int w, T *result)                 \
{                                                                            \
  T p[4][LANES];                                                             \
                                                                             \
  multi_row_sum_##suffix (x, size / 4, w, p);                                \
  for (gint64 i = size / 4 * 4; i < size; i++)                               \
    for (int l = 0; l < w; l++)                                              \
      p[0][l] += FABS (x[i * w + l]);                                        \
  for (int k = 1; k < 4; k++)                                                \
    for (int l = 0; l < w; l++)                                              \
      p[0][l] += p[k][l];                                                    \
  memcpy (result, p[0], w * sizeof (T));                                     \
}                                                                            \
                                                                             \
static T                                                                     \
torch_abs_sum_##suffix (const T *x, gint64 n)                                \
{                                                                            \
  T lanes[LANES], acc = 0;                                                   \
  gint64 n_vec = n / LANES;                                                  \
                                                                             \
  if (n < LANES)                                                             \
    {                                                                        \
      row_sum_##suffix (x, n, 1, lanes);                                     \
      return lanes[0];                                                       \
    }                                                                        \
  row_sum_##suffix (x, n_vec, LANES, lanes);                                 \
  for (gint64 k = n_vec * LANES; k < n; k++)                                 \
    acc += FABS (x[k]);                                                      \
  for (int l = 0; l < LANES; l++)                                            \
    acc += lanes[l];                                                         \
  return acc;                                                                \
}

DEFINE_TORCH_ABS_SUM (float, f32, 8, fabsf)
DEFINE_TORCH_ABS_SUM (double, f64, 4, fabs)

GnnLbfgsNum
gnn_lbfgs_vec_abs_sum (const GnnLbfgsCtx *c,
             GnnTensor *a)
{
  return gnn_lbfgs_tensor (c, c->f32 ? torch_abs_sum_f32 (F (a), c->n) : torch_abs_sum_f64 (D (a), c->n));
}

/* --- parameters and gradients ------------------------------------------------ */

/* The gradients, concatenated (missing ones as zeros). */
GnnTensor *
gnn_lbfgs_gather_flat_grad (const GnnLbfgsCtx *c)
{
  GnnTensor *flat = gnn_lbfgs_vec_new (c);
  gsize size = c->f32 ? sizeof (float) : sizeof (double);
  gint64 offset = 0;

  for (guint i = 0; i < c->params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (c->params, i);
      GnnTensor *grad = gnn_tensor_get_grad (p);
      gint64 numel = gnn_tensor_get_numel (p);

      if (grad != NULL)
        {
          g_autoptr (GnnTensor) packed = gnn_tensor_contiguous_checked (grad, NULL);
          memcpy ((guint8 *) gnn_optim_data (flat) + offset * size, gnn_optim_data (packed),
                  numel * size);
        }
      offset += numel;
    }
  return flat;
}

/* params += step * update */
void
gnn_lbfgs_add_grad (const GnnLbfgsCtx *c,
                    GnnLbfgsNum        step,
                    GnnTensor         *update)
{
  gint64 offset = 0;

  for (guint i = 0; i < c->params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (c->params, i);
      gint64 numel = gnn_tensor_get_numel (p);

      GnnLbfgsCtx part = *c;

      part.n = numel;
      axpy (&part, gnn_optim_data (p), step,
            (guint8 *) gnn_optim_data (update) + offset * (c->f32 ? sizeof (float) : sizeof (double)));
      offset += numel;
    }
}

/* The parameters' values into @flat, or back from it. */
static void
copy_params (const GnnLbfgsCtx *c,
             GnnTensor         *flat,
             gboolean           into_flat)
{
  gsize size = c->f32 ? sizeof (float) : sizeof (double);
  gint64 offset = 0;

  for (guint i = 0; i < c->params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (c->params, i);
      guint8 *slice = (guint8 *) gnn_optim_data (flat) + offset * size;
      gsize nbytes = gnn_tensor_get_numel (p) * size;

      if (into_flat)
        memcpy (slice, gnn_optim_data (p), nbytes);
      else
        memcpy (gnn_optim_data (p), slice, nbytes);
      offset += gnn_tensor_get_numel (p);
    }
}

GnnTensor *
gnn_lbfgs_clone_params (const GnnLbfgsCtx *c)
{
  GnnTensor *flat = gnn_lbfgs_vec_new (c);

  copy_params (c, flat, TRUE);
  return flat;
}

void
gnn_lbfgs_set_params (const GnnLbfgsCtx *c,
                      GnnTensor         *flat)
{
  copy_params (c, flat, FALSE);
}

/* float(closure()): the loss as a Python float, the gradients checked. */
gboolean
gnn_lbfgs_evaluate (const GnnLbfgsCtx  *c,
                    double             *loss,
                    GnnTensor         **first,
                    GError            **error)
{
  g_autoptr (GnnTensor) result = gnn_optim_call_closure (c->closure, c->user_data, error);

  if (result == NULL)
    return FALSE;
  if (gnn_tensor_get_numel (result) != 1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "only one element tensors can be converted to Python scalars");
      return FALSE;
    }
  *loss = gnn_tensor_item (result, NULL);
  if (!gnn_optimizer_check_grads (c->self, error))
    return FALSE;
  if (first != NULL)
    *first = g_steal_pointer (&result);
  return TRUE;
}

/* _directional_evaluate: the loss and gradient at x + t * d, x restored. */
gboolean
gnn_lbfgs_directional_evaluate (const GnnLbfgsCtx  *c,
                                GnnTensor          *x,
                                GnnLbfgsNum         t,
                                GnnTensor          *d,
                                double             *loss,
                                GnnTensor         **flat_grad,
                                GError            **error)
{
  gnn_lbfgs_add_grad (c, t, d);
  if (!gnn_lbfgs_evaluate (c, loss, NULL, error))
    return FALSE;
  *flat_grad = gnn_lbfgs_gather_flat_grad (c);
  gnn_lbfgs_set_params (c, x);
  return TRUE;
}

