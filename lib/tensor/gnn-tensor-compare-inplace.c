/* gnn-tensor-compare-inplace.c: the in-place comparisons eq_ ... ge_:
 * 1 or 0 written into @self in its own dtype, as torch's (no gradient
 * flows through them: torch's EqBackward nodes give zeros)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"

/* The order of GNN_OP_COMPARE_'s node names in lib/autograd. */
enum { EQ, NE, LT, LE, GT, GE };

static gboolean
compare_ (const GnnBinaryOp *op,
          gint               which,
          GnnTensor         *self,
          GnnTensor         *other,
          GError           **error)
{
  g_autoptr(GnnTensor) values = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), FALSE);
  GNN_CHECK_STORAGE (op->name, self, error, FALSE);
  GNN_CHECK_STORAGE (op->name, other, error, FALSE);
  values = gnn_ew_binary (op, self, other, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, GNN_OP_COMPARE_, &other, 1,
                         &(GnnOpParams) { .start = which }, error);
}


/**
 * gnn_tensor_eq_:
 * @self: the tensor to update
 * @other: a #GnnTensor (or a wrapped number), broadcastable to @self's shape
 * @error: return location for a #GError
 *
 * Sets every element of @self to 1 where it is equal to @other
 * (`self == other`) and to 0 elsewhere, in @self's dtype (like
 * `self.eq_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_eq_ (GnnTensor *self,
                GnnTensor *other,
                GError   **error)
{
  return compare_ (&gnn_op_eq, EQ, self, other, error);
}

/**
 * gnn_tensor_ne_:
 * @self: the tensor to update
 * @other: a #GnnTensor (or a wrapped number), broadcastable to @self's shape
 * @error: return location for a #GError
 *
 * Sets every element of @self to 1 where it is not equal to @other
 * (`self != other`) and to 0 elsewhere, in @self's dtype (like
 * `self.ne_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_ne_ (GnnTensor *self,
                GnnTensor *other,
                GError   **error)
{
  return compare_ (&gnn_op_ne, NE, self, other, error);
}

/**
 * gnn_tensor_lt_:
 * @self: the tensor to update
 * @other: a #GnnTensor (or a wrapped number), broadcastable to @self's shape
 * @error: return location for a #GError
 *
 * Sets every element of @self to 1 where it is less than @other
 * (`self < other`) and to 0 elsewhere, in @self's dtype (like
 * `self.lt_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_lt_ (GnnTensor *self,
                GnnTensor *other,
                GError   **error)
{
  return compare_ (&gnn_op_lt, LT, self, other, error);
}

/**
 * gnn_tensor_le_:
 * @self: the tensor to update
 * @other: a #GnnTensor (or a wrapped number), broadcastable to @self's shape
 * @error: return location for a #GError
 *
 * Sets every element of @self to 1 where it is less than or equal to @other
 * (`self <= other`) and to 0 elsewhere, in @self's dtype (like
 * `self.le_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_le_ (GnnTensor *self,
                GnnTensor *other,
                GError   **error)
{
  return compare_ (&gnn_op_le, LE, self, other, error);
}

/**
 * gnn_tensor_gt_:
 * @self: the tensor to update
 * @other: a #GnnTensor (or a wrapped number), broadcastable to @self's shape
 * @error: return location for a #GError
 *
 * Sets every element of @self to 1 where it is greater than @other
 * (`self > other`) and to 0 elsewhere, in @self's dtype (like
 * `self.gt_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_gt_ (GnnTensor *self,
                GnnTensor *other,
                GError   **error)
{
  return compare_ (&gnn_op_gt, GT, self, other, error);
}

/**
 * gnn_tensor_ge_:
 * @self: the tensor to update
 * @other: a #GnnTensor (or a wrapped number), broadcastable to @self's shape
 * @error: return location for a #GError
 *
 * Sets every element of @self to 1 where it is greater than or equal to @other
 * (`self >= other`) and to 0 elsewhere, in @self's dtype (like
 * `self.ge_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_ge_ (GnnTensor *self,
                GnnTensor *other,
                GError   **error)
{
  return compare_ (&gnn_op_ge, GE, self, other, error);
}
