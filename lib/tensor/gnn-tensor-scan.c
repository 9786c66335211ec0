/* gnn-tensor-scan.c: cumsum and cumprod along a dim
 *
 * The input is packed into its contiguous [outer, n, inner] view; with
 * inner == 1 each row is one sequential scan, otherwise a row of inner
 * accumulators advances one step of the dim at a time (unit-stride loops
 * gcc vectorizes); rows of the last dim go four at a time, so four
 * additions are in flight instead of one. Floats accumulate in double and
 * integers in int64, as torch's CPU kernels do; integer and bool inputs
 * give int64. Rows are split among the intra-op threads.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-reduce-private.h"
#include "tensor/gnn-scan-private.h"
#include "tensor/gnn-parallel-private.h"

typedef struct
{
  GnnScanOp     op;
  gboolean      reverse;
  GnnDType      dtype;        /* of input and output (float32, float64 or int64) */
  const guint8 *x;
  guint8       *y;
  gint64        n, inner;
} Scan;

/* Rows o .. o + R (inner == 1) scanned side by side: R independent chains
 * of additions instead of one, each row's own sequence of steps (the same
 * bits as one row at a time). */
#define SCAN_ROWS(T, ACC, STEP, R)                                              \
  G_STMT_START {                                                                \
    const T *x = (const T *) s->x + o * s->n;                                   \
    T *y = (T *) s->y + o * s->n;                                               \
    gint64 n = s->n;                                                            \
    ACC acc[R];                                                                 \
    for (int r = 0; r < R; r++)                                                 \
      acc[r] = s->op == GNN_SCAN_SUM ? 0 : 1;                                   \
    for (gint64 step = 0; step < n; step++)                                     \
      {                                                                         \
        gint64 k = s->reverse ? n - 1 - step : step;                            \
        for (int r = 0; r < R; r++)                                             \
          {                                                                     \
            acc[r] = STEP (ACC, acc[r], (ACC) x[r * n + k]);                    \
            y[r * n + k] = (T) acc[r];                                          \
          }                                                                     \
      }                                                                         \
  } G_STMT_END

#define SCAN_BLOCK(T, ACC, STEP)                                                \
  G_STMT_START {                                                                \
    if (s->inner == 1 && o + 4 <= end)                                          \
      {                                                                         \
        SCAN_ROWS (T, ACC, STEP, 4);                                            \
        o += 3;                                                                 \
      }                                                                         \
    else if (s->inner == 1)                                                     \
      SCAN_ROWS (T, ACC, STEP, 1);                                              \
    else                                                                        \
      {                                                                         \
        const T *x = (const T *) s->x + o * s->n * s->inner;                    \
        T *y = (T *) s->y + o * s->n * s->inner;                                \
        gint64 n = s->n, inner = s->inner;                                      \
        ACC *acc = (ACC *) scratch;                                             \
        for (gint64 i = 0; i < inner; i++)                                      \
          acc[i] = s->op == GNN_SCAN_SUM ? 0 : 1;                               \
        for (gint64 step = 0; step < n; step++)                                 \
          {                                                                     \
            gint64 k = s->reverse ? n - 1 - step : step;                        \
            const T *xr = x + k * inner;                                        \
            T *yr = y + k * inner;                                              \
            for (gint64 i = 0; i < inner; i++)                                  \
              {                                                                 \
                acc[i] = STEP (ACC, acc[i], (ACC) xr[i]);                       \
                yr[i] = (T) acc[i];                                             \
              }                                                                 \
          }                                                                     \
      }                                                                         \
  } G_STMT_END

#define ADD_STEP(ACC, a, b) ((a) + (b))
#define MUL_STEP(ACC, a, b) ((a) * (b))
/* int64 wraps like torch's */
#define IADD_STEP(ACC, a, b) ((ACC) ((guint64) (a) + (guint64) (b)))
#define IMUL_STEP(ACC, a, b) ((ACC) ((guint64) (a) * (guint64) (b)))

static void
scan_rows (gint64   begin,
           gint64   end,
           gpointer data)
{
  const Scan *s = data;
  g_autofree guint8 *scratch = s->inner > 1 ? g_malloc (sizeof (double) * (gsize) s->inner) : NULL;

  for (gint64 o = begin; o < end; o++)
    {
      if (s->dtype == GNN_DTYPE_F32 && s->op == GNN_SCAN_SUM)
        SCAN_BLOCK (float, double, ADD_STEP);
      else if (s->dtype == GNN_DTYPE_F32)
        SCAN_BLOCK (float, double, MUL_STEP);
      else if (s->dtype == GNN_DTYPE_F64 && s->op == GNN_SCAN_SUM)
        SCAN_BLOCK (double, double, ADD_STEP);
      else if (s->dtype == GNN_DTYPE_F64)
        SCAN_BLOCK (double, double, MUL_STEP);
      else if (s->op == GNN_SCAN_SUM)
        SCAN_BLOCK (gint64, gint64, IADD_STEP);
      else
        SCAN_BLOCK (gint64, gint64, IMUL_STEP);
    }
}

GnnTensor *
gnn_scan (GnnScanOp   op,
          GnnTensor  *self,
          gint        dim,
          gboolean    reverse,
          guint      *dim_out,
          GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnDType dtype = p->dtype == GNN_DTYPE_F64 ? GNN_DTYPE_F64
                   : gnn_dtype_is_floating (p->dtype) ? GNN_DTYPE_F32 : GNN_DTYPE_I64;
  g_autoptr(GnnTensor) x = NULL;
  GnnTensor *out;
  Scan s = { op, reverse, dtype };
  gint64 outer;
  guint d;

  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  if (dim_out != NULL)
    *dim_out = d;
  /* the input as it is when it is contiguous in the working dtype */
  x = p->dtype == dtype ? gnn_tensor_contiguous_checked (self, error)
                        : gnn_tensor_copy_checked (self, dtype, error);
  if (x == NULL)
    return NULL;
  out = gnn_tensor_new_contiguous_checked (dtype, p->shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  gnn_split_at_dim (p->shape, p->ndim, d, &outer, &s.n, &s.inner);
  s.x = gnn_tensor_priv_data (gnn_tensor_priv (x));
  s.y = gnn_tensor_priv_data (gnn_tensor_priv (out));
  if (p->numel > 0)
    gnn_parallel_for (outer, gnn_parallel_grain (s.n * s.inner), scan_rows, &s);
  if (gnn_dtype_is_floating (p->dtype) && p->dtype != dtype)
    {
      /* float16 / bfloat16 computed in float32, as torch */
      GnnTensor *rounded = gnn_tensor_copy_checked (out, p->dtype, error);

      g_object_unref (out);
      out = rounded;
    }
  return out;
}

/**
 * gnn_tensor_cumsum:
 * @self: a #GnnTensor
 * @dim: the dim to accumulate along (may be negative)
 * @error: return location for a #GError
 *
 * The running sums along @dim (like `torch.cumsum (self, dim)`):
 * `out[i] = self[0] + … + self[i]`. Floating-point tensors keep their dtype
 * (accumulated in double), integer and bool tensors give int64, as in
 * torch; convert beforehand for torch's `dtype=` argument.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL if @dim is
 *   out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cumsum (GnnTensor *self,
                   gint       dim,
                   GError   **error)
{
  guint d = 0;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("cumsum", self, error, NULL);
  out = gnn_scan (GNN_SCAN_SUM, self, dim, FALSE, &d, error);
  return gnn_tensor_record (GNN_OP_CUMSUM, out, &self, 1, &(GnnOpParams) { .dim = (gint) d });
}

/**
 * gnn_tensor_cumprod:
 * @self: a #GnnTensor
 * @dim: the dim to accumulate along (may be negative)
 * @error: return location for a #GError
 *
 * The running products along @dim (like `torch.cumprod (self, dim)`), with
 * the dtype rules of [method@Gnn.Tensor.cumsum]; the gradient is exact
 * with zeros in the input.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL if @dim is
 *   out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cumprod (GnnTensor *self,
                    gint       dim,
                    GError   **error)
{
  guint d = 0;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("cumprod", self, error, NULL);
  out = gnn_scan (GNN_SCAN_PROD, self, dim, FALSE, &d, error);
  return gnn_tensor_record (GNN_OP_CUMPROD, out, &self, 1, &(GnnOpParams) { .dim = (gint) d });
}
