/* gnn-tensor-binary-math.c: pow (by a number or a tensor), atan2, hypot,
 * and the elementwise maximum / minimum (NaN-propagating, as torch's) and
 * fmax / fmin (NaN-ignoring)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-promote-private.h"
#include "tensor/gnn-nditer-private.h"

static inline guint64
ipow_wrap (guint64 base,
           guint64 e)
{
  guint64 acc = 1;

  for (; e != 0; e >>= 1)
    {
      if (e & 1)
        acc *= base;
      base *= base;
    }
  return acc;
}

/* negative exponents are refused before the kernel runs */
#define POW_32(T, W, x, y)  powf ((x), (y))
#define POW_64(T, W, x, y)  pow ((x), (y))
#define POW_I(T, W, x, y)   ((T) ipow_wrap ((guint64) (gint64) (x), (guint64) (gint64) (y)))
#define POW_B(T, W, x, y)   ((T) ((x) | !(y)))
#define ATAN2_32(T, W, x, y) atan2f ((x), (y))
#define ATAN2_64(T, W, x, y) atan2 ((x), (y))
#define MAX_F(T, W, x, y)   ((x) != (x) || (y) != (y) ? (T) NAN : (x) > (y) ? (x) : (y))
#define MIN_F(T, W, x, y)   ((x) != (x) || (y) != (y) ? (T) NAN : (x) < (y) ? (x) : (y))
#define MAX_I(T, W, x, y)   ((x) > (y) ? (x) : (y))
#define MIN_I(T, W, x, y)   ((x) < (y) ? (x) : (y))

GNN_GEN_F32_F64 (GNN_GEN_BINARY, pow, POW_32, POW_64)
GNN_FOR_INTEGRAL (GNN_GEN_BINARY, pow, POW_I)
GNN_FOR_BOOL (GNN_GEN_BINARY, pow, POW_B)
GNN_GEN_F32_F64 (GNN_GEN_BINARY, atan2, ATAN2_32, ATAN2_64)
GNN_FOR_FLOATS (GNN_GEN_BINARY, maximum, MAX_F)
GNN_FOR_INTEGRAL (GNN_GEN_BINARY, maximum, MAX_I)
GNN_FOR_BOOL (GNN_GEN_BINARY, maximum, MAX_I)
GNN_FOR_FLOATS (GNN_GEN_BINARY, minimum, MIN_F)
GNN_FOR_INTEGRAL (GNN_GEN_BINARY, minimum, MIN_I)
GNN_FOR_BOOL (GNN_GEN_BINARY, minimum, MIN_I)

const GnnBinaryOp gnn_op_pow = {
  "pow", "pow", 0, { GNN_TABLE_NUMERIC (pow), GNN_TABLE_BOOL (pow) }, { NULL }
};
const GnnBinaryOp gnn_op_atan2 = {
  "atan2", "atan2_cpu", GNN_EW_FLOAT_RESULT, { GNN_TABLE_FLOATS (atan2) }, { NULL }
};
const GnnBinaryOp gnn_op_maximum = {
  "maximum", "maximum_cpu", 0, { GNN_TABLE_NUMERIC (maximum), GNN_TABLE_BOOL (maximum) }, { NULL }
};
const GnnBinaryOp gnn_op_minimum = {
  "minimum", "minimum_cpu", 0, { GNN_TABLE_NUMERIC (minimum), GNN_TABLE_BOOL (minimum) }, { NULL }
};

static gboolean
negative_power_error (GError **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Integers to negative integer powers are not allowed.");
  return FALSE;
}

/* An integral power takes no negative exponent (torch's check). */
static gboolean
check_integral_power (GnnTensor  *base,
                      GnnTensor  *exponent,
                      GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (exponent);
  const gint64 *strides[1] = { p->strides };
  gsize size = gnn_dtype_get_size (p->dtype);
  GnnNdIter it;

  if (gnn_dtype_is_floating (gnn_result_type_n ((GnnTensor *[]) { base, exponent }, 2)) ||
      p->dtype == GNN_DTYPE_BOOL || p->dtype == GNN_DTYPE_U8)
    return TRUE;
  gnn_nditer_init (&it, p->shape, p->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    for (gint64 i = 0; i < it.inner_size; i++)
      if (gnn_dtype_read (p->dtype, gnn_tensor_priv_data (p) +
                          (it.offsets[0] + i * it.inner_strides[0]) * (gint64) size) < 0)
        return negative_power_error (error);
  return TRUE;
}

/* pow by a number: float tensors take any exponent (2 and 0.5 through the
 * exact square and sqrt, as torch); integer tensors a whole non-negative
 * one, else they are computed in float32 as torch promotes them. */
static GnnTensor *
pow_number (GnnTensor  *self,
            double      exponent,
            GError    **error)
{
  GnnDType dtype = gnn_tensor_priv (self)->dtype;

  if (gnn_dtype_is_floating (dtype))
    {
      GnnUnaryId id = exponent == 2.0 ? GNN_UNARY_SQUARE
                      : exponent == 0.5 ? GNN_UNARY_SQRT : GNN_UNARY_POW;

      return gnn_ew_unary (gnn_unary_op (id), self, exponent, error);
    }
  if (dtype == GNN_DTYPE_BOOL || !isfinite (exponent) || exponent != trunc (exponent))
    {
      g_autoptr(GnnTensor) promoted = NULL;

      if (dtype == GNN_DTYPE_BOOL && isfinite (exponent) && exponent == trunc (exponent))
        promoted = gnn_ew_cast (self, GNN_DTYPE_I64, error);
      else
        promoted = gnn_ew_cast (self, GNN_DTYPE_F32, error);
      return promoted != NULL ? pow_number (promoted, exponent, error) : NULL;
    }
  if (exponent < 0)
    {
      negative_power_error (error);
      return NULL;
    }
  if (exponent >= 18446744073709551616.0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "pow: the exponent %g is too large for an integer tensor", exponent);
      return NULL;
    }
  return gnn_ew_unary (gnn_unary_op (GNN_UNARY_POW), self, exponent, error);
}

/**
 * gnn_tensor_pow:
 * @self: a #GnnTensor
 * @exponent: the power
 * @error: return location for a #GError
 *
 * Raises every element to @exponent (like `torch.pow (self, exponent)` with
 * a number). Floating-point tensors take any exponent (x^0 is 1, even for
 * NaN). Integer tensors stay integers for a whole, non-negative exponent
 * (wrapping around on overflow, like PyTorch's), are refused for a negative
 * whole one ("Integers to negative integer powers are not allowed.") and
 * give float32 for a fractional one, as torch promotes them.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pow (GnnTensor *self,
                double     exponent,
                GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("pow", self, error, NULL);
  return gnn_tensor_record (GNN_OP_POW, pow_number (self, exponent, error), &self, 1,
                            &(GnnOpParams) { .scalar = exponent });
}

/**
 * gnn_tensor_pow_:
 * @self: the tensor to update
 * @exponent: the power
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.pow] (like `self.pow_(exponent)`); an
 * integer @self takes whole exponents only.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_pow_ (GnnTensor *self,
                 double     exponent,
                 GError   **error)
{
  g_autoptr(GnnTensor) values = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("pow_", self, error, FALSE);
  values = pow_number (self, exponent, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, GNN_OP_POW, NULL, 0,
                         &(GnnOpParams) { .scalar = exponent }, error);
}

/**
 * gnn_tensor_pow_tensor:
 * @self: the base (a tensor or a wrapped number)
 * @exponent: the exponent (a tensor or a wrapped number), broadcastable with @self
 * @error: return location for a #GError
 *
 * `self ** exponent` elementwise with broadcasting (like `torch.pow (self,
 * exponent)` with tensors, and `2 ** t` with a wrapped base), in torch's
 * result dtype; integer powers refuse negative exponents as torch does.
 * Differentiable in both operands (the exponent's gradient is
 * `self^exponent · log self`, 0 where the base is 0 and the exponent
 * non-negative, as in torch).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pow_tensor (GnnTensor *self,
                       GnnTensor *exponent,
                       GError   **error)
{
  GNN_CHECK_STORAGE ("pow", self, error, NULL);
  GNN_CHECK_STORAGE ("pow", exponent, error, NULL);
  if (!check_integral_power (self, exponent, error))
    return NULL;
  return gnn_tensor_record (GNN_OP_POW_TENSOR, gnn_ew_binary (&gnn_op_pow, self, exponent, error),
                            (GnnTensor *[]) { self, exponent }, 2, NULL);
}

/**
 * gnn_tensor_pow_tensor_:
 * @self: the base, updated in place
 * @exponent: broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.pow_tensor] (like `self.pow_(exponent)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_pow_tensor_ (GnnTensor *self,
                        GnnTensor *exponent,
                        GError   **error)
{
  GNN_CHECK_STORAGE ("pow_", self, error, FALSE);
  GNN_CHECK_STORAGE ("pow_", exponent, error, FALSE);
  if (!check_integral_power (self, exponent, error))
    return FALSE;
  return gnn_ew_binary_ (&gnn_op_pow, self, exponent, GNN_OP_POW_TENSOR, NULL, error);
}

/**
 * gnn_tensor_atan2:
 * @self: the y coordinates
 * @other: the x coordinates (a tensor or a wrapped number), broadcastable with @self
 * @error: return location for a #GError
 *
 * The angle of the point (other, self) elementwise, in [-π, π] (like
 * `torch.atan2`); integer inputs give float32.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atan2 (GnnTensor *self,
                  GnnTensor *other,
                  GError   **error)
{
  GNN_CHECK_STORAGE ("atan2", self, error, NULL);
  GNN_CHECK_STORAGE ("atan2", other, error, NULL);
  return gnn_tensor_record (GNN_OP_ATAN2, gnn_ew_binary (&gnn_op_atan2, self, other, error),
                            (GnnTensor *[]) { self, other }, 2, NULL);
}

/**
 * gnn_tensor_atan2_:
 * @self: the y coordinates, updated in place
 * @other: the x coordinates, broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.atan2] (like `self.atan2_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_atan2_ (GnnTensor *self,
                   GnnTensor *other,
                   GError   **error)
{
  GNN_CHECK_STORAGE ("atan2_", self, error, FALSE);
  GNN_CHECK_STORAGE ("atan2_", other, error, FALSE);
  return gnn_ew_binary_ (&gnn_op_atan2, self, other, GNN_OP_ATAN2, NULL, error);
}

/**
 * gnn_tensor_maximum:
 * @a: a #GnnTensor
 * @b: a #GnnTensor broadcastable with @a
 * @error: return location for a #GError
 *
 * The elementwise maximum (like `torch.maximum` and `a.max (b)`), in torch's
 * result dtype; a NaN in either operand gives NaN. Where both are equal the
 * gradient is shared half and half, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_maximum (GnnTensor *a,
                    GnnTensor *b,
                    GError   **error)
{
  GNN_CHECK_STORAGE ("maximum", a, error, NULL);
  GNN_CHECK_STORAGE ("maximum", b, error, NULL);
  return gnn_tensor_record (GNN_OP_MAXIMUM, gnn_ew_binary (&gnn_op_maximum, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_minimum:
 * @a: a #GnnTensor
 * @b: a #GnnTensor broadcastable with @a
 * @error: return location for a #GError
 *
 * The elementwise minimum (like `torch.minimum` and `a.min (b)`); see
 * [method@Gnn.Tensor.maximum].
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_minimum (GnnTensor *a,
                    GnnTensor *b,
                    GError   **error)
{
  GNN_CHECK_STORAGE ("minimum", a, error, NULL);
  GNN_CHECK_STORAGE ("minimum", b, error, NULL);
  return gnn_tensor_record (GNN_OP_MINIMUM, gnn_ew_binary (&gnn_op_minimum, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/* --- hypot, fmax, fmin ---------------------------------------------------------------- */

/* fmax/fmin ignore a NaN operand (NaN only when both are), as C's fmax */
#define FMAX_32(T, W, x, y) fmaxf ((x), (y))
#define FMAX_64(T, W, x, y) fmax ((x), (y))
#define FMIN_32(T, W, x, y) fminf ((x), (y))
#define FMIN_64(T, W, x, y) fmin ((x), (y))
#define HYPOT_32(T, W, x, y) hypotf ((x), (y))
#define HYPOT_64(T, W, x, y) hypot ((x), (y))

GNN_GEN_F32_F64 (GNN_GEN_BINARY, fmax, FMAX_32, FMAX_64)
GNN_FOR_INTEGRAL (GNN_GEN_BINARY, fmax, MAX_I)
GNN_FOR_BOOL (GNN_GEN_BINARY, fmax, MAX_I)
GNN_GEN_F32_F64 (GNN_GEN_BINARY, fmin, FMIN_32, FMIN_64)
GNN_FOR_INTEGRAL (GNN_GEN_BINARY, fmin, MIN_I)
GNN_FOR_BOOL (GNN_GEN_BINARY, fmin, MIN_I)
GNN_GEN_F32_F64 (GNN_GEN_BINARY, hypot, HYPOT_32, HYPOT_64)

static const GnnBinaryOp op_fmax = {
  "fmax", "fmax_cpu", 0, { GNN_TABLE_NUMERIC (fmax), GNN_TABLE_BOOL (fmax) }, { NULL }
};
static const GnnBinaryOp op_fmin = {
  "fmin", "fmin_cpu", 0, { GNN_TABLE_NUMERIC (fmin), GNN_TABLE_BOOL (fmin) }, { NULL }
};
static const GnnBinaryOp op_hypot = {
  "hypot", "hypot_cpu", 0, { GNN_TABLE_FLOATS (hypot) }, { NULL }
};

static GnnTensor *
binary_recorded (const GnnBinaryOp *op,
                 GnnOpKind          kind,
                 GnnTensor         *a,
                 GnnTensor         *b,
                 GError           **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (a) && GNN_IS_TENSOR (b), NULL);
  GNN_CHECK_STORAGE (op->name, a, error, NULL);
  GNN_CHECK_STORAGE (op->name, b, error, NULL);
  return gnn_tensor_record (kind, gnn_ew_binary (op, a, b, error), (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_hypot:
 * @self: a floating-point #GnnTensor
 * @other: a floating-point #GnnTensor (or a wrapped number), broadcastable
 *   with @self
 * @error: return location for a #GError
 *
 * `sqrt (self² + other²)` elementwise without overflow (like `torch.hypot`),
 * in torch's result dtype; integer operands are refused as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hypot (GnnTensor *self,
                  GnnTensor *other,
                  GError   **error)
{
  return binary_recorded (&op_hypot, GNN_OP_HYPOT, self, other, error);
}

/**
 * gnn_tensor_hypot_:
 * @self: updated in place
 * @other: broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.hypot] (like `self.hypot_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_hypot_ (GnnTensor *self,
                   GnnTensor *other,
                   GError   **error)
{
  GNN_CHECK_STORAGE ("hypot_", self, error, FALSE);
  GNN_CHECK_STORAGE ("hypot_", other, error, FALSE);
  return gnn_ew_binary_ (&op_hypot, self, other, GNN_OP_HYPOT, NULL, error);
}

/**
 * gnn_tensor_fmax:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number) broadcastable with @a
 * @error: return location for a #GError
 *
 * The elementwise maximum ignoring NaN (like `torch.fmax`): where one
 * operand is NaN the other is taken; NaN only where both are. In torch's
 * result dtype.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_fmax (GnnTensor *a,
                 GnnTensor *b,
                 GError   **error)
{
  return binary_recorded (&op_fmax, GNN_OP_FMAX, a, b, error);
}

/**
 * gnn_tensor_fmin:
 * @a: a #GnnTensor
 * @b: a #GnnTensor (or a wrapped number) broadcastable with @a
 * @error: return location for a #GError
 *
 * The elementwise minimum ignoring NaN (like `torch.fmin`); see
 * [method@Gnn.Tensor.fmax].
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_fmin (GnnTensor *a,
                 GnnTensor *b,
                 GError   **error)
{
  return binary_recorded (&op_fmin, GNN_OP_FMIN, a, b, error);
}
