/* gnn-tensor-arith.c: add, sub, mul, div (with alpha, in place, by a
 * number of the tensor's own dtype) — kernels and public functions
 *
 * Operands of different dtypes, 0-d tensors and wrapped numbers follow
 * torch's type promotion (gnn-elementwise.c); bool add is logical or, bool
 * mul logical and, and `/` divides integers in float32, as in torch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-promote-private.h"

#define ADD_F(T, W, x, y) ((x) + (y))
#define SUB_F(T, W, x, y) ((x) - (y))
#define MUL_F(T, W, x, y) ((x) * (y))
#define DIV_F(T, W, x, y) ((x) / (y))
/* Integers wrap around like PyTorch's (two's complement). */
#define ADD_I(T, W, x, y) ((T) ((W) (x) + (W) (y)))
#define SUB_I(T, W, x, y) ((T) ((W) (x) - (W) (y)))
#define MUL_I(T, W, x, y) ((T) ((W) (x) * (W) (y)))
#define OR_B(T, W, x, y)  ((T) ((x) | (y)))
#define AND_B(T, W, x, y) ((T) ((x) & (y)))

/* An arithmetic op for every numeric dtype, out of place (op_*) and in
 * place (op_ip_*). */
#define DEFINE_ARITH(op, FEXPR, IEXPR)                                          \
  GNN_FOR_FLOATS (GNN_GEN_BINARY, op, FEXPR)                                    \
  GNN_FOR_INTEGRAL (GNN_GEN_BINARY, op, IEXPR)                                  \
  GNN_FOR_FLOATS (GNN_GEN_INPLACE, op##_ip, FEXPR)                              \
  GNN_FOR_INTEGRAL (GNN_GEN_INPLACE, op##_ip, IEXPR)

DEFINE_ARITH (add, ADD_F, ADD_I)
DEFINE_ARITH (sub, SUB_F, SUB_I)
DEFINE_ARITH (mul, MUL_F, MUL_I)
GNN_FOR_BOOL (GNN_GEN_BINARY, add, OR_B)
GNN_FOR_BOOL (GNN_GEN_INPLACE, add_ip, OR_B)
GNN_FOR_BOOL (GNN_GEN_BINARY, mul, AND_B)
GNN_FOR_BOOL (GNN_GEN_INPLACE, mul_ip, AND_B)
GNN_FOR_FLOATS (GNN_GEN_BINARY, div, DIV_F)
GNN_FOR_FLOATS (GNN_GEN_INPLACE, div_ip, DIV_F)

const GnnBinaryOp gnn_op_add = {
  "add", "add_cpu/sub_cpu", 0,
  { GNN_TABLE_NUMERIC (add), GNN_TABLE_BOOL (add) },
  { GNN_TABLE_NUMERIC (add_ip), GNN_TABLE_BOOL (add_ip) },
};
const GnnBinaryOp gnn_op_sub = {
  "sub", "add_cpu/sub_cpu", GNN_EW_SUB,
  { GNN_TABLE_NUMERIC (sub) }, { GNN_TABLE_NUMERIC (sub_ip) },
};
const GnnBinaryOp gnn_op_mul = {
  "mul", "mul_cpu", 0,
  { GNN_TABLE_NUMERIC (mul), GNN_TABLE_BOOL (mul) },
  { GNN_TABLE_NUMERIC (mul_ip), GNN_TABLE_BOOL (mul_ip) },
};
const GnnBinaryOp gnn_op_div = {
  "div", "div_true_cpu", GNN_EW_FLOAT_RESULT,
  { GNN_TABLE_FLOATS (div) }, { GNN_TABLE_FLOATS (div_ip) },
};

/* --- alpha ----------------------------------------------------------------- */

/* torch refuses a fractional alpha for integral results. */
static gboolean
check_alpha (GnnDType   result,
             double     alpha,
             GError   **error)
{
  if (gnn_dtype_is_floating (result) || alpha == trunc (alpha))
    return TRUE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "For integral input tensors, argument alpha must not be a floating "
                       "point number.");
  return FALSE;
}

/* alpha · b in the dtype a op b computes (so scaling never promotes). */
static GnnTensor *
scaled (GnnTensor  *a,
        GnnTensor  *b,
        double      alpha,
        GError    **error)
{
  GnnDType result = gnn_result_type_n ((GnnTensor *[]) { a, b }, 2);
  g_autoptr(GnnTensor) bc = NULL;
  g_autoptr(GnnTensor) factor = NULL;

  if (!check_alpha (result, alpha, error))
    return NULL;
  if (result == GNN_DTYPE_F16 || result == GNN_DTYPE_BF16)
    result = GNN_DTYPE_F32;
  bc = gnn_ew_cast (b, result, error);
  if (bc == NULL)
    return NULL;
  factor = gnn_tensor_new_scalar (alpha, result);
  if (gnn_tensor_priv (b)->wrapped_number)
    gnn_tensor_priv (factor)->wrapped_number = TRUE;
  return gnn_ew_binary (&gnn_op_mul, bc, factor, error);
}

static GnnTensor *
add_alpha_impl (const GnnBinaryOp *op,
                GnnTensor         *a,
                GnnTensor         *b,
                double             alpha,
                GError           **error)
{
  g_autoptr(GnnTensor) sb = NULL;

  if (alpha == 1.0)
    return gnn_ew_binary (op, a, b, error);
  if ((op->flags & GNN_EW_SUB) && gnn_tensor_priv (b)->dtype == GNN_DTYPE_BOOL)
    return gnn_ew_binary (op, a, b, error);   /* torch's bool error first */
  sb = scaled (a, b, alpha, error);
  return sb != NULL ? gnn_ew_binary (op, a, sb, error) : NULL;
}

static gboolean
add_alpha_inplace (const GnnBinaryOp *op,
                   GnnOpKind          kind,
                   GnnTensor         *self,
                   GnnTensor         *other,
                   double             alpha,
                   GError           **error)
{
  g_autoptr(GnnTensor) values = NULL;

  if (alpha == 1.0)
    return gnn_ew_binary_ (op, self, other, kind == GNN_OP_ADD_ALPHA ? GNN_OP_ADD : GNN_OP_SUB,
                           NULL, error);
  values = add_alpha_impl (op, self, other, alpha, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, kind, &other, 1, &(GnnOpParams) { .scalar = alpha },
                         error);
}

/* --- public: out of place ---------------------------------------------------- */

/**
 * gnn_tensor_add:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number) broadcastable with @a
 * @error: return location for a #GError
 *
 * Adds two tensors elementwise (like `torch.add (a, b)`), broadcasting their
 * shapes. The result has torch's dtype ([method@Gnn.Tensor.result_type]:
 * int32 + int64 is int64, float32 + a float64 0-d tensor stays float32);
 * integers wrap around on overflow; bool + bool is logical or.
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_add (GnnTensor *a,
                GnnTensor *b,
                GError   **error)
{
  GNN_CHECK_STORAGE ("add", a, error, NULL);
  GNN_CHECK_STORAGE ("add", b, error, NULL);
  return gnn_tensor_record (GNN_OP_ADD, gnn_ew_binary (&gnn_op_add, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_sub:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number) broadcastable with @a
 * @error: return location for a #GError
 *
 * Subtracts @b from @a elementwise (like `torch.sub (a, b)`), broadcasting,
 * with torch's result dtype. Bool operands are refused as in torch (use
 * [method@Gnn.Tensor.logical_xor] or [method@Gnn.Tensor.logical_not]).
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sub (GnnTensor *a,
                GnnTensor *b,
                GError   **error)
{
  GNN_CHECK_STORAGE ("sub", a, error, NULL);
  GNN_CHECK_STORAGE ("sub", b, error, NULL);
  return gnn_tensor_record (GNN_OP_SUB, gnn_ew_binary (&gnn_op_sub, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_mul:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number) broadcastable with @a
 * @error: return location for a #GError
 *
 * Multiplies two tensors elementwise (like `torch.mul (a, b)`), broadcasting,
 * with torch's result dtype; bool · bool is logical and.
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mul (GnnTensor *a,
                GnnTensor *b,
                GError   **error)
{
  GNN_CHECK_STORAGE ("mul", a, error, NULL);
  GNN_CHECK_STORAGE ("mul", b, error, NULL);
  return gnn_tensor_record (GNN_OP_MUL, gnn_ew_binary (&gnn_op_mul, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_div:
 * @a: the dividend
 * @b: the divisor (a tensor or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * True division elementwise, broadcasting (like `torch.div (a, b)` and
 * `a / b`): integer and bool operands are divided in float32, as in torch;
 * floating-point division follows IEEE 754 (x / 0 is ±inf or NaN). For
 * torch's `rounding_mode` see [method@Gnn.Tensor.div_mode].
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set if the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_div (GnnTensor *a,
                GnnTensor *b,
                GError   **error)
{
  GNN_CHECK_STORAGE ("div", a, error, NULL);
  GNN_CHECK_STORAGE ("div", b, error, NULL);
  return gnn_tensor_record (GNN_OP_DIV, gnn_ew_binary (&gnn_op_div, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_add_alpha:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number) broadcastable with @a
 * @alpha: the factor of @b
 * @error: return location for a #GError
 *
 * `a + alpha · b` elementwise (like `torch.add (a, b, alpha=alpha)`), with
 * torch's result dtype; @alpha must be a whole number when the result is
 * integral.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_add_alpha (GnnTensor *a,
                      GnnTensor *b,
                      double     alpha,
                      GError   **error)
{
  GNN_CHECK_STORAGE ("add", a, error, NULL);
  GNN_CHECK_STORAGE ("add", b, error, NULL);
  return gnn_tensor_record (GNN_OP_ADD_ALPHA, add_alpha_impl (&gnn_op_add, a, b, alpha, error),
                            (GnnTensor *[]) { a, b }, 2, &(GnnOpParams) { .scalar = alpha });
}

/**
 * gnn_tensor_sub_alpha:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number) broadcastable with @a
 * @alpha: the factor of @b
 * @error: return location for a #GError
 *
 * `a - alpha · b` elementwise (like `torch.sub (a, b, alpha=alpha)`); see
 * [method@Gnn.Tensor.add_alpha].
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sub_alpha (GnnTensor *a,
                      GnnTensor *b,
                      double     alpha,
                      GError   **error)
{
  GNN_CHECK_STORAGE ("sub", a, error, NULL);
  GNN_CHECK_STORAGE ("sub", b, error, NULL);
  return gnn_tensor_record (GNN_OP_SUB_ALPHA, add_alpha_impl (&gnn_op_sub, a, b, alpha, error),
                            (GnnTensor *[]) { a, b }, 2, &(GnnOpParams) { .scalar = alpha });
}

/* --- public: in place -------------------------------------------------------- */

/**
 * gnn_tensor_add_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @other: a #GnnTensor (or a wrapped number) that broadcasts to the shape of @self
 * @error: return location for a #GError
 *
 * Adds @other to @self in place (like `self.add_(other)`). The result dtype
 * must be storable in @self's (torch's rule: "result type Float can't be
 * cast to the desired output type Long"). @other may share storage with
 * @self, even overlap it: it is read as it was before the operation.
 *
 * Returns: %TRUE, or %FALSE with @error set if the dtypes do not allow it,
 *   @other does not broadcast to the shape of @self, or @self has
 *   overlapping elements (an expanded view)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_add_ (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("add_", self, error, FALSE);
  GNN_CHECK_STORAGE ("add_", other, error, FALSE);
  return gnn_ew_binary_ (&gnn_op_add, self, other, GNN_OP_ADD, NULL, error);
}

/**
 * gnn_tensor_sub_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @other: a #GnnTensor (or a wrapped number) that broadcasts to the shape of @self
 * @error: return location for a #GError
 *
 * Subtracts @other from @self in place (like `self.sub_(other)`); see
 * [method@Gnn.Tensor.add_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_sub_ (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("sub_", self, error, FALSE);
  GNN_CHECK_STORAGE ("sub_", other, error, FALSE);
  return gnn_ew_binary_ (&gnn_op_sub, self, other, GNN_OP_SUB, NULL, error);
}

/**
 * gnn_tensor_mul_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @other: a #GnnTensor (or a wrapped number) that broadcasts to the shape of @self
 * @error: return location for a #GError
 *
 * Multiplies @self by @other in place (like `self.mul_(other)`); see
 * [method@Gnn.Tensor.add_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_mul_ (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("mul_", self, error, FALSE);
  GNN_CHECK_STORAGE ("mul_", other, error, FALSE);
  return gnn_ew_binary_ (&gnn_op_mul, self, other, GNN_OP_MUL, NULL, error);
}

/**
 * gnn_tensor_div_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @other: a #GnnTensor (or a wrapped number) that broadcasts to the shape of @self
 * @error: return location for a #GError
 *
 * True division of @self by @other in place (like `self.div_(other)`): an
 * integer @self cannot hold the float quotient and is refused as in torch
 * ("result type Float can't be cast to the desired output type Long"); see
 * [method@Gnn.Tensor.add_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_div_ (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("div_", self, error, FALSE);
  GNN_CHECK_STORAGE ("div_", other, error, FALSE);
  return gnn_ew_binary_ (&gnn_op_div, self, other, GNN_OP_DIV, NULL, error);
}

/**
 * gnn_tensor_add_alpha_:
 * @self: the tensor to update
 * @other: a #GnnTensor (or a wrapped number) that broadcasts to the shape of @self
 * @alpha: the factor of @other
 * @error: return location for a #GError
 *
 * `self += alpha · other` (like `self.add_(other, alpha=alpha)`); see
 * [method@Gnn.Tensor.add_] and [method@Gnn.Tensor.add_alpha].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_add_alpha_ (GnnTensor *self,
                       GnnTensor *other,
                       double     alpha,
                       GError   **error)
{
  GNN_CHECK_STORAGE ("add_", self, error, FALSE);
  GNN_CHECK_STORAGE ("add_", other, error, FALSE);
  return add_alpha_inplace (&gnn_op_add, GNN_OP_ADD_ALPHA, self, other, alpha, error);
}

/**
 * gnn_tensor_sub_alpha_:
 * @self: the tensor to update
 * @other: a #GnnTensor (or a wrapped number) that broadcasts to the shape of @self
 * @alpha: the factor of @other
 * @error: return location for a #GError
 *
 * `self -= alpha · other` (like `self.sub_(other, alpha=alpha)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_sub_alpha_ (GnnTensor *self,
                       GnnTensor *other,
                       double     alpha,
                       GError   **error)
{
  GNN_CHECK_STORAGE ("sub_", self, error, FALSE);
  GNN_CHECK_STORAGE ("sub_", other, error, FALSE);
  return add_alpha_inplace (&gnn_op_sub, GNN_OP_SUB_ALPHA, self, other, alpha, error);
}

/* --- numbers of the tensor's own dtype ---------------------------------------- */

/* Converts a number to @dtype in @out (8 bytes, aligned). Integer tensors
 * take integral values only (these C conveniences keep the tensor's dtype;
 * a wrapped number promotes instead); out-of-range integers wrap. */
static gboolean
scalar_to_dtype (const char *op,
                 GnnDType    dtype,
                 double      value,
                 GnnTensor **out,
                 GError    **error)
{
  if (!gnn_dtype_is_floating (dtype) &&
      (!isfinite (value) || value != trunc (value) ||
       value < -9223372036854775808.0 || value >= 9223372036854775808.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: the value %g is not an integer, so it cannot be applied to a tensor "
                   "of dtype %s without changing its dtype; use a wrapped number "
                   "(gnn_tensor_new_wrapped_number) for torch's promotion",
                   op, value, gnn_dtype_get_name (dtype));
      return FALSE;
    }
  if (dtype == GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: dtype bool is not supported; convert with to_dtype first", op);
      return FALSE;
    }
  if (gnn_dtype_is_floating (dtype))
    *out = gnn_tensor_new_scalar (value, dtype);
  else
    {
      gint64 v = (gint64) value;

      *out = gnn_tensor_new_contiguous (dtype, NULL, 0, FALSE);
      gnn_strided_copy (dtype, gnn_tensor_priv_data (gnn_tensor_priv (*out)), NULL,
                        GNN_DTYPE_I64, (const guint8 *) &v, NULL, NULL, 0);
    }
  return TRUE;
}

static GnnTensor *
scalar_op (const GnnBinaryOp *op,
           const char        *name,
           GnnTensor         *self,
           double             value,
           GError           **error)
{
  g_autoptr(GnnTensor) number = NULL;

  if (!scalar_to_dtype (name, gnn_tensor_priv (self)->dtype, value, &number, error))
    return NULL;
  return gnn_ew_binary (op, self, number, error);
}

/**
 * gnn_tensor_add_scalar:
 * @self: a #GnnTensor
 * @value: the number to add
 * @error: return location for a #GError
 *
 * Adds @value to every element, keeping @self's dtype: for integer tensors
 * @value must be a whole number (it wraps around to the dtype's range like
 * PyTorch's). For torch's promotion of `self + value` (an int tensor plus
 * 0.5 is float32) add a wrapped number ([ctor@Gnn.Tensor.new_wrapped_number])
 * with [method@Gnn.Tensor.add] instead.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a bool tensor or a non-integral @value on an integer tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_add_scalar (GnnTensor *self,
                       double     value,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("add_scalar", self, error, NULL);
  return gnn_tensor_record (GNN_OP_ADD_SCALAR, scalar_op (&gnn_op_add, "add_scalar", self, value,
                                                          error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_mul_scalar:
 * @self: a #GnnTensor
 * @value: the factor
 * @error: return location for a #GError
 *
 * Multiplies every element by @value, keeping @self's dtype, with the rules
 * of [method@Gnn.Tensor.add_scalar].
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mul_scalar (GnnTensor *self,
                       double     value,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("mul_scalar", self, error, NULL);
  return gnn_tensor_record (GNN_OP_MUL_SCALAR, scalar_op (&gnn_op_mul, "mul_scalar", self, value,
                                                          error),
                            &self, 1, &(GnnOpParams) { .scalar = value });
}

gboolean
gnn_tensor_mul_scalar_into (GnnTensor  *out,
                            GnnTensor  *self,
                            double      value,
                            GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self), *outp = gnn_tensor_priv (out);
  gint64 n = p->numel;
  GnnBinaryKernel kernel = gnn_op_mul.kernels[p->dtype];
  g_autoptr(GnnTensor) number = NULL;

  if (outp->dtype != p->dtype || outp->numel != n || kernel == NULL ||
      !gnn_tensor_is_contiguous (out) || !gnn_tensor_is_contiguous (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "mul_scalar_into: needs contiguous tensors of one numeric dtype and size");
      return FALSE;
    }
  if (!scalar_to_dtype ("mul_scalar", p->dtype, value, &number, error))
    return FALSE;
  kernel (n, gnn_tensor_priv_data (outp), 1, gnn_tensor_priv_data (p), 1,
          gnn_tensor_priv_data (gnn_tensor_priv (number)), 0);
  return TRUE;
}
