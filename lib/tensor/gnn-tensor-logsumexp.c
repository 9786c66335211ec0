/* gnn-tensor-logsumexp.c: logsumexp over dims
 *
 * float32 / float64 (and integers, computed in float32) over one run of
 * adjacent dims, the usual case, is one fused kernel over the contiguous
 * [outer, n, inner] view: the maximum, then the sum of exp (x - max) in 8
 * double lanes (a fixed order, so every CPU level and thread count gives
 * the same bits), float32's exp vectorized (gnn-vexpf-private.h). Rows (or
 * tiles of columns when inner > 1) are split among the intra-op threads.
 * Other cases compose max, exp, sum and log.
 *
 * Built with -O3 and compiled for every CPU level by GNN_DISPATCH_KERNEL.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-reduce-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-vexpf-private.h"

/* columns per tile when the reduced dims are not the last ones */
#define TILE 64

/* The kernels select with ?: on floats; see gnn-tensor-softmax.c. */
#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

/* The result from the maximum @m (NaN ignored) and the sum @s of
 * exp (x - shift), shift = m or 0 where m is infinite: +inf stays +inf
 * (NaN if a NaN was summed), -inf rows give -inf. */
#define FINISH(CTYPE, m, s)                                                     \
  ((m) == (CTYPE) INFINITY ? (isnan (s) ? (CTYPE) NAN : (CTYPE) INFINITY)       \
                           : (CTYPE) log (s) + (isinf (m) ? (CTYPE) 0 : (m)))

#define DEFINE_LSE(TAG, CTYPE, EXP)                                             \
GNN_KERNEL_INLINE void                                                         \
lse_##TAG##_typed (const CTYPE *x, CTYPE *y, gint64 begin, gint64 end,         \
                   gint64 n, gint64 inner)                                     \
{                                                                              \
  if (inner == 1)                                                              \
    {                                                                          \
      for (gint64 o = begin; o < end; o++)                                     \
        {                                                                      \
          const CTYPE *xr = x + o * n;                                         \
          CTYPE l[8], m, shift;                                                \
          double a[8], s;                                                      \
          gint64 k = 0;                                                        \
                                                                               \
          for (int j = 0; j < 8; j++)                                          \
            {                                                                  \
              l[j] = -INFINITY;                                                \
              a[j] = 0.0;                                                      \
            }                                                                  \
          for (; k + 8 <= n; k += 8)                                           \
            for (int j = 0; j < 8; j++)                                        \
              l[j] = xr[k + j] > l[j] ? xr[k + j] : l[j];                      \
          for (; k < n; k++)                                                   \
            l[k % 8] = xr[k] > l[k % 8] ? xr[k] : l[k % 8];                    \
          m = l[0];                                                            \
          for (int j = 1; j < 8; j++)                                          \
            m = l[j] > m ? l[j] : m;                                           \
          shift = isinf (m) ? (CTYPE) 0 : m;                                   \
          for (k = 0; k + 8 <= n; k += 8)                                      \
            for (int j = 0; j < 8; j++)                                        \
              a[j] += (double) EXP (xr[k + j] - shift);                        \
          for (; k < n; k++)                                                   \
            a[k % 8] += (double) EXP (xr[k] - shift);                          \
          s = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])); \
          y[o] = FINISH (CTYPE, m, s);                                         \
        }                                                                      \
      return;                                                                  \
    }                                                                          \
  /* items are tiles of TILE columns of one outer block */                     \
  {                                                                            \
    gint64 tiles = (inner + TILE - 1) / TILE;                                  \
                                                                               \
    for (gint64 it = begin; it < end; it++)                                    \
      {                                                                        \
        gint64 o = it / tiles, c0 = (it % tiles) * TILE;                       \
        gint64 w = MIN (TILE, inner - c0);                                     \
        const CTYPE *xb = x + o * n * inner + c0;                              \
        CTYPE mx[TILE], sh[TILE];                                              \
        double sm[TILE];                                                       \
                                                                               \
        for (gint64 i = 0; i < w; i++)                                         \
          {                                                                    \
            mx[i] = -INFINITY;                                                 \
            sm[i] = 0.0;                                                       \
          }                                                                    \
        for (gint64 k = 0; k < n; k++)                                         \
          for (gint64 i = 0; i < w; i++)                                       \
            mx[i] = xb[k * inner + i] > mx[i] ? xb[k * inner + i] : mx[i];     \
        for (gint64 i = 0; i < w; i++)                                         \
          sh[i] = isinf (mx[i]) ? (CTYPE) 0 : mx[i];                           \
        for (gint64 k = 0; k < n; k++)                                         \
          for (gint64 i = 0; i < w; i++)                                       \
            sm[i] += (double) EXP (xb[k * inner + i] - sh[i]);                 \
        for (gint64 i = 0; i < w; i++)                                         \
          y[o * inner + c0 + i] = FINISH (CTYPE, mx[i], sm[i]);                \
      }                                                                        \
  }                                                                            \
}                                                                              \
                                                                               \
GNN_DISPATCH_KERNEL (lse_##TAG,                                                \
                     (const CTYPE *x, CTYPE *y, gint64 begin, gint64 end,      \
                      gint64 n, gint64 inner),                                 \
                     (x, y, begin, end, n, inner))

DEFINE_LSE (f32, float, gnn_vexpf)
DEFINE_LSE (f64, double, exp)

#pragma GCC pop_options

typedef struct
{
  gboolean      f64;
  const guint8 *x;
  guint8       *y;
  gint64        n, inner;
} LseJob;

static void
lse_range (gint64   begin,
           gint64   end,
           gpointer data)
{
  const LseJob *j = data;

  if (j->f64)
    lse_f64 ((const double *) j->x, (double *) j->y, begin, end, j->n, j->inner);
  else
    lse_f32 ((const float *) j->x, (float *) j->y, begin, end, j->n, j->inner);
}

/* The fused kernel when the reduced dims of @x (float32 / float64, not
 * empty) are one run of adjacent dims; NULL without an error otherwise. */
static GnnTensor *
logsumexp_fused (GnnTensor      *x,
                 const gboolean *reduce,
                 gboolean        keepdim,
                 GError        **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (x);
  gint64 out_shape[GNN_MAX_DIMS], acc_strides[GNN_MAX_DIMS];
  gint64 outer = 1, inner = 1;
  guint out_ndim, first = p->ndim, last = 0;
  g_autoptr(GnnTensor) c = NULL;
  GnnTensor *out;
  LseJob j = { p->dtype == GNN_DTYPE_F64, NULL, NULL, 1, 1 };

  for (guint d = 0; d < p->ndim; d++)
    if (reduce[d])
      {
        first = MIN (first, d);
        last = d;
      }
  for (guint d = 0; d < p->ndim; d++)
    {
      if (d < first)
        outer *= p->shape[d];
      else if (d > last)
        inner *= p->shape[d];
      else if (!reduce[d] && p->shape[d] != 1)
        return NULL;                                   /* not one run */
      else
        j.n *= p->shape[d];
    }
  if ((c = gnn_tensor_contiguous_checked (x, error)) == NULL)
    return NULL;
  gnn_reduce_geometry (p, reduce, keepdim, out_shape, &out_ndim, acc_strides);
  out = gnn_tensor_new_contiguous_checked (p->dtype, out_shape, out_ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  j.x = gnn_tensor_priv_data (gnn_tensor_priv (c));
  j.y = gnn_tensor_priv_data (gnn_tensor_priv (out));
  j.inner = inner;
  if (inner == 1)
    gnn_parallel_for (outer, gnn_parallel_grain (j.n), lse_range, &j);
  else
    gnn_parallel_for (outer * ((inner + TILE - 1) / TILE), gnn_parallel_grain (j.n * TILE),
                      lse_range, &j);
  return out;
}

/* max + log (sum (exp (x - max))) over @dims, the max replaced by 0 where
 * it is infinite (so inf stays inf and -inf rows give -inf, not NaN). */
static GnnTensor *
logsumexp_values (GnnTensor  *self,
                  const gint *dims,
                  guint       n_dims,
                  gboolean    keepdim,
                  GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gboolean reduce[GNN_MAX_DIMS];
  gint64 out_shape[GNN_MAX_DIMS], acc_strides[GNN_MAX_DIMS];
  guint out_ndim;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) m = NULL;
  g_autoptr(GnnTensor) inf = NULL;
  g_autoptr(GnnTensor) zero = NULL;
  g_autoptr(GnnTensor) shift = NULL;
  g_autoptr(GnnTensor) centered = NULL;
  g_autoptr(GnnTensor) e = NULL;
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) l = NULL;
  g_autoptr(GnnTensor) out = NULL;

  if (!gnn_reduce_resolve_dims (p, dims, n_dims, reduce, error))
    return NULL;
  x = gnn_dtype_is_floating (p->dtype) ? g_object_ref (self)
                                       : gnn_tensor_copy_checked (self, GNN_DTYPE_F32, error);
  if (x == NULL)
    return NULL;
  if (p->numel == 0)
    /* the sum of no exponentials is 0: -inf */
    {
      if ((s = gnn_reduce (GNN_RED_SUM, x, dims, n_dims, keepdim, error)) == NULL)
        return NULL;
      return gnn_tensor_unary_op (GNN_UNARY_LOG, s, error);
    }
  if (gnn_tensor_priv (x)->dtype == GNN_DTYPE_F32 || gnn_tensor_priv (x)->dtype == GNN_DTYPE_F64)
    {
      GError *local = NULL;

      out = logsumexp_fused (x, reduce, keepdim, &local);
      if (out != NULL || local != NULL)
        {
          if (local != NULL)
            g_propagate_error (error, local);
          return g_steal_pointer (&out);
        }
    }
  zero = gnn_tensor_new_wrapped_number (0.0);
  if ((m = gnn_reduce (GNN_RED_MAX, x, dims, n_dims, TRUE, error)) == NULL ||
      (inf = gnn_tensor_unary_op (GNN_UNARY_ISINF, m, error)) == NULL ||
      (shift = gnn_where_values (inf, zero, m, error)) == NULL ||
      (centered = gnn_ew_binary (&gnn_op_sub, x, shift, error)) == NULL ||
      (e = gnn_tensor_unary_op (GNN_UNARY_EXP, centered, error)) == NULL ||
      (s = gnn_reduce (GNN_RED_SUM, e, dims, n_dims, TRUE, error)) == NULL ||
      (l = gnn_tensor_unary_op (GNN_UNARY_LOG, s, error)) == NULL ||
      (out = gnn_ew_binary (&gnn_op_add, l, shift, error)) == NULL)
    return NULL;
  if (keepdim)
    return g_steal_pointer (&out);
  gnn_reduce_geometry (p, reduce, FALSE, out_shape, &out_ndim, acc_strides);
  gnn_contiguous_strides (out_shape, out_ndim, acc_strides);
  return gnn_tensor_new_view (out, out_shape, acc_strides, out_ndim, 0);
}

/**
 * gnn_tensor_logsumexp:
 * @self: a #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * `log (sum (exp (self)))` over @dims, computed stably (like
 * `torch.logsumexp (self, dim, keepdim)`); integer tensors give float32.
 * The gradient is softmax over the reduced dims.
 *
 * Returns: (transfer full): the result, or %NULL if a dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logsumexp (GnnTensor  *self,
                      const gint *dims,
                      guint       n_dims,
                      gboolean    keepdim,
                      GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("logsumexp", self, error, NULL);
  return gnn_record_reduce (GNN_OP_LOGSUMEXP, logsumexp_values (self, dims, n_dims, keepdim, error),
                            self, dims, n_dims, keepdim);
}
