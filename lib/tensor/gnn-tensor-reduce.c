/* gnn-tensor-reduce.c: sum, mean, max, min, argmax, softmax
 *
 * Built with -O3 (see lib/meson.build): the run kernels below are written so
 * that gcc vectorizes them (unit-stride loops, independent partial sums).
 * The sum/max/min runs and softmax are compiled for every CPU level by
 * DISPATCH_KERNEL (gnn-cpu-private.h): their partial sums live in 8 fixed
 * lanes, so a wider vector changes how many lanes one instruction updates,
 * never the order of the additions; every level gives the same bits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-cpu-private.h"
#include "tensor/gnn-vexpf-private.h"

/* Inlined into each CPU level's copy of the dispatched kernels. */
#define KERNEL_INLINE static inline __attribute__ ((always_inline))

typedef enum
{
  RED_SUM,
  RED_MEAN,
  RED_MAX,
  RED_MIN,
} RedOp;

static const char *const red_names[] = { "sum", "mean", "max", "min" };

/* PyTorch's ScalarType names, used in messages copied from PyTorch. */
static const char *
torch_type_name (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return "Float";
    case GNN_DTYPE_F64: return "Double";
    case GNN_DTYPE_F16: return "Half";
    case GNN_DTYPE_BF16: return "BFloat16";
    case GNN_DTYPE_I64: return "Long";
    case GNN_DTYPE_I32: return "Int";
    case GNN_DTYPE_I16: return "Short";
    case GNN_DTYPE_I8: return "Char";
    case GNN_DTYPE_U8: return "Byte";
    case GNN_DTYPE_BOOL: return "Bool";
    default: return "Unknown";
    }
}

/* --- run kernels ----------------------------------------------------------
 *
 * Every reduction walks the input with a GnnNdIter over two operands: the
 * accumulator (stride 0 along reduced dims) and the input. Each inner run is
 * either a horizontal reduction (accumulator stride 0: reducing the last
 * dim) or an element-wise update of a row of accumulators (reducing an outer
 * dim, e.g. dim 0 of a contiguous matrix). Floats accumulate in double,
 * integers in int64. */

#define GNN_ISNAN(v) ((v) != (v))
#define LOAD_PLAIN(v) (v)
#define LOAD_HALF(v) ((double) gnn_half_to_float (v))
#define LOAD_BF16(v) ((double) gnn_bfloat16_to_float (v))

/* Max or min of a run. The horizontal case keeps 8 independent lanes so it
 * vectorizes; NaN is tracked with a flag and the first NaN is the result. */
#define EXTREMUM_RUN(TAG, CTYPE, ATYPE, LOAD, NAME, CMP)                         \
KERNEL_INLINE void                                                              \
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
KERNEL_INLINE ATYPE                                                             \
hsum_##TAG (const CTYPE *x, gint64 s, gint64 n)                                 \
{                                                                               \
  ATYPE a[8] = { 0 };                                                           \
  ATYPE t = 0;                                                                  \
  gint64 i = 0;                                                                 \
                                                                                \
  if (s == 1)                                                                   \
    for (; i + 8 <= n; i += 8)                                                  \
      for (int j = 0; j < 8; j++)                                               \
        a[j] += (ATYPE) LOAD (x[i + j]);                                        \
  for (; i < n; i++)                                                            \
    t += (ATYPE) LOAD (x[i * s]);                                               \
  return t + ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])); \
}                                                                               \
                                                                                \
KERNEL_INLINE void                                                              \
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
KERNEL_INLINE void                                                              \
reduce_runs_##TAG##_typed (RedOp op, ATYPE *acc, const gint64 *acc_strides,     \
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
      if (op == RED_MAX)                                                        \
        max_run_##TAG (a, it.inner_strides[0], p, it.inner_strides[1],          \
                       it.inner_size);                                          \
      else if (op == RED_MIN)                                                   \
        min_run_##TAG (a, it.inner_strides[0], p, it.inner_strides[1],          \
                       it.inner_size);                                          \
      else                                                                      \
        sum_run_##TAG (a, it.inner_strides[0], p, it.inner_strides[1],          \
                       it.inner_size);                                          \
    }                                                                           \
}                                                                               \
                                                                                \
DISPATCH_KERNEL (reduce_runs_##TAG,                                             \
                 (RedOp op, ATYPE *acc, const gint64 *acc_strides,              \
                  const CTYPE *x, const gint64 *x_strides,                      \
                  const gint64 *shape, guint ndim),                             \
                 (op, acc, acc_strides, x, x_strides, shape, ndim))

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
static gboolean
resolve_dims (GnnTensorPrivate *p,
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
static void
reduced_geometry (GnnTensorPrivate *p,
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

static GnnTensor *
reduce_impl (RedOp       op,
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

  if (!resolve_dims (p, dims, n_dims, reduce, error))
    return NULL;

  if (op == RED_MEAN && !is_float)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "mean(): could not infer output dtype. Input dtype must be either a "
                   "floating point or complex dtype. Got: %s", torch_type_name (p->dtype));
      return NULL;
    }
  if ((op == RED_MAX || op == RED_MIN) && p->numel == 0)
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

  reduced_geometry (p, reduce, keepdim, out_shape, &out_ndim, acc_strides);
  memory_order (p, acc_strides, shape, x_strides, a_strides);
  /* only an empty input can overflow here; its mean divides nothing */
  for (guint d = 0; d < p->ndim; d++)
    if (reduce[d] && !gnn_checked_mul (count, p->shape[d], &count))
      count = G_MAXINT64;

  if (op == RED_SUM && !is_float)
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
      double init = op == RED_MAX ? -INFINITY : op == RED_MIN ? INFINITY : 0.0;
      for (gint64 i = 0; i < out_numel; i++)
        ((double *) acc)[i] = init;
    }
  else
    {
      gint64 init = op == RED_MAX ? G_MININT64 : op == RED_MIN ? G_MAXINT64 : 0;
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

  if (op == RED_MEAN)
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


/* Records a reduction over @dims for autograd. */
static GnnTensor *
record_reduce (GnnOpKind   op,
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
 * Since: 1.0
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
  return record_reduce (GNN_OP_SUM, reduce_impl (RED_SUM, self, dims, n_dims, keepdim, error),
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
 * Since: 1.0
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
  return record_reduce (GNN_OP_MEAN, reduce_impl (RED_MEAN, self, dims, n_dims, keepdim, error),
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
 * Since: 1.0
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
  return record_reduce (GNN_OP_MAX, reduce_impl (RED_MAX, self, dims, n_dims, keepdim, error),
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
 * Since: 1.0
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
  return record_reduce (GNN_OP_MIN, reduce_impl (RED_MIN, self, dims, n_dims, keepdim, error),
                        self, dims, n_dims, keepdim);
}

/* --- argmax --------------------------------------------------------------- */

/* Scans runs of output positions; @sd is the stride along the reduced dim.
 * When the reduced dim is the tighter one each position is scanned in turn,
 * otherwise the whole run advances one step of the dim at a time (rows
 * compared against a row of running maxima). The first maximum wins; the
 * first NaN beats everything, as in PyTorch. */
#define DEFINE_ARGMAX(TAG, CTYPE, ATYPE, LOAD)                                  \
static void                                                                    \
argmax_runs_##TAG (const CTYPE *x, const gint64 *x_strides, gint64 sd,         \
                   gint64 n, gint64 *out, const gint64 *o_strides,             \
                   const gint64 *shape, guint ndim)                            \
{                                                                              \
  const gint64 *strides[2] = { o_strides, x_strides };                         \
  g_autofree ATYPE *best = NULL;                                               \
  GnnNdIter it;                                                                \
                                                                               \
  gnn_nditer_init (&it, shape, ndim, 2, strides);                              \
  while (gnn_nditer_next (&it))                                                \
    {                                                                          \
      gint64 *o = out + it.offsets[0];                                         \
      const CTYPE *p = x + it.offsets[1];                                      \
      gint64 os = it.inner_strides[0], xs = it.inner_strides[1];               \
      gint64 m = it.inner_size;                                                \
                                                                               \
      if (m == 1 || ABS (sd) <= ABS (xs))                                      \
        for (gint64 i = 0; i < m; i++)                                         \
          {                                                                    \
            const CTYPE *q = p + i * xs;                                       \
            ATYPE b = (ATYPE) LOAD (q[0]);                                     \
            gint64 bi = 0;                                                     \
                                                                               \
            for (gint64 k = 1; k < n && !GNN_ISNAN (b); k++)                   \
              {                                                                \
                ATYPE v = (ATYPE) LOAD (q[k * sd]);                            \
                if (v > b || GNN_ISNAN (v))                                    \
                  {                                                            \
                    b = v;                                                     \
                    bi = k;                                                    \
                  }                                                            \
              }                                                                \
            o[i * os] = bi;                                                    \
          }                                                                    \
      else                                                                     \
        {                                                                      \
          if (best == NULL)                                                    \
            best = g_new (ATYPE, it.inner_size);                               \
          for (gint64 i = 0; i < m; i++)                                       \
            {                                                                  \
              best[i] = (ATYPE) LOAD (p[i * xs]);                              \
              o[i * os] = 0;                                                   \
            }                                                                  \
          for (gint64 k = 1; k < n; k++)                                       \
            {                                                                  \
              const CTYPE *q = p + k * sd;                                     \
              for (gint64 i = 0; i < m; i++)                                   \
                {                                                              \
                  ATYPE v = (ATYPE) LOAD (q[i * xs]);                          \
                  if ((v > best[i] || GNN_ISNAN (v)) && !GNN_ISNAN (best[i]))  \
                    {                                                          \
                      best[i] = v;                                             \
                      o[i * os] = k;                                           \
                    }                                                          \
                }                                                              \
            }                                                                  \
        }                                                                      \
    }                                                                          \
}

DEFINE_ARGMAX (f32, float, float, LOAD_PLAIN)
DEFINE_ARGMAX (f64, double, double, LOAD_PLAIN)
DEFINE_ARGMAX (f16, guint16, double, LOAD_HALF)
DEFINE_ARGMAX (bf16, guint16, double, LOAD_BF16)
DEFINE_ARGMAX (i64, gint64, gint64, LOAD_PLAIN)
DEFINE_ARGMAX (i32, gint32, gint64, LOAD_PLAIN)
DEFINE_ARGMAX (i16, gint16, gint64, LOAD_PLAIN)
DEFINE_ARGMAX (i8, gint8, gint64, LOAD_PLAIN)
DEFINE_ARGMAX (u8, guint8, gint64, LOAD_PLAIN)

/**
 * gnn_tensor_argmax:
 * @self: a #GnnTensor
 * @dim: the dim to reduce (may be negative)
 * @keepdim: whether @dim stays in the result with size 1
 * @error: return location for a #GError
 *
 * The position of the largest value along @dim, like
 * `torch.argmax (self, dim, keepdim)`. Ties give the first position; a NaN
 * counts as the largest value.
 *
 * Returns: (transfer full): an int64 tensor of positions, or %NULL if @dim is
 *   out of range or has size 0
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_argmax (GnnTensor *self,
                   gint       dim,
                   gboolean   keepdim,
                   GError   **error)
{
  GNN_CHECK_STORAGE ("argmax", self, error, NULL);
  GnnTensorPrivate *p;
  gboolean reduce[GNN_MAX_DIMS] = { FALSE };
  gint64 out_shape[GNN_MAX_DIMS], o_strides[GNN_MAX_DIMS], kshape[GNN_MAX_DIMS];
  guint out_ndim, d;
  gint64 n, sd;
  GnnTensor *out;
  gint64 *o;
  guint8 *x;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  n = p->ndim > 0 ? p->shape[d] : 1;
  sd = p->ndim > 0 ? p->strides[d] : 0;
  if (n == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "argmax(): Expected reduction dim %u to have non-zero size.", d);
      return NULL;
    }
  reduce[d] = TRUE;
  reduced_geometry (p, reduce, keepdim, out_shape, &out_ndim, o_strides);
  memcpy (kshape, p->shape, sizeof (gint64) * p->ndim);
  if (p->ndim > 0)
    kshape[d] = 1;

  out = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, out_shape, out_ndim, FALSE, error);

  if (out == NULL)

    return NULL;
  o = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  x = gnn_tensor_priv_data (p);
  switch (p->dtype)
    {
    case GNN_DTYPE_F32:
      argmax_runs_f32 ((const float *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    case GNN_DTYPE_F64:
      argmax_runs_f64 ((const double *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    case GNN_DTYPE_F16:
      argmax_runs_f16 ((const guint16 *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    case GNN_DTYPE_BF16:
      argmax_runs_bf16 ((const guint16 *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    case GNN_DTYPE_I64:
      argmax_runs_i64 ((const gint64 *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    case GNN_DTYPE_I32:
      argmax_runs_i32 ((const gint32 *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    case GNN_DTYPE_I16:
      argmax_runs_i16 ((const gint16 *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    case GNN_DTYPE_I8:
      argmax_runs_i8 ((const gint8 *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    case GNN_DTYPE_U8:
    case GNN_DTYPE_BOOL:
    default:
      argmax_runs_u8 ((const guint8 *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim);
      break;
    }
  return out;
}

/* --- softmax -------------------------------------------------------------- */

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
KERNEL_INLINE void                                                             \
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
DISPATCH_KERNEL (softmax_##TAG,                                                \
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
                   "\"%s\" not implemented for '%s'", name, torch_type_name (p->dtype));
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
 * Since: 1.0
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
 * Since: 1.0
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
