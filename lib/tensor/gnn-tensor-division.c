/* gnn-tensor-division.c: torch's rounded divisions — div with
 * rounding_mode 'trunc' / 'floor', floor_divide (`//`), remainder (`%`,
 * the sign of the divisor) and fmod (the sign of the dividend) — on
 * floating and integer dtypes
 *
 * Integer zero divisors are torch's ZeroDivisionError (checked by the
 * driver before a kernel runs; the y == 0 tests below only keep a kernel
 * from ever trapping). MIN / -1 wraps around.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"

/* --- floating point, as torch's CPU kernels compute them ------------------ */

static inline double
floor_div_f64 (double a,
               double b)
{
  double mod, div, floordiv;

  if (b == 0)
    return a / b;
  mod = fmod (a, b);
  div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0))
    div -= 1;
  if (div != 0)
    {
      floordiv = floor (div);
      if (div - floordiv > 0.5)
        floordiv += 1.0;
    }
  else
    floordiv = copysign (0.0, a / b);
  return floordiv;
}

static inline float
floor_div_f32 (float a,
               float b)
{
  float mod, div, floordiv;

  if (b == 0)
    return a / b;
  mod = fmodf (a, b);
  div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0))
    div -= 1;
  if (div != 0)
    {
      floordiv = floorf (div);
      if (div - floordiv > 0.5f)
        floordiv += 1.0f;
    }
  else
    floordiv = copysignf (0.0f, a / b);
  return floordiv;
}

static inline double
py_remainder_f64 (double a,
               double b)
{
  double mod = fmod (a, b);

  if (mod != 0 && (b < 0) != (mod < 0))
    mod += b;
  return mod;
}

static inline float
py_remainder_f32 (float a,
               float b)
{
  float mod = fmodf (a, b);

  if (mod != 0 && (b < 0) != (mod < 0))
    mod += b;
  return mod;
}

#define TRUNC_DIV_32(T, W, x, y) truncf ((x) / (y))
#define TRUNC_DIV_64(T, W, x, y) trunc ((x) / (y))
#define FLOOR_DIV_32(T, W, x, y) floor_div_f32 ((x), (y))
#define FLOOR_DIV_64(T, W, x, y) floor_div_f64 ((x), (y))
#define REMAINDER_32(T, W, x, y) py_remainder_f32 ((x), (y))
#define REMAINDER_64(T, W, x, y) py_remainder_f64 ((x), (y))
#define FMOD_32(T, W, x, y)      fmodf ((x), (y))
#define FMOD_64(T, W, x, y)      fmod ((x), (y))

/* --- integers -------------------------------------------------------------- */

#define TRUNC_DIV_S(T, W, x, y) ((y) == 0 ? (T) 0 : (y) == -1 ? (T) (0 - (W) (x)) : (T) ((x) / (y)))
#define TRUNC_DIV_U(T, W, x, y) ((y) == 0 ? (T) 0 : (T) ((x) / (y)))
/* the truncated quotient, one less when the signs differ and it is inexact */
#define FLOOR_DIV_S(T, W, x, y)                                                 \
  ((y) == 0 ? (T) 0 : (y) == -1 ? (T) (0 - (W) (x))                             \
   : (T) ((x) / (y) - (((x) % (y) != 0) && (((x) < 0) != ((y) < 0)))))
#define FMOD_S(T, W, x, y)      ((y) == 0 || (y) == -1 ? (T) 0 : (T) ((x) % (y)))
#define FMOD_U(T, W, x, y)      ((y) == 0 ? (T) 0 : (T) ((x) % (y)))
#define REMAINDER_S(T, W, x, y)                                                 \
  ((y) == 0 || (y) == -1 ? (T) 0                                                \
   : (T) ((x) % (y) + (((x) % (y) != 0 && (((x) % (y) < 0) != ((y) < 0))) ? (y) : 0)))

#define DEFINE_DIVISION(op, E32, E64, ES, EU)                                   \
  GNN_GEN_F32_F64 (GNN_GEN_BINARY, op, E32, E64)                                \
  GNN_FOR_SIGNED (GNN_GEN_BINARY, op, ES)                                       \
  GNN_FOR_UNSIGNED (GNN_GEN_BINARY, op, EU)                                     \
  GNN_GEN_F32_F64 (GNN_GEN_INPLACE, op##_ip, E32, E64)                          \
  GNN_FOR_SIGNED (GNN_GEN_INPLACE, op##_ip, ES)                                 \
  GNN_FOR_UNSIGNED (GNN_GEN_INPLACE, op##_ip, EU)

DEFINE_DIVISION (div_trunc, TRUNC_DIV_32, TRUNC_DIV_64, TRUNC_DIV_S, TRUNC_DIV_U)
DEFINE_DIVISION (div_floor, FLOOR_DIV_32, FLOOR_DIV_64, FLOOR_DIV_S, TRUNC_DIV_U)
DEFINE_DIVISION (remainder, REMAINDER_32, REMAINDER_64, REMAINDER_S, FMOD_U)
DEFINE_DIVISION (fmod, FMOD_32, FMOD_64, FMOD_S, FMOD_U)

#define DIVISION_OP(op, name, cpu)                                              \
  { name, cpu, GNN_EW_INT_DIVISOR, { GNN_TABLE_NUMERIC (op) },                  \
    { GNN_TABLE_NUMERIC (op##_ip) } }

const GnnBinaryOp gnn_op_div_trunc = DIVISION_OP (div_trunc, "div", "div_trunc_cpu");
const GnnBinaryOp gnn_op_div_floor = DIVISION_OP (div_floor, "div", "div_floor_cpu");
const GnnBinaryOp gnn_op_remainder = DIVISION_OP (remainder, "remainder", "remainder_cpu");
const GnnBinaryOp gnn_op_fmod = DIVISION_OP (fmod, "fmod", "fmod_cpu");

static const GnnBinaryOp *
div_op (GnnRoundingMode mode)
{
  switch (mode)
    {
    case GNN_ROUNDING_MODE_TRUNC: return &gnn_op_div_trunc;
    case GNN_ROUNDING_MODE_FLOOR: return &gnn_op_div_floor;
    default: return &gnn_op_div;
    }
}

static gboolean
check_mode (GnnRoundingMode mode,
            GError        **error)
{
  if (mode == GNN_ROUNDING_MODE_NONE || mode == GNN_ROUNDING_MODE_TRUNC ||
      mode == GNN_ROUNDING_MODE_FLOOR)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found %d",
               (int) mode);
  return FALSE;
}

static GnnTensor *
binary (const GnnBinaryOp *op,
        GnnOpKind          kind,
        GnnTensor         *a,
        GnnTensor         *b,
        GError           **error)
{
  GNN_CHECK_STORAGE (op->name, a, error, NULL);
  GNN_CHECK_STORAGE (op->name, b, error, NULL);
  return gnn_tensor_record (kind, gnn_ew_binary (op, a, b, error), (GnnTensor *[]) { a, b }, 2,
                            NULL);
}

static gboolean
binary_ (const GnnBinaryOp *op,
         GnnOpKind          kind,
         GnnTensor         *self,
         GnnTensor         *other,
         GError           **error)
{
  GNN_CHECK_STORAGE (op->name, self, error, FALSE);
  GNN_CHECK_STORAGE (op->name, other, error, FALSE);
  return gnn_ew_binary_ (op, self, other, kind, NULL, error);
}

/**
 * gnn_tensor_div_mode:
 * @a: the dividend
 * @b: the divisor (a tensor or a wrapped number), broadcastable with @a
 * @mode: how to round the quotient
 * @error: return location for a #GError
 *
 * Division with torch's `rounding_mode` (like `torch.div (a, b,
 * rounding_mode=...)`): %GNN_ROUNDING_MODE_NONE is true division
 * ([method@Gnn.Tensor.div]); TRUNC rounds toward zero and FLOOR down, in
 * the promoted dtype, so integers stay integers. An integer zero divisor
 * fails with %GNN_ERROR_ZERO_DIVISION ("ZeroDivisionError"). The rounded
 * quotients have a zero gradient, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_div_mode (GnnTensor      *a,
                     GnnTensor      *b,
                     GnnRoundingMode mode,
                     GError        **error)
{
  if (!check_mode (mode, error))
    return NULL;
  if (mode == GNN_ROUNDING_MODE_NONE)
    return gnn_tensor_div (a, b, error);
  return binary (div_op (mode), GNN_OP_DIV_ROUNDED, a, b, error);
}

/**
 * gnn_tensor_div_mode_:
 * @self: the dividend, updated in place
 * @other: the divisor, broadcastable to the shape of @self
 * @mode: how to round the quotient
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.div_mode] (like `self.div_(other,
 * rounding_mode=...)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_div_mode_ (GnnTensor      *self,
                      GnnTensor      *other,
                      GnnRoundingMode mode,
                      GError        **error)
{
  if (!check_mode (mode, error))
    return FALSE;
  if (mode == GNN_ROUNDING_MODE_NONE)
    return gnn_tensor_div_ (self, other, error);
  return binary_ (div_op (mode), GNN_OP_DIV_ROUNDED, self, other, error);
}

/**
 * gnn_tensor_floor_divide:
 * @a: the dividend
 * @b: the divisor (a tensor or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * `a // b` (like `torch.floor_divide`, which torch 1.13 rounds down): the
 * same as [method@Gnn.Tensor.div_mode] with %GNN_ROUNDING_MODE_FLOOR.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_floor_divide (GnnTensor *a,
                         GnnTensor *b,
                         GError   **error)
{
  return binary (&gnn_op_div_floor, GNN_OP_DIV_ROUNDED, a, b, error);
}

/**
 * gnn_tensor_floor_divide_:
 * @self: the dividend, updated in place
 * @other: the divisor, broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * `self //= other` (like `self.floor_divide_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_floor_divide_ (GnnTensor *self,
                          GnnTensor *other,
                          GError   **error)
{
  return binary_ (&gnn_op_div_floor, GNN_OP_DIV_ROUNDED, self, other, error);
}

/**
 * gnn_tensor_remainder:
 * @a: the dividend
 * @b: the divisor (a tensor or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * `a % b` (like `torch.remainder`): `a - floor (a / b) · b`, which takes
 * the sign of the divisor. Integer zero divisors fail with
 * %GNN_ERROR_ZERO_DIVISION. The gradient is 1 for @a and `-floor (a / b)`
 * for @b.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_remainder (GnnTensor *a,
                      GnnTensor *b,
                      GError   **error)
{
  return binary (&gnn_op_remainder, GNN_OP_REMAINDER, a, b, error);
}

/**
 * gnn_tensor_remainder_:
 * @self: the dividend, updated in place
 * @other: the divisor, broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * `self %= other` (like `self.remainder_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_remainder_ (GnnTensor *self,
                       GnnTensor *other,
                       GError   **error)
{
  return binary_ (&gnn_op_remainder, GNN_OP_REMAINDER, self, other, error);
}

/**
 * gnn_tensor_fmod:
 * @a: the dividend
 * @b: the divisor (a tensor or a wrapped number), broadcastable with @a
 * @error: return location for a #GError
 *
 * C's fmod elementwise (like `torch.fmod`): `a - trunc (a / b) · b`, with
 * the sign of the dividend. The gradient is 1 for @a and `-trunc (a / b)`
 * for @b.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_fmod (GnnTensor *a,
                 GnnTensor *b,
                 GError   **error)
{
  return binary (&gnn_op_fmod, GNN_OP_FMOD, a, b, error);
}

/**
 * gnn_tensor_fmod_:
 * @self: the dividend, updated in place
 * @other: the divisor, broadcastable to the shape of @self
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.fmod] (like `self.fmod_(other)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_fmod_ (GnnTensor *self,
                  GnnTensor *other,
                  GError   **error)
{
  return binary_ (&gnn_op_fmod, GNN_OP_FMOD, self, other, error);
}
