/* gnn-tensor-compare.c: elementwise comparisons (bool results, computed
 * in the promoted dtype) and where
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-promote-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-dtype-check-private.h"

#define EQ_E(T, W, x, y) ((guint8) ((x) == (y)))
#define NE_E(T, W, x, y) ((guint8) ((x) != (y)))
#define LT_E(T, W, x, y) ((guint8) ((x) < (y)))
#define LE_E(T, W, x, y) ((guint8) ((x) <= (y)))
#define GT_E(T, W, x, y) ((guint8) ((x) > (y)))
#define GE_E(T, W, x, y) ((guint8) ((x) >= (y)))

#define DEFINE_COMPARE(op, EXPR)                                                \
  GNN_FOR_NUMERIC (GNN_GEN_TO_BOOL, op, EXPR)                                   \
  GNN_FOR_BOOL (GNN_GEN_TO_BOOL, op, EXPR)

DEFINE_COMPARE (eq, EQ_E)
DEFINE_COMPARE (ne, NE_E)
DEFINE_COMPARE (lt, LT_E)
DEFINE_COMPARE (le, LE_E)
DEFINE_COMPARE (gt, GT_E)
DEFINE_COMPARE (ge, GE_E)

#define COMPARE_OP(op) \
  { #op, #op "_cpu", GNN_EW_BOOL_OUT, { GNN_TABLE_NUMERIC (op), GNN_TABLE_BOOL (op) }, { NULL } }

const GnnBinaryOp gnn_op_eq = COMPARE_OP (eq);
const GnnBinaryOp gnn_op_ne = COMPARE_OP (ne);
const GnnBinaryOp gnn_op_lt = COMPARE_OP (lt);
const GnnBinaryOp gnn_op_le = COMPARE_OP (le);
const GnnBinaryOp gnn_op_gt = COMPARE_OP (gt);
const GnnBinaryOp gnn_op_ge = COMPARE_OP (ge);

static GnnTensor *
compare (const GnnBinaryOp *op,
         GnnTensor         *a,
         GnnTensor         *b,
         GError           **error)
{
  GNN_CHECK_STORAGE (op->name, a, error, NULL);
  GNN_CHECK_STORAGE (op->name, b, error, NULL);
  return gnn_ew_binary (op, a, b, error);
}

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
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a == b` (like `torch.eq`), broadcasting, in the
 * dtype torch promotes the operands to. NaN equals nothing, not even NaN.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_eq (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  return compare (&gnn_op_eq, a, b, error);
}

/**
 * gnn_tensor_ne:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a != b` (like `torch.ne`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ne (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  return compare (&gnn_op_ne, a, b, error);
}

/**
 * gnn_tensor_lt:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a < b` (like `torch.lt`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lt (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  return compare (&gnn_op_lt, a, b, error);
}

/**
 * gnn_tensor_le:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a <= b` (like `torch.le`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_le (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  return compare (&gnn_op_le, a, b, error);
}

/**
 * gnn_tensor_gt:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a > b` (like `torch.gt`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_gt (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  return compare (&gnn_op_gt, a, b, error);
}

/**
 * gnn_tensor_ge:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * Compares elementwise for `a >= b` (like `torch.ge`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous bool tensor of the broadcast
 *   shape, or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ge (GnnTensor *a,
               GnnTensor *b,
               GError   **error)
{
  return compare (&gnn_op_ge, a, b, error);
}

/* where (cond, a, b) without recording: @a and @b are promoted together
 * (torch.result_type; wrapped numbers welcome) and broadcast with @cond. */
GnnTensor *
gnn_where_values (GnnTensor *condition,
                  GnnTensor *a,
                  GnnTensor *b,
                  GError   **error)
{
  GnnTensorPrivate *cp, *ap, *bp, *outp;
  gint64 shape_ca[GNN_MAX_DIMS], shape[GNN_MAX_DIMS];
  gint64 c_strides[GNN_MAX_DIMS], a_strides[GNN_MAX_DIMS], b_strides[GNN_MAX_DIMS];
  const gint64 *strides[4];
  guint ndim_ca, ndim;
  gsize size;
  GnnDType dtype;
  WhereKernel kernel;
  g_autoptr(GnnTensor) ac = NULL;
  g_autoptr(GnnTensor) bc = NULL;
  GnnTensor *out;
  GnnNdIter it;

  g_return_val_if_fail (GNN_IS_TENSOR (condition), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (a), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (b), NULL);
  cp = gnn_tensor_priv (condition);
  if (cp->dtype != GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "where expected condition to be a boolean tensor, but got a tensor "
                   "with dtype %s", gnn_torch_scalar_name (cp->dtype));
      return NULL;
    }
  dtype = gnn_result_type_n ((GnnTensor *[]) { a, b }, 2);
  if ((ac = gnn_ew_cast (a, dtype, error)) == NULL || (bc = gnn_ew_cast (b, dtype, error)) == NULL)
    return NULL;
  ap = gnn_tensor_priv (ac);
  bp = gnn_tensor_priv (bc);
  if (!gnn_broadcast_shapes (cp->shape, cp->ndim, ap->shape, ap->ndim,
                             shape_ca, &ndim_ca, error) ||
      !gnn_broadcast_shapes (shape_ca, ndim_ca, bp->shape, bp->ndim, shape, &ndim, error))
    return NULL;

  size = gnn_dtype_get_size (dtype);
  switch (size)
    {
    case 1: kernel = where_8; break;
    case 2: kernel = where_16; break;
    case 4: kernel = where_32; break;
    default: kernel = where_64; break;
    }

  out = gnn_tensor_new_contiguous_checked (dtype, shape, ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  outp = gnn_tensor_priv (out);
  gnn_broadcast_strides (condition, shape, ndim, c_strides);
  gnn_broadcast_strides (ac, shape, ndim, a_strides);
  gnn_broadcast_strides (bc, shape, ndim, b_strides);
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
  return out;
}

/**
 * gnn_tensor_where:
 * @condition: a bool #GnnTensor
 * @a: the values taken where @condition is true (a tensor or a wrapped number)
 * @b: the values taken elsewhere (a tensor or a wrapped number)
 * @error: return location for a #GError
 *
 * Picks elementwise from @a where @condition is true and from @b elsewhere
 * (like `torch.where (condition, a, b)`), broadcasting all three shapes
 * together; @a and @b are promoted to torch's result type (so
 * `where (c, x, 0.0)` keeps x's float dtype). Since it only moves
 * elements, it works for every dtype, float16 and bfloat16 included.
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set if @condition is not bool or the shapes do
 *   not broadcast
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
  return gnn_tensor_record (GNN_OP_WHERE, gnn_where_values (condition, a, b, error),
                            (GnnTensor *[]) { a, b }, 2,
                            &(GnnOpParams) { .extra = { condition } });
}

/* --- isclose ---------------------------------------------------------------- */

/**
 * gnn_tensor_isclose:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number) broadcastable with @a
 * @rtol: relative tolerance
 * @atol: absolute tolerance
 * @equal_nan: whether two NaNs count as close
 * @error: return location for a #GError
 *
 * Elementwise `|a - b| <= atol + rtol · |b|` (like `torch.isclose`), in the
 * promoted dtype, broadcasting; equal values (infinities included) are
 * always close, NaN only to NaN with @equal_nan.
 *
 * Returns: (transfer full): a bool tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isclose (GnnTensor *a,
                    GnnTensor *b,
                    double     rtol,
                    double     atol,
                    gboolean   equal_nan,
                    GError   **error)
{
  g_autoptr(GnnTensor) eq = NULL;
  g_autoptr(GnnTensor) diff = NULL;
  g_autoptr(GnnTensor) dist = NULL;
  g_autoptr(GnnTensor) scale = NULL;
  g_autoptr(GnnTensor) bound = NULL;
  g_autoptr(GnnTensor) within = NULL;
  g_autoptr(GnnTensor) close = NULL;
  g_autoptr(GnnTensor) r = gnn_tensor_new_wrapped_number (rtol);
  g_autoptr(GnnTensor) t = gnn_tensor_new_wrapped_number (atol);
  GnnDType dtype;

  g_return_val_if_fail (GNN_IS_TENSOR (a), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (b), NULL);
  GNN_CHECK_STORAGE ("isclose", a, error, NULL);
  GNN_CHECK_STORAGE ("isclose", b, error, NULL);
  dtype = gnn_result_type_n ((GnnTensor *[]) { a, b }, 2);
  if (gnn_tensor_priv (a)->dtype != gnn_tensor_priv (b)->dtype &&
      !gnn_tensor_priv (b)->wrapped_number)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s did not match %s", gnn_torch_scalar_name (gnn_tensor_priv (a)->dtype),
                   gnn_torch_scalar_name (gnn_tensor_priv (b)->dtype));
      return NULL;
    }
  if ((eq = gnn_ew_binary (&gnn_op_eq, a, b, error)) == NULL)
    return NULL;
  if (!gnn_dtype_is_floating (dtype) && rtol == 0 && atol == 0)
    return g_steal_pointer (&eq);
  {
    /* |a - b| and rtol · |b| in a floating dtype (integers as float32) */
    GnnDType work = gnn_dtype_is_floating (dtype) ? dtype : GNN_DTYPE_F32;
    g_autoptr(GnnTensor) af = gnn_ew_cast (a, work, error);
    g_autoptr(GnnTensor) bf = af != NULL ? gnn_ew_cast (b, work, error) : NULL;
    g_autoptr(GnnTensor) babs = NULL;

    if (bf == NULL ||
        (diff = gnn_ew_binary (&gnn_op_sub, af, bf, error)) == NULL ||
        (dist = gnn_tensor_unary_op (GNN_UNARY_ABS, diff, error)) == NULL ||
        (babs = gnn_tensor_unary_op (GNN_UNARY_ABS, bf, error)) == NULL ||
        (scale = gnn_ew_binary (&gnn_op_mul, babs, r, error)) == NULL ||
        (bound = gnn_ew_binary (&gnn_op_add, scale, t, error)) == NULL ||
        (within = gnn_ew_binary (&gnn_op_le, dist, bound, error)) == NULL ||
        (close = gnn_tensor_logical_or (eq, within, error)) == NULL)
      return NULL;
    if (equal_nan)
      {
        g_autoptr(GnnTensor) na = gnn_tensor_unary_op (GNN_UNARY_ISNAN, af, error);
        g_autoptr(GnnTensor) nb = na != NULL ? gnn_tensor_unary_op (GNN_UNARY_ISNAN, bf, error)
                                             : NULL;
        g_autoptr(GnnTensor) both = nb != NULL ? gnn_tensor_logical_and (na, nb, error) : NULL;

        if (both == NULL)
          return NULL;
        return gnn_tensor_logical_or (close, both, error);
      }
  }
  return g_steal_pointer (&close);
}

/**
 * gnn_tensor_allclose_full:
 * @a: a #GnnTensor
 * @b: a #GnnTensor broadcastable with @a
 * @rtol: relative tolerance
 * @atol: absolute tolerance
 * @equal_nan: whether two NaNs count as close
 * @error: return location for a #GError
 *
 * Whether every element pair is close (like `torch.allclose (a, b, rtol,
 * atol, equal_nan)`): [method@Gnn.Tensor.isclose] everywhere.
 *
 * Returns: %TRUE if all are close; %FALSE, with @error set if the shapes do
 *   not broadcast
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_allclose_full (GnnTensor *a,
                          GnnTensor *b,
                          double     rtol,
                          double     atol,
                          gboolean   equal_nan,
                          GError   **error)
{
  g_autoptr(GnnTensor) close = gnn_tensor_isclose (a, b, rtol, atol, equal_nan, error);
  g_autoptr(GnnTensor) all = close != NULL ? gnn_tensor_all (close, NULL, 0, FALSE, error) : NULL;

  return all != NULL && *(const guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (all)) != 0;
}
