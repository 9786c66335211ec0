/* gnn-tensor-reduce.c: sum, mean, max, min, prod, all, any over any set of
 * dims (argmax/argmin are in gnn-tensor-argmax.c, softmax in
 * gnn-tensor-softmax.c, logsumexp in gnn-tensor-logsumexp.c, var/std/norm
 * in gnn-tensor-stats.c)
 *
 * Built with -O3 (see lib/meson.build): the run kernels below are written so
 * that gcc vectorizes them (unit-stride loops, independent partial sums).
 * The sum/max/min runs and softmax are compiled for every CPU level by
 * GNN_DISPATCH_KERNEL (gnn-cpu-private.h): their partial sums live in 8 fixed
 * lanes, so a wider vector changes how many lanes one instruction updates,
 * never the order of the additions; every level gives the same bits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-reduce-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-dtype-check-private.h"

static const char *const red_names[] = { "sum", "mean", "max", "min", "prod" };

/* --- run kernels ----------------------------------------------------------
 *
 * Every reduction walks the input with a GnnNdIter over two operands: the
 * accumulator (stride 0 along reduced dims) and the input. Each inner run is
 * either a horizontal reduction (accumulator stride 0: reducing the last
 * dim) or an element-wise update of a row of accumulators (reducing an outer
 * dim, e.g. dim 0 of a contiguous matrix). Floats accumulate in double,
 * integers in int64. */

#define LOAD_PLAIN GNN_LOAD_PLAIN
#define LOAD_HALF  GNN_LOAD_HALF
#define LOAD_BF16  GNN_LOAD_BF16

/* Max or min of a run. The horizontal case keeps 8 independent lanes so it
 * vectorizes; NaN is tracked with a flag and the first NaN is the result. */
#define EXTREMUM_RUN(TAG, CTYPE, ATYPE, LOAD, NAME, CMP)                         \
GNN_KERNEL_INLINE void                                                          \
NAME##_run_##TAG (ATYPE *acc, gint64 as, const CTYPE *x, gint64 xs, gint64 n)   \
{                                                                               \
  if (as == 0)                                                                  \
    {                                                                           \
      ATYPE m = acc[0];                                                         \
      int nan = GNN_ISNAN (m);                                                  \
      gint64 i = 0;                                                             \
                                                                                \
      if (xs == 1 && n >= 16)                                                   \
        {                                                                       \
          ATYPE l[8];                                                           \
          int nn[8];                                                            \
                                                                                \
          for (int j = 0; j < 8; j++)                                           \
            {                                                                   \
              l[j] = (ATYPE) LOAD (x[j]);                                       \
              nn[j] = GNN_ISNAN (l[j]);                                         \
            }                                                                   \
          for (i = 8; i + 8 <= n; i += 8)                                       \
            for (int j = 0; j < 8; j++)                                         \
              {                                                                 \
                ATYPE v = (ATYPE) LOAD (x[i + j]);                              \
                l[j] = v CMP l[j] ? v : l[j];                                   \
                nn[j] |= GNN_ISNAN (v);                                         \
              }                                                                 \
          for (int j = 0; j < 8; j++)                                           \
            {                                                                   \
              m = l[j] CMP m ? l[j] : m;                                        \
              nan |= nn[j];                                                     \
            }                                                                   \
        }                                                                       \
      for (; i < n; i++)                                                        \
        {                                                                       \
          ATYPE v = (ATYPE) LOAD (x[i * xs]);                                   \
          m = v CMP m ? v : m;                                                  \
          nan |= GNN_ISNAN (v);                                                 \
        }                                                                       \
      if (!nan)                                                                 \
        acc[0] = m;                                                             \
      else if (!GNN_ISNAN (acc[0]))                                             \
        for (i = 0; i < n; i++)                                                 \
          {                                                                     \
            ATYPE v = (ATYPE) LOAD (x[i * xs]);                                 \
            if (GNN_ISNAN (v))                                                  \
              {                                                                 \
                acc[0] = v;                                                     \
                break;                                                          \
              }                                                                 \
          }                                                                     \
    }                                                                           \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      {                                                                         \
        ATYPE v = (ATYPE) LOAD (x[i * xs]);                                     \
        ATYPE m = acc[i * as];                                                  \
        acc[i * as] = (v CMP m || GNN_ISNAN (v)) && !GNN_ISNAN (m) ? v : m;     \
      }                                                                         \
}

#define DEFINE_RUN_KERNELS(TAG, CTYPE, ATYPE, LOAD)                              \
GNN_DEFINE_HSUM (TAG, CTYPE, ATYPE, LOAD)                                       \
                                                                                \
GNN_KERNEL_INLINE ATYPE                                                         \
hprod_##TAG (const CTYPE *x, gint64 s, gint64 n)                                \
{                                                                               \
  ATYPE a[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };                                      \
  ATYPE t = 1;                                                                  \
  gint64 i = 0;                                                                 \
                                                                                \
  if (s == 1)                                                                   \
    for (; i + 8 <= n; i += 8)                                                  \
      for (int j = 0; j < 8; j++)                                               \
        a[j] = PROD_STEP (ATYPE, a[j], (ATYPE) LOAD (x[i + j]));                \
  for (; i < n; i++)                                                            \
    t = PROD_STEP (ATYPE, t, (ATYPE) LOAD (x[i * s]));                          \
  for (int j = 0; j < 8; j++)                                                   \
    t = PROD_STEP (ATYPE, t, a[j]);                                             \
  return t;                                                                     \
}                                                                               \
                                                                                \
GNN_KERNEL_INLINE void                                                          \
prod_run_##TAG (ATYPE *acc, gint64 as, const CTYPE *x, gint64 xs, gint64 n)     \
{                                                                               \
  if (as == 0)                                                                  \
    acc[0] = PROD_STEP (ATYPE, acc[0], hprod_##TAG (x, xs, n));                 \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      acc[i * as] = PROD_STEP (ATYPE, acc[i * as], (ATYPE) LOAD (x[i * xs]));   \
}                                                                               \
                                                                                \
GNN_KERNEL_INLINE void                                                          \
sum_run_##TAG (ATYPE *acc, gint64 as, const CTYPE *x, gint64 xs, gint64 n)      \
{                                                                               \
  if (as == 0)                                                                  \
    acc[0] += hsum_##TAG (x, xs, n);                                            \
  else if (as == 1 && xs == 1)                                                  \
    for (gint64 i = 0; i < n; i++)                                              \
      acc[i] += (ATYPE) LOAD (x[i]);                                            \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      acc[i * as] += (ATYPE) LOAD (x[i * xs]);                                  \
}                                                                               \
                                                                                \
EXTREMUM_RUN (TAG, CTYPE, ATYPE, LOAD, max, >)                                  \
EXTREMUM_RUN (TAG, CTYPE, ATYPE, LOAD, min, <)                                  \
                                                                                \
GNN_KERNEL_INLINE void                                                          \
reduce_runs_##TAG##_typed (GnnRedOp op, ATYPE *acc, const gint64 *acc_strides,     \
                   const CTYPE *x, const gint64 *x_strides,                     \
                   const gint64 *shape, guint ndim)                             \
{                                                                               \
  const gint64 *strides[2] = { acc_strides, x_strides };                        \
  GnnNdIter it;                                                                 \
                                                                                \
  gnn_nditer_init (&it, shape, ndim, 2, strides);                               \
  while (gnn_nditer_next (&it))                                                 \
    {                                                                           \
      ATYPE *a = acc + it.offsets[0];                                           \
      const CTYPE *p = x + it.offsets[1];                                       \
                                                                                \
      if (op == GNN_RED_MAX)                                                        \
        max_run_##TAG (a, it.inner_strides[0], p, it.inner_strides[1],          \
                       it.inner_size);                                          \
      else if (op == GNN_RED_PROD)                                                  \
        prod_run_##TAG (a, it.inner_strides[0], p, it.inner_strides[1],         \
                        it.inner_size);                                         \
      else if (op == GNN_RED_MIN)                                                   \
        min_run_##TAG (a, it.inner_strides[0], p, it.inner_strides[1],          \
                       it.inner_size);                                          \
      else                                                                      \
        sum_run_##TAG (a, it.inner_strides[0], p, it.inner_strides[1],          \
                       it.inner_size);                                          \
    }                                                                           \
}                                                                               \
                                                                                \
GNN_DISPATCH_KERNEL (reduce_runs_##TAG,                                         \
                 (GnnRedOp op, ATYPE *acc, const gint64 *acc_strides,              \
                  const CTYPE *x, const gint64 *x_strides,                      \
                  const gint64 *shape, guint ndim),                             \
                 (op, acc, acc_strides, x, x_strides, shape, ndim))

/* integer products wrap around like torch's (in uint64) */
#define PROD_STEP(ATYPE, a, b) \
  (sizeof (ATYPE) == 8 && (ATYPE) 0.5 == 0 ? (ATYPE) ((guint64) (a) * (guint64) (b)) : (a) * (b))

DEFINE_RUN_KERNELS (f32, float, double, LOAD_PLAIN)
DEFINE_RUN_KERNELS (f64, double, double, LOAD_PLAIN)
DEFINE_RUN_KERNELS (f16, guint16, double, LOAD_HALF)
DEFINE_RUN_KERNELS (bf16, guint16, double, LOAD_BF16)
DEFINE_RUN_KERNELS (i64, gint64, gint64, LOAD_PLAIN)
DEFINE_RUN_KERNELS (i32, gint32, gint64, LOAD_PLAIN)
DEFINE_RUN_KERNELS (i16, gint16, gint64, LOAD_PLAIN)
DEFINE_RUN_KERNELS (i8, gint8, gint64, LOAD_PLAIN)
DEFINE_RUN_KERNELS (u8, guint8, gint64, LOAD_PLAIN)

/* --- dims and shapes ------------------------------------------------------ */

/* Resolves @dims (empty: all) into a mask over the dims of @p. */
gboolean
gnn_reduce_resolve_dims (GnnTensorPrivate *p,
              const gint       *dims,
              guint             n_dims,
              gboolean         *reduce,
              GError          **error)
{
  guint n = MAX (p->ndim, 1);

  for (guint d = 0; d < n; d++)
    reduce[d] = n_dims == 0;
  for (guint i = 0; i < n_dims; i++)
    {
      guint d;

      if (!gnn_wrap_dim (dims[i], p->ndim, &d, error))
        return FALSE;
      if (reduce[d])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "dim %u appears multiple times in the list of dims", d);
          return FALSE;
        }
      reduce[d] = TRUE;
    }
  return TRUE;
}

/* The output shape (reduced dims dropped or kept as 1) and the accumulator
 * strides over the input's shape: contiguous over the kept dims, 0 along
 * reduced ones. */
void
gnn_reduce_geometry (GnnTensorPrivate *p,
                  const gboolean   *reduce,
                  gboolean          keepdim,
                  gint64           *out_shape,
                  guint            *out_ndim,
                  gint64           *acc_strides)
{
  gint64 kshape[GNN_MAX_DIMS];
  guint nd = 0;

  for (guint d = 0; d < p->ndim; d++)
    {
      kshape[d] = reduce[d] ? 1 : p->shape[d];
      if (!reduce[d] || keepdim)
        out_shape[nd++] = kshape[d];
    }
  *out_ndim = nd;
  gnn_contiguous_strides (kshape, p->ndim, acc_strides);
  for (guint d = 0; d < p->ndim; d++)
    if (reduce[d])
      acc_strides[d] = 0;
}

/* Reorders dims by decreasing input stride so that the walk follows memory
 * (a transposed input is then read row by row). */
static void
memory_order (GnnTensorPrivate *p,
              const gint64     *acc_strides,
              gint64           *shape,
              gint64           *x_strides,
              gint64           *a_strides)
{
  guint perm[GNN_MAX_DIMS];

  for (guint d = 0; d < p->ndim; d++)
    perm[d] = d;
  /* insertion sort, stable, on |stride| */
  for (guint i = 1; i < p->ndim; i++)
    {
      guint v = perm[i];
      gint64 sv = ABS (p->strides[v]);
      guint j = i;

      while (j > 0 && ABS (p->strides[perm[j - 1]]) < sv)
        {
          perm[j] = perm[j - 1];
          j--;
        }
      perm[j] = v;
    }
  for (guint d = 0; d < p->ndim; d++)
    {
      shape[d] = p->shape[perm[d]];
      x_strides[d] = p->strides[perm[d]];
      a_strides[d] = acc_strides[perm[d]];
    }
}

static void
write_int (GnnDType dtype,
           guint8  *dst,
           gint64   v)
{
  switch (dtype)
    {
    case GNN_DTYPE_I64: *(gint64 *) dst = v; break;
    case GNN_DTYPE_I32: *(gint32 *) dst = (gint32) v; break;
    case GNN_DTYPE_I16: *(gint16 *) dst = (gint16) v; break;
    case GNN_DTYPE_I8: *(gint8 *) dst = (gint8) v; break;
    case GNN_DTYPE_U8: *dst = (guint8) v; break;
    case GNN_DTYPE_BOOL: *dst = v != 0; break;
    default: gnn_dtype_write (dtype, dst, (double) v); break;
    }
}

GnnTensor *
gnn_reduce (GnnRedOp    op,
             GnnTensor  *self,
             const gint *dims,
             guint       n_dims,
             gboolean    keepdim,
             GError    **error)
{
  GnnTensorPrivate *p;
  gboolean reduce[GNN_MAX_DIMS];
  gint64 out_shape[GNN_MAX_DIMS], acc_strides[GNN_MAX_DIMS];
  gint64 shape[GNN_MAX_DIMS], x_strides[GNN_MAX_DIMS], a_strides[GNN_MAX_DIMS];
  guint out_ndim;
  gboolean is_float;
  GnnDType out_dtype;
  GnnTensor *out;
  GnnTensorPrivate *op_;
  gint64 out_numel, count = 1;
  g_autofree void *acc_mem = NULL;
  void *acc;
  guint8 *x;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  p = gnn_tensor_priv (self);
  is_float = gnn_dtype_is_floating (p->dtype);

  if (!gnn_reduce_resolve_dims (p, dims, n_dims, reduce, error))
    return NULL;

  if (op == GNN_RED_MEAN && !is_float)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "mean(): could not infer output dtype. Input dtype must be either a "
                   "floating point or complex dtype. Got: %s", gnn_torch_scalar_name (p->dtype));
      return NULL;
    }
  if ((op == GNN_RED_MAX || op == GNN_RED_MIN) && p->numel == 0)
    {
      if (n_dims == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s(): Expected reduction dim to be specified for input.numel() == 0. "
                       "Specify the reduction dim with the 'dim' argument.", red_names[op]);
          return NULL;
        }
      for (guint d = 0; d < p->ndim; d++)
        if (reduce[d] && p->shape[d] == 0)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                         "%s(): Expected reduction dim %u to have non-zero size.",
                         red_names[op], d);
            return NULL;
          }
    }

  gnn_reduce_geometry (p, reduce, keepdim, out_shape, &out_ndim, acc_strides);
  memory_order (p, acc_strides, shape, x_strides, a_strides);
  /* only an empty input can overflow here; its mean divides nothing */
  for (guint d = 0; d < p->ndim; d++)
    if (reduce[d] && !gnn_checked_mul (count, p->shape[d], &count))
      count = G_MAXINT64;

  if ((op == GNN_RED_SUM || op == GNN_RED_PROD) && !is_float)
    out_dtype = GNN_DTYPE_I64;
  else
    out_dtype = p->dtype;
  out = gnn_tensor_new_contiguous_checked (out_dtype, out_shape, out_ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  op_ = gnn_tensor_priv (out);
  out_numel = op_->numel;

  /* Accumulate straight into the output when it has the accumulator's type. */
  if (out_dtype == GNN_DTYPE_F64 || out_dtype == GNN_DTYPE_I64)
    acc = gnn_tensor_priv_data (op_);
  else
    {
      acc = acc_mem = g_try_malloc ((gsize) MAX (out_numel, 1) * 8);
      if (acc == NULL)
        {
          gnn_set_alloc_error (error, (gsize) MAX (out_numel, 1) * 8, out_shape, out_ndim);
          g_object_unref (out);
          return NULL;
        }
    }

  if (is_float)
    {
      double init = op == GNN_RED_MAX ? -INFINITY : op == GNN_RED_MIN ? INFINITY
                    : op == GNN_RED_PROD ? 1.0 : 0.0;
      for (gint64 i = 0; i < out_numel; i++)
        ((double *) acc)[i] = init;
    }
  else
    {
      gint64 init = op == GNN_RED_MAX ? G_MININT64 : op == GNN_RED_MIN ? G_MAXINT64
                    : op == GNN_RED_PROD ? 1 : 0;
      for (gint64 i = 0; i < out_numel; i++)
        ((gint64 *) acc)[i] = init;
    }

  x = gnn_tensor_priv_data (p);
  switch (p->dtype)
    {
    case GNN_DTYPE_F32:
      reduce_runs_f32 (op, acc, a_strides, (const float *) x, x_strides, shape, p->ndim);
      break;
    case GNN_DTYPE_F64:
      reduce_runs_f64 (op, acc, a_strides, (const double *) x, x_strides, shape, p->ndim);
      break;
    case GNN_DTYPE_F16:
      reduce_runs_f16 (op, acc, a_strides, (const guint16 *) x, x_strides, shape, p->ndim);
      break;
    case GNN_DTYPE_BF16:
      reduce_runs_bf16 (op, acc, a_strides, (const guint16 *) x, x_strides, shape, p->ndim);
      break;
    case GNN_DTYPE_I64:
      reduce_runs_i64 (op, acc, a_strides, (const gint64 *) x, x_strides, shape, p->ndim);
      break;
    case GNN_DTYPE_I32:
      reduce_runs_i32 (op, acc, a_strides, (const gint32 *) x, x_strides, shape, p->ndim);
      break;
    case GNN_DTYPE_I16:
      reduce_runs_i16 (op, acc, a_strides, (const gint16 *) x, x_strides, shape, p->ndim);
      break;
    case GNN_DTYPE_I8:
      reduce_runs_i8 (op, acc, a_strides, (const gint8 *) x, x_strides, shape, p->ndim);
      break;
    case GNN_DTYPE_U8:
    case GNN_DTYPE_BOOL:
    default:
      reduce_runs_u8 (op, acc, a_strides, (const guint8 *) x, x_strides, shape, p->ndim);
      break;
    }

  if (op == GNN_RED_MEAN)
    {
      double *a = acc;
      for (gint64 i = 0; i < out_numel; i++)
        a[i] /= (double) count;     /* 0/0 gives NaN for empty reductions, like PyTorch */
    }

  if (acc_mem != NULL)
    {
      guint8 *d = gnn_tensor_priv_data (op_);
      gsize es = gnn_dtype_get_size (out_dtype);

      if (out_dtype == GNN_DTYPE_F32)
        for (gint64 i = 0; i < out_numel; i++)
          ((float *) d)[i] = (float) ((double *) acc)[i];
      else if (is_float)
        for (gint64 i = 0; i < out_numel; i++)
          gnn_dtype_write (out_dtype, d + i * es, ((double *) acc)[i]);
      else
        for (gint64 i = 0; i < out_numel; i++)
          write_int (out_dtype, d + i * es, ((gint64 *) acc)[i]);
    }
  return out;
}


GnnTensor *
gnn_record_reduce (GnnOpKind   op,
               GnnTensor  *out,
               GnnTensor  *self,
               const gint *dims,
               guint       n_dims,
               gboolean    keepdim)
{
  GnnOpParams params = { .n_dims = MIN (n_dims, GNN_MAX_DIMS), .keepdim = keepdim };

  if (out == NULL || gnn_grad_mode_off || !gnn_tensor_priv (self)->requires_grad)
    return out;
  for (guint i = 0; i < params.n_dims; i++)
    params.dims[i] = dims[i];
  return gnn_tensor_record (op, out, &self, 1, &params);
}

/**
 * gnn_tensor_sum:
 * @self: a #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * Sums over @dims, like `torch.sum (self, dims, keepdim)`. Floating-point
 * tensors give a tensor of the same dtype (accumulated in double precision);
 * integer and boolean tensors give an int64 tensor, as in PyTorch.
 *
 * Returns: (transfer full): the sums, or %NULL if a dim is out of range or
 *   listed twice
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sum (GnnTensor  *self,
                const gint *dims,
                guint       n_dims,
                gboolean    keepdim,
                GError    **error)
{
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("sum", self, error, NULL);
  return gnn_record_reduce (GNN_OP_SUM, gnn_reduce (GNN_RED_SUM, self, dims, n_dims, keepdim, error),
                        self, dims, n_dims, keepdim);
}

/**
 * gnn_tensor_mean:
 * @self: a floating-point #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * Averages over @dims, like `torch.mean (self, dims, keepdim)`. The mean of
 * an empty set is NaN.
 *
 * Returns: (transfer full): the means, or %NULL if @self is not floating
 *   point or a dim is out of range or listed twice
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mean (GnnTensor  *self,
                 const gint *dims,
                 guint       n_dims,
                 gboolean    keepdim,
                 GError    **error)
{
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("mean", self, error, NULL);
  return gnn_record_reduce (GNN_OP_MEAN, gnn_reduce (GNN_RED_MEAN, self, dims, n_dims, keepdim, error),
                        self, dims, n_dims, keepdim);
}

/**
 * gnn_tensor_max:
 * @self: a #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * The largest values over @dims, like `torch.amax (self, dims, keepdim)`
 * (values only; see [method@Gnn.Tensor.argmax] for positions). NaN
 * propagates. Reducing over an empty dim is an error.
 *
 * Returns: (transfer full): the maxima, with the dtype of @self, or %NULL
 *   on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max (GnnTensor  *self,
                const gint *dims,
                guint       n_dims,
                gboolean    keepdim,
                GError    **error)
{
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("max", self, error, NULL);
  return gnn_record_reduce (GNN_OP_MAX, gnn_reduce (GNN_RED_MAX, self, dims, n_dims, keepdim, error),
                        self, dims, n_dims, keepdim);
}

/**
 * gnn_tensor_min:
 * @self: a #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * The smallest values over @dims, like `torch.amin (self, dims, keepdim)`.
 * NaN propagates. Reducing over an empty dim is an error.
 *
 * Returns: (transfer full): the minima, with the dtype of @self, or %NULL
 *   on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_min (GnnTensor  *self,
                const gint *dims,
                guint       n_dims,
                gboolean    keepdim,
                GError    **error)
{
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("min", self, error, NULL);
  return gnn_record_reduce (GNN_OP_MIN, gnn_reduce (GNN_RED_MIN, self, dims, n_dims, keepdim, error),
                        self, dims, n_dims, keepdim);
}

/**
 * gnn_tensor_prod:
 * @self: a #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * The product over @dims (like `torch.prod (self, dim, keepdim)`):
 * floating-point tensors keep their dtype (accumulated in double), integer
 * and bool tensors give int64 (wrapping on overflow), as in torch. The
 * gradient is the product of the other elements, exact with zeros too.
 *
 * Returns: (transfer full): the products, or %NULL if a dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_prod (GnnTensor  *self,
                 const gint *dims,
                 guint       n_dims,
                 gboolean    keepdim,
                 GError    **error)
{
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("prod", self, error, NULL);
  return gnn_record_reduce (GNN_OP_PROD, gnn_reduce (GNN_RED_PROD, self, dims, n_dims, keepdim,
                                                     error),
                            self, dims, n_dims, keepdim);
}

/* all / any: the minimum / maximum of `self != 0`; empty reductions give
 * true / false; a uint8 input gives uint8, as torch 1.13. */
static GnnTensor *
logical_reduce (gboolean    all,
                GnnTensor  *self,
                const gint *dims,
                guint       n_dims,
                gboolean    keepdim,
                GError    **error)
{
  GnnTensorPrivate *p;
  gboolean reduce[GNN_MAX_DIMS];
  gint64 out_shape[GNN_MAX_DIMS], acc_strides[GNN_MAX_DIMS];
  guint out_ndim;
  g_autoptr(GnnTensor) zero = NULL;
  g_autoptr(GnnTensor) nonzero = NULL;
  g_autoptr(GnnTensor) reduced = NULL;
  gboolean empty = FALSE;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE (all ? "all" : "any", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_reduce_resolve_dims (p, dims, n_dims, reduce, error))
    return NULL;
  for (guint d = 0; d < p->ndim; d++)
    empty = empty || (reduce[d] && p->shape[d] == 0);
  if (p->ndim == 0 && p->numel == 0)
    empty = TRUE;
  if (empty)
    {
      GnnTensor *out;

      gnn_reduce_geometry (p, reduce, keepdim, out_shape, &out_ndim, acc_strides);
      out = gnn_tensor_new_contiguous_checked (p->dtype == GNN_DTYPE_U8 ? GNN_DTYPE_U8
                                                                        : GNN_DTYPE_BOOL,
                                               out_shape, out_ndim, FALSE, error);
      if (out != NULL)
        gnn_tensor_fill_ (out, all ? 1.0 : 0.0, NULL);
      return out;
    }
  zero = gnn_tensor_new_wrapped_int (0);
  nonzero = gnn_tensor_ne (self, zero, error);
  if (nonzero == NULL)
    return NULL;
  reduced = gnn_reduce (all ? GNN_RED_MIN : GNN_RED_MAX, nonzero, dims, n_dims, keepdim, error);
  if (reduced == NULL || p->dtype != GNN_DTYPE_U8)
    return g_steal_pointer (&reduced);
  return gnn_tensor_copy_checked (reduced, GNN_DTYPE_U8, error);
}

/**
 * gnn_tensor_all:
 * @self: a #GnnTensor of any dtype
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * Whether every element over @dims is nonzero (like `torch.all`): a bool
 * tensor (uint8 for a uint8 input, as in torch); true over no elements.
 *
 * Returns: (transfer full): the result, or %NULL if a dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_all (GnnTensor  *self,
                const gint *dims,
                guint       n_dims,
                gboolean    keepdim,
                GError    **error)
{
  return logical_reduce (TRUE, self, dims, n_dims, keepdim, error);
}

/**
 * gnn_tensor_any:
 * @self: a #GnnTensor of any dtype
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * Whether some element over @dims is nonzero (like `torch.any`); false
 * over no elements.
 *
 * Returns: (transfer full): the result, or %NULL if a dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_any (GnnTensor  *self,
                const gint *dims,
                guint       n_dims,
                gboolean    keepdim,
                GError    **error)
{
  return logical_reduce (FALSE, self, dims, n_dims, keepdim, error);
}
