/* gnn-tensor-scalar-inplace.c: add_scalar_, sub_scalar_, mul_scalar_,
 * div_scalar_ — torch's `x.add_(2)`, `x.div_(0.5)` for C
 *
 * Each is the tensor op with the number wrapped as Python wraps it (an
 * integral value on an integer or bool tensor as an int, anything else as
 * a float), so the dtype rules, the version counter, the leaf check and
 * the autograd node are those of add_/sub_/mul_/div_ with a Python number:
 * `int_tensor.add_(0.5)` and `int_tensor.div_(2)` fail with torch's
 * "result type Float can't be cast to the desired output type Long".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-tensor-private.h"

typedef gboolean (*InplaceOp) (GnnTensor *self, GnnTensor *other, GError **error);

static gboolean
scalar_inplace (InplaceOp    op,
                GnnTensor   *self,
                double       value,
                GError     **error)
{
  g_autoptr(GnnTensor) number = NULL;
  gboolean integral = value == trunc (value) &&
                      value >= -9223372036854775808.0 && value < 9223372036854775808.0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (self)) && integral)
    number = gnn_tensor_new_wrapped_int ((gint64) value);
  else
    number = gnn_tensor_new_wrapped_number (value);
  return op (self, number, error);
}

/**
 * gnn_tensor_add_scalar_:
 * @self: the tensor to update, possibly a view
 * @value: the number to add
 * @error: return location for a #GError
 *
 * Adds @value to every element in place, PyTorch's `self.add_(value)`: on
 * an integer tensor a whole @value counts as a Python int, any other as a
 * float, so `int_tensor.add_(0.5)` is refused as in torch. The write moves
 * the version counter and is refused on a leaf that requires grad outside
 * no-grad mode, as [method@Gnn.Tensor.add_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_add_scalar_ (GnnTensor  *self,
                        double      value,
                        GError    **error)
{
  return scalar_inplace (gnn_tensor_add_, self, value, error);
}

/**
 * gnn_tensor_sub_scalar_:
 * @self: the tensor to update, possibly a view
 * @value: the number to subtract
 * @error: return location for a #GError
 *
 * Subtracts @value from every element in place, PyTorch's
 * `self.sub_(value)`; see [method@Gnn.Tensor.add_scalar_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_sub_scalar_ (GnnTensor  *self,
                        double      value,
                        GError    **error)
{
  return scalar_inplace (gnn_tensor_sub_, self, value, error);
}

/**
 * gnn_tensor_mul_scalar_:
 * @self: the tensor to update, possibly a view
 * @value: the factor
 * @error: return location for a #GError
 *
 * Multiplies every element by @value in place, PyTorch's
 * `self.mul_(value)`; see [method@Gnn.Tensor.add_scalar_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_mul_scalar_ (GnnTensor  *self,
                        double      value,
                        GError    **error)
{
  return scalar_inplace (gnn_tensor_mul_, self, value, error);
}

/**
 * gnn_tensor_div_scalar_:
 * @self: the tensor to update, possibly a view
 * @value: the divisor
 * @error: return location for a #GError
 *
 * True division of every element by @value in place, PyTorch's
 * `self.div_(value)`: an integer tensor cannot hold the quotient and is
 * refused as in torch; see [method@Gnn.Tensor.add_scalar_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_div_scalar_ (GnnTensor  *self,
                        double      value,
                        GError    **error)
{
  return scalar_inplace (gnn_tensor_div_, self, value, error);
}
