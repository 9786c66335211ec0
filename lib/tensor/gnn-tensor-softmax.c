/* gnn-tensor-softmax.c: softmax and log_softmax along a dim (one pass per
 * row over the contiguous [outer, n, inner] view; logsumexp is in
 * gnn-tensor-logsumexp.c)
 *
 * Built with -O3 (see lib/meson.build) and compiled for every CPU level by
 * GNN_DISPATCH_KERNEL; row sums in 8 fixed lanes, so every level gives the
 * same bits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-reduce-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-vexpf-private.h"

GNN_DEFINE_HSUM (f32, float, double, GNN_LOAD_PLAIN)
GNN_DEFINE_HSUM (f64, double, double, GNN_LOAD_PLAIN)


/* The softmax kernels select with ?: on floats; under the default
 * -ftrapping-math gcc will not if-convert those, so the loops stay scalar.
 * Softmax never enables FP traps, so allow it here (results are unchanged). */
#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")

/* Softmax over the middle dim of a contiguous [outer, n, inner] block,
 * numerically stable (the maximum is subtracted before exp). With inner == 1
 * (the last dim) each row is done in turn; otherwise rows of the block are
 * combined element-wise with a row of running maxima and sums, so every
 * loop is unit-stride. */
#define DEFINE_SOFTMAX(TAG, CTYPE, EXP, LOG)                                    \
GNN_KERNEL_INLINE void                                                         \
softmax_##TAG##_typed (const CTYPE *x, CTYPE *y, gint64 outer, gint64 n,       \
                       gint64 inner, gboolean log_softmax)                     \
{                                                                              \
  if (inner == 1)                                                              \
    {                                                                          \
      for (gint64 o = 0; o < outer; o++)                                       \
        {                                                                      \
          const CTYPE *xr = x + o * n;                                         \
          CTYPE *yr = y + o * n;                                               \
          CTYPE l[8];                                                          \
          CTYPE m = -INFINITY;                                                 \
          double s;                                                            \
          gint64 k = 0;                                                        \
                                                                               \
          /* 8 lanes keep each loop free of a serial dependency */             \
          for (int j = 0; j < 8; j++)                                          \
            l[j] = -INFINITY;                                                  \
          for (; k + 8 <= n; k += 8)                                           \
            for (int j = 0; j < 8; j++)                                        \
              l[j] = xr[k + j] > l[j] ? xr[k + j] : l[j];                      \
          for (; k < n; k++)                                                   \
            m = xr[k] > m ? xr[k] : m;                                         \
          for (int j = 0; j < 8; j++)                                          \
            m = l[j] > m ? l[j] : m;                                           \
          for (k = 0; k < n; k++)                                              \
            yr[k] = EXP (xr[k] - m);                                           \
          s = hsum_##TAG (yr, 1, n);                                           \
          if (log_softmax)                                                     \
            {                                                                  \
              CTYPE ls = (CTYPE) LOG (s);                                      \
              for (k = 0; k < n; k++)                                          \
                yr[k] = xr[k] - m - ls;                                        \
            }                                                                  \
          else                                                                 \
            {                                                                  \
              CTYPE inv = (CTYPE) (1.0 / s);                                   \
              for (k = 0; k < n; k++)                                          \
                yr[k] *= inv;                                                  \
            }                                                                  \
        }                                                                      \
      return;                                                                  \
    }                                                                          \
                                                                               \
  {                                                                            \
    g_autofree CTYPE *mx = g_new (CTYPE, inner);                               \
    g_autofree double *sm = g_new (double, inner);                             \
                                                                               \
    for (gint64 o = 0; o < outer; o++)                                         \
      {                                                                        \
        const CTYPE *xb = x + o * n * inner;                                   \
        CTYPE *yb = y + o * n * inner;                                         \
                                                                               \
        for (gint64 i = 0; i < inner; i++)                                     \
          {                                                                    \
            mx[i] = -INFINITY;                                                 \
            sm[i] = 0.0;                                                       \
          }                                                                    \
        for (gint64 k = 0; k < n; k++)                                         \
          for (gint64 i = 0; i < inner; i++)                                   \
            mx[i] = xb[k * inner + i] > mx[i] ? xb[k * inner + i] : mx[i];     \
        for (gint64 k = 0; k < n; k++)                                         \
          for (gint64 i = 0; i < inner; i++)                                   \
            {                                                                  \
              CTYPE e = EXP (xb[k * inner + i] - mx[i]);                       \
              if (!log_softmax)                                                \
                yb[k * inner + i] = e;                                         \
              sm[i] += (double) e;                                             \
            }                                                                  \
        if (log_softmax)                                                       \
          {                                                                    \
            for (gint64 i = 0; i < inner; i++)                                 \
              mx[i] += (CTYPE) LOG (sm[i]);                                    \
            for (gint64 k = 0; k < n; k++)                                     \
              for (gint64 i = 0; i < inner; i++)                               \
                yb[k * inner + i] = xb[k * inner + i] - mx[i];                 \
          }                                                                    \
        else                                                                   \
          {                                                                    \
            for (gint64 i = 0; i < inner; i++)                                 \
              sm[i] = 1.0 / sm[i];                                             \
            for (gint64 k = 0; k < n; k++)                                     \
              for (gint64 i = 0; i < inner; i++)                               \
                yb[k * inner + i] *= (CTYPE) sm[i];                            \
          }                                                                    \
      }                                                                        \
  }                                                                            \
}                                                                              \
                                                                               \
GNN_DISPATCH_KERNEL (softmax_##TAG,                                            \
                 (const CTYPE *x, CTYPE *y, gint64 outer, gint64 n,            \
                  gint64 inner, gboolean log_softmax),                         \
                 (x, y, outer, n, inner, log_softmax))

DEFINE_SOFTMAX (f32, float, gnn_vexpf, log)
DEFINE_SOFTMAX (f64, double, exp, log)

#pragma GCC pop_options

static GnnTensor *
softmax_impl (GnnTensor  *self,
              gint        dim,
              gboolean    log_softmax,
              GError    **error)
{
  const char *name = log_softmax ? "log_softmax" : "softmax";
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) src = NULL;
  GnnTensorPrivate *sp;
  GnnTensor *out;
  GnnDType work;
  gint64 outer = 1, n = 1, inner = 1;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "\"%s\" not implemented for '%s'", name, gnn_torch_scalar_name (p->dtype));
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;

  /* Half types compute in float32 and convert back. */
  work = p->dtype == GNN_DTYPE_F64 ? GNN_DTYPE_F64 : GNN_DTYPE_F32;
  if (work != p->dtype)
    {
      g_autoptr(GnnTensor) conv = gnn_tensor_to_dtype (self, work, error);
      if (conv == NULL)
        return NULL;
      src = gnn_tensor_contiguous (conv);
    }
  else
    src = gnn_tensor_contiguous (self);
  if (src == NULL)
    {
      GnnTensorPrivate *cp = gnn_tensor_priv (self);

      gnn_set_alloc_error (error, (gsize) cp->numel * gnn_dtype_get_size (work), cp->shape, cp->ndim);
      return NULL;
    }
  sp = gnn_tensor_priv (src);

  for (guint i = 0; i < sp->ndim; i++)
    {
      if (i < d)
        outer *= sp->shape[i];
      else if (i == d)
        n = sp->shape[i];
      else
        inner *= sp->shape[i];
    }

  out = gnn_tensor_new_contiguous_checked (work, sp->shape, sp->ndim, FALSE, error);

  if (out == NULL)

    return NULL;
  if (sp->numel > 0)
    {
      if (work == GNN_DTYPE_F32)
        softmax_f32 ((const float *) gnn_tensor_priv_data (sp),
                     (float *) gnn_tensor_priv_data (gnn_tensor_priv (out)),
                     outer, n, inner, log_softmax);
      else
        softmax_f64 ((const double *) gnn_tensor_priv_data (sp),
                     (double *) gnn_tensor_priv_data (gnn_tensor_priv (out)),
                     outer, n, inner, log_softmax);
    }

  if (work != p->dtype)
    {
      g_autoptr(GnnTensor) tmp = out;
      out = gnn_tensor_to_dtype (tmp, p->dtype, error);
    }
  return out;
}

/**
 * gnn_tensor_softmax:
 * @self: a floating-point #GnnTensor
 * @dim: the dim along which the result sums to 1 (may be negative)
 * @error: return location for a #GError
 *
 * Like `torch.softmax (self, dim)`: `exp (x - max) / sum (exp (x - max))`
 * along @dim, computed stably.
 *
 * Returns: (transfer full): a new contiguous tensor of the shape and dtype of
 *   @self, or %NULL if @self is not floating point or @dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_softmax (GnnTensor *self,
                    gint       dim,
                    GError   **error)
{
  GNN_CHECK_STORAGE ("softmax", self, error, NULL);
  return gnn_tensor_record (GNN_OP_SOFTMAX, softmax_impl (self, dim, FALSE, error), &self, 1,
                            &(GnnOpParams) { .dim = dim });
}

/**
 * gnn_tensor_log_softmax:
 * @self: a floating-point #GnnTensor
 * @dim: the dim to normalize over (may be negative)
 * @error: return location for a #GError
 *
 * Like `torch.log_softmax (self, dim)`: `x - max - log (sum (exp (x - max)))`
 * along @dim, which stays finite where `log (softmax (x))` would underflow.
 *
 * Returns: (transfer full): a new contiguous tensor of the shape and dtype of
 *   @self, or %NULL if @self is not floating point or @dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log_softmax (GnnTensor *self,
                        gint       dim,
                        GError   **error)
{
  GNN_CHECK_STORAGE ("log_softmax", self, error, NULL);
  return gnn_tensor_record (GNN_OP_LOG_SOFTMAX, softmax_impl (self, dim, TRUE, error), &self, 1,
                            &(GnnOpParams) { .dim = dim });
}
