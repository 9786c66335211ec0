/* gnn-tensor-compare.c: elementwise comparisons (bool results) and where
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-pointwise-private.h"

/* where: pure selection, so one kernel per element size serves every dtype. */
#define DEFINE_WHERE_KERNEL(name, T)                                            \
static inline void                                                              \
name##_typed (gint64 n, T *restrict o, gint64 os, const guint8 *restrict c, gint64 cs, \
              const T *restrict a, gint64 as, const T *restrict b, gint64 bs)   \
{                                                                               \
  if (os == 1 && cs == 1 && as == 1 && bs == 1)                                 \
    for (gint64 i = 0; i < n; i++)                                              \
      {                                                                         \
        T x = a[i], y = b[i];                                                   \
        o[i] = c[i] ? x : y;                                                    \
      }                                                                         \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      {                                                                         \
        T x = a[i * as], y = b[i * bs];                                         \
        o[i * os] = c[i * cs] ? x : y;                                          \
      }                                                                         \
}                                                                               \
static void                                                                     \
name (gint64 n, void *o, gint64 os, const guint8 *c, gint64 cs,                 \
      const void *a, gint64 as, const void *b, gint64 bs)                       \
{                                                                               \
  name##_typed (n, o, os, c, cs, a, as, b, bs);                                 \
}

DEFINE_WHERE_KERNEL (where_8, guint8)
DEFINE_WHERE_KERNEL (where_16, guint16)
DEFINE_WHERE_KERNEL (where_32, guint32)
DEFINE_WHERE_KERNEL (where_64, guint64)

typedef void (*WhereKernel) (gint64 n, void *o, gint64 os, const guint8 *c, gint64 cs,
                             const void *a, gint64 as, const void *b, gint64 bs);

/* --- public: comparisons ------------------------------------------------- */

/**
 * gnn_tensor_eq:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a == b` (like `torch.eq`), broadcasting. NaN
 * equals nothing, not even NaN.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_eq (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  GNN_CHECK_STORAGE ("eq", a, error, NULL);
  GNN_CHECK_STORAGE ("eq", b, error, NULL);
  return gnn_tensor_compare_op (GNN_COMPARE_EQ, a, b, error);
}

/**
 * gnn_tensor_ne:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a != b` (like `torch.ne`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ne (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  GNN_CHECK_STORAGE ("ne", a, error, NULL);
  GNN_CHECK_STORAGE ("ne", b, error, NULL);
  return gnn_tensor_compare_op (GNN_COMPARE_NE, a, b, error);
}

/**
 * gnn_tensor_lt:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a < b` (like `torch.lt`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lt (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  GNN_CHECK_STORAGE ("lt", a, error, NULL);
  GNN_CHECK_STORAGE ("lt", b, error, NULL);
  return gnn_tensor_compare_op (GNN_COMPARE_LT, a, b, error);
}

/**
 * gnn_tensor_le:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a <= b` (like `torch.le`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_le (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  GNN_CHECK_STORAGE ("le", a, error, NULL);
  GNN_CHECK_STORAGE ("le", b, error, NULL);
  return gnn_tensor_compare_op (GNN_COMPARE_LE, a, b, error);
}

/**
 * gnn_tensor_gt:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a > b` (like `torch.gt`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_gt (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  GNN_CHECK_STORAGE ("gt", a, error, NULL);
  GNN_CHECK_STORAGE ("gt", b, error, NULL);
  return gnn_tensor_compare_op (GNN_COMPARE_GT, a, b, error);
}

/**
 * gnn_tensor_ge:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a >= b` (like `torch.ge`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ge (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  GNN_CHECK_STORAGE ("ge", a, error, NULL);
  GNN_CHECK_STORAGE ("ge", b, error, NULL);
  return gnn_tensor_compare_op (GNN_COMPARE_GE, a, b, error);
}

/**
 * gnn_tensor_where:
 * @condition: a bool #GnnTensor
 * @a: the values taken where @condition is true
 * @b: the values taken elsewhere, of the same dtype as @a
 * @error: return location for a #GError
 *
 * Picks elementwise from @a where @condition is true and from @b elsewhere
 * (like `torch.where (condition, a, b)`), broadcasting all three shapes
 * together. Since it only moves elements, it works for every dtype,
 * float16 and bfloat16 included.
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape
 *   and the dtype of @a, or %NULL with @error set if @condition is not bool,
 *   the dtypes of @a and @b differ or the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_where (GnnTensor *condition,
                  GnnTensor *a,
                  GnnTensor *b,
                  GError   **error)
{
  GNN_CHECK_STORAGE ("where", condition, error, NULL);
  GNN_CHECK_STORAGE ("where", a, error, NULL);
  GNN_CHECK_STORAGE ("where", b, error, NULL);
  GnnTensorPrivate *cp, *ap, *bp, *outp;
  gint64 shape_ca[GNN_MAX_DIMS], shape[GNN_MAX_DIMS];
  gint64 c_strides[GNN_MAX_DIMS], a_strides[GNN_MAX_DIMS], b_strides[GNN_MAX_DIMS];
  const gint64 *strides[4];
  guint ndim_ca, ndim;
  gsize size;
  WhereKernel kernel;
  GnnTensor *out;
  GnnNdIter it;

  g_return_val_if_fail (GNN_IS_TENSOR (condition), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (a), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (b), NULL);
  cp = gnn_tensor_priv (condition);
  ap = gnn_tensor_priv (a);
  bp = gnn_tensor_priv (b);
  if (cp->dtype != GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "where expected condition to be a boolean tensor, but got a tensor "
                   "with dtype %s", gnn_dtype_get_name (cp->dtype));
      return NULL;
    }
  if (!gnn_check_same_dtype ("where", a, b, error))
    return NULL;
  if (!gnn_broadcast_shapes (cp->shape, cp->ndim, ap->shape, ap->ndim,
                             shape_ca, &ndim_ca, error) ||
      !gnn_broadcast_shapes (shape_ca, ndim_ca, bp->shape, bp->ndim, shape, &ndim, error))
    return NULL;

  size = gnn_dtype_get_size (ap->dtype);
  switch (size)
    {
    case 1: kernel = where_8; break;
    case 2: kernel = where_16; break;
    case 4: kernel = where_32; break;
    default: kernel = where_64; break;
    }

  out = gnn_tensor_new_contiguous_checked (ap->dtype, shape, ndim, FALSE, error);

  if (out == NULL)

    return NULL;
  outp = gnn_tensor_priv (out);
  gnn_broadcast_strides (condition, shape, ndim, c_strides);
  gnn_broadcast_strides (a, shape, ndim, a_strides);
  gnn_broadcast_strides (b, shape, ndim, b_strides);
  strides[0] = outp->strides;
  strides[1] = c_strides;
  strides[2] = a_strides;
  strides[3] = b_strides;
  gnn_nditer_init (&it, shape, ndim, 4, strides);
  while (gnn_nditer_next (&it))
    kernel (it.inner_size,
            gnn_tensor_priv_data (outp) + it.offsets[0] * (gint64) size, it.inner_strides[0],
            gnn_tensor_priv_data (cp) + it.offsets[1], it.inner_strides[1],
            gnn_tensor_priv_data (ap) + it.offsets[2] * (gint64) size, it.inner_strides[2],
            gnn_tensor_priv_data (bp) + it.offsets[3] * (gint64) size, it.inner_strides[3]);
  return gnn_tensor_record (GNN_OP_WHERE, out, (GnnTensor *[]) { a, b }, 2,
                            &(GnnOpParams) { .extra = { condition } });
}
