/* gnn-tensor-pointwise.c: elementwise arithmetic and the kernels of the
 * activations and comparisons (their public functions are in
 * gnn-tensor-unary.c and gnn-tensor-compare.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-cpu-private.h"

/*
 * Layout of this file
 *
 * Kernels work on one 1-d run: @n elements, each operand with its own
 * stride (in elements). They are generated per dtype by macros from an
 * expression macro EXPR (T, W, x, y) where T is the element type and W a
 * wide unsigned type for integer arithmetic that must wrap (signed overflow
 * is undefined in C; PyTorch wraps, so do we). Each kernel branches once on
 * the stride pattern so the common cases (all contiguous; one operand a
 * broadcast scalar) are plain loops over restrict pointers that gcc -O3
 * vectorizes. Drivers below walk any strided/broadcast geometry with
 * GnnNdIter, which coalesces contiguous tensors into a single run.
 *
 * Dtypes: arithmetic on float32/float64 and the integer types; float16 and
 * bfloat16 are storage-only; bool only for comparisons and where.
 */

#define N_DTYPES (GNN_DTYPE_BOOL + 1)

typedef void (*BinaryKernel)  (gint64 n, void *o, gint64 os,
                               const void *a, gint64 as, const void *b, gint64 bs);
typedef void (*InplaceKernel) (gint64 n, void *s, gint64 ss, const void *b, gint64 bs);
typedef void (*UnaryKernel)   (gint64 n, void *o, gint64 os, const void *a, gint64 as,
                               double param);
typedef void (*UnaryInplaceKernel) (gint64 n, void *s, gint64 ss);

/* Each kernel's loop (name##_typed, always inlined) is compiled for every
 * CPU level by DISPATCH_KERNEL (gnn-cpu-private.h). */

/* --- kernel generators --------------------------------------------------- */

#define DEFINE_BINARY_KERNEL(name, OT, T, W, EXPR)                              \
static inline __attribute__ ((always_inline)) void                             \
name##_typed (gint64 n, OT *restrict o, gint64 os,                              \
              const T *restrict a, gint64 as, const T *restrict b, gint64 bs)   \
{                                                                               \
  if (os == 1 && as == 1 && bs == 1)                                            \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i] = EXPR (T, W, a[i], b[i]);                                           \
  else if (os == 1 && as == 1 && bs == 0)                                       \
    {                                                                           \
      const T y = b[0];                                                         \
      for (gint64 i = 0; i < n; i++)                                            \
        o[i] = EXPR (T, W, a[i], y);                                            \
    }                                                                           \
  else if (os == 1 && as == 0 && bs == 1)                                       \
    {                                                                           \
      const T x = a[0];                                                         \
      for (gint64 i = 0; i < n; i++)                                            \
        o[i] = EXPR (T, W, x, b[i]);                                            \
    }                                                                           \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i * os] = EXPR (T, W, a[i * as], b[i * bs]);                            \
}                                                                               \
DISPATCH_KERNEL (name, (gint64 n, void *o, gint64 os, const void *a, gint64 as,  \
                         const void *b, gint64 bs), (n, o, os, a, as, b, bs))

/* s = s op b; @b never aliases @s (drivers copy it first if it might). */
#define DEFINE_INPLACE_KERNEL(name, T, W, EXPR)                                 \
static inline __attribute__ ((always_inline)) void                             \
name##_typed (gint64 n, T *restrict s, gint64 ss, const T *restrict b, gint64 bs) \
{                                                                               \
  if (ss == 1 && bs == 1)                                                       \
    for (gint64 i = 0; i < n; i++)                                              \
      s[i] = EXPR (T, W, s[i], b[i]);                                           \
  else if (ss == 1 && bs == 0)                                                  \
    {                                                                           \
      const T y = b[0];                                                         \
      for (gint64 i = 0; i < n; i++)                                            \
        s[i] = EXPR (T, W, s[i], y);                                            \
    }                                                                           \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      s[i * ss] = EXPR (T, W, s[i * ss], b[i * bs]);                            \
}                                                                               \
DISPATCH_KERNEL (name, (gint64 n, void *s, gint64 ss, const void *b, gint64 bs), \
                 (n, s, ss, b, bs))

/* Unary expressions are EXPR (T, W, x, param); @param is the op's scalar
 * argument (the exponent of pow), unused by the others. */
#define DEFINE_UNARY_KERNEL(name, T, W, EXPR)                                   \
static inline __attribute__ ((always_inline)) void                             \
name##_typed (gint64 n, T *restrict o, gint64 os, const T *restrict a, gint64 as, \
              double param)                                                     \
{                                                                               \
  (void) param;                                                                 \
  if (os == 1 && as == 1)                                                       \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i] = EXPR (T, W, a[i], param);                                          \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      o[i * os] = EXPR (T, W, a[i * as], param);                                \
}                                                                               \
DISPATCH_KERNEL (name, (gint64 n, void *o, gint64 os, const void *a, gint64 as,  \
                         double param), (n, o, os, a, as, param))

#define DEFINE_UNARY_INPLACE_KERNEL(name, T, W, EXPR)                           \
static inline __attribute__ ((always_inline)) void                             \
name##_typed (gint64 n, T *restrict s, gint64 ss)                               \
{                                                                               \
  if (ss == 1)                                                                  \
    for (gint64 i = 0; i < n; i++)                                              \
      s[i] = EXPR (T, W, s[i], 0);                                              \
  else                                                                          \
    for (gint64 i = 0; i < n; i++)                                              \
      s[i * ss] = EXPR (T, W, s[i * ss], 0);                                    \
}                                                                               \
DISPATCH_KERNEL (name, (gint64 n, void *s, gint64 ss), (n, s, ss))

/* Instantiation over dtype families. FLOAT: f32, f64. SIGNED: i64, i32,
 * i16, i8 (W is the unsigned type arithmetic wraps in). UNSIGNED: u8.
 * BOOL: bool (stored as guint8). */
#define FOR_FLOATS(GEN, op, EXPR)                                               \
  GEN (op##_f32, float, float, EXPR)                                            \
  GEN (op##_f64, double, double, EXPR)
#define FOR_SIGNED(GEN, op, EXPR)                                               \
  GEN (op##_i64, gint64, guint64, EXPR)                                         \
  GEN (op##_i32, gint32, guint32, EXPR)                                         \
  GEN (op##_i16, gint16, guint32, EXPR)                                         \
  GEN (op##_i8, gint8, guint32, EXPR)
#define FOR_UNSIGNED(GEN, op, EXPR)                                             \
  GEN (op##_u8, guint8, guint32, EXPR)

#define TABLE_FLOATS(op)   [GNN_DTYPE_F32] = op##_f32, [GNN_DTYPE_F64] = op##_f64
#define TABLE_SIGNED(op)   [GNN_DTYPE_I64] = op##_i64, [GNN_DTYPE_I32] = op##_i32, \
                           [GNN_DTYPE_I16] = op##_i16, [GNN_DTYPE_I8] = op##_i8
#define TABLE_UNSIGNED(op) [GNN_DTYPE_U8] = op##_u8
#define TABLE_NUMERIC(op)  TABLE_FLOATS (op), TABLE_SIGNED (op), TABLE_UNSIGNED (op)

/* Binary kernels with the same input and output type. */
#define GEN_BINARY(name, T, W, EXPR)  DEFINE_BINARY_KERNEL (name, T, T, W, EXPR)
#define GEN_INPLACE(name, T, W, EXPR) DEFINE_INPLACE_KERNEL (name, T, W, EXPR)
/* Comparisons write bool (guint8). */
#define GEN_COMPARE(name, T, W, EXPR) DEFINE_BINARY_KERNEL (name, guint8, T, W, EXPR)

/* An arithmetic op for every numeric dtype, out-of-place (op_*) and in
 * place (op_ip_*). */
#define DEFINE_ARITH(op, FEXPR, SEXPR, UEXPR)                                   \
  FOR_FLOATS (GEN_BINARY, op, FEXPR)                                            \
  FOR_SIGNED (GEN_BINARY, op, SEXPR)                                            \
  FOR_UNSIGNED (GEN_BINARY, op, UEXPR)                                          \
  FOR_FLOATS (GEN_INPLACE, op##_ip, FEXPR)                                      \
  FOR_SIGNED (GEN_INPLACE, op##_ip, SEXPR)                                      \
  FOR_UNSIGNED (GEN_INPLACE, op##_ip, UEXPR)

/* --- arithmetic ---------------------------------------------------------- */

#define ADD_F(T, W, x, y) ((x) + (y))
#define SUB_F(T, W, x, y) ((x) - (y))
#define MUL_F(T, W, x, y) ((x) * (y))
#define DIV_F(T, W, x, y) ((x) / (y))
/* Integers wrap around like PyTorch's (two's complement). */
#define ADD_I(T, W, x, y) ((T) ((W) (x) + (W) (y)))
#define SUB_I(T, W, x, y) ((T) ((W) (x) - (W) (y)))
#define MUL_I(T, W, x, y) ((T) ((W) (x) * (W) (y)))
/* Integer division truncates toward zero (torch.div(..., rounding_mode='trunc')).
 * A zero divisor is refused before the kernel runs (gnn_check_int_divisor);
 * the y == 0 test only keeps the kernel from ever trapping. MIN / -1 wraps. */
#define DIV_S(T, W, x, y) ((y) == 0 ? (T) 0 : (y) == -1 ? (T) (0 - (W) (x)) : (T) ((x) / (y)))
#define DIV_U(T, W, x, y) ((y) == 0 ? (T) 0 : (T) ((x) / (y)))

DEFINE_ARITH (add, ADD_F, ADD_I, ADD_I)
DEFINE_ARITH (sub, SUB_F, SUB_I, SUB_I)
DEFINE_ARITH (mul, MUL_F, MUL_I, MUL_I)
DEFINE_ARITH (div, DIV_F, DIV_S, DIV_U)

/* --- comparisons --------------------------------------------------------- */

#define EQ_E(T, W, x, y) ((guint8) ((x) == (y)))
#define NE_E(T, W, x, y) ((guint8) ((x) != (y)))
#define LT_E(T, W, x, y) ((guint8) ((x) < (y)))
#define LE_E(T, W, x, y) ((guint8) ((x) <= (y)))
#define GT_E(T, W, x, y) ((guint8) ((x) > (y)))
#define GE_E(T, W, x, y) ((guint8) ((x) >= (y)))

#define DEFINE_COMPARE(op, EXPR)                                                \
  FOR_FLOATS (GEN_COMPARE, op, EXPR)                                            \
  FOR_SIGNED (GEN_COMPARE, op, EXPR)                                            \
  FOR_UNSIGNED (GEN_COMPARE, op, EXPR)                                          \
  GEN_COMPARE (op##_bool, guint8, guint32, EXPR)

DEFINE_COMPARE (eq, EQ_E)
DEFINE_COMPARE (ne, NE_E)
DEFINE_COMPARE (lt, LT_E)
DEFINE_COMPARE (le, LE_E)
DEFINE_COMPARE (gt, GT_E)
DEFINE_COMPARE (ge, GE_E)

/* --- unary --------------------------------------------------------------- */

#define GEN_UNARY(name, T, W, EXPR) DEFINE_UNARY_KERNEL (name, T, W, EXPR)
#define GEN_UNARY_IP(name, T, W, EXPR) DEFINE_UNARY_INPLACE_KERNEL (name, T, W, EXPR)

/* relu keeps NaN and -0.0 as PyTorch does (x < 0 is false for both). */
#define RELU_S(T, W, x, p) ((x) < 0 ? (T) 0 : (x))
#define RELU_U(T, W, x, p) (x)
#define NEG_F(T, W, x, p)  (-(x))
#define NEG_I(T, W, x, p)  ((T) (0 - (W) (x)))
#define ABS_F(T, W, x, p)  ((T) fabs (x))
#define ABS_S(T, W, x, p)  ((x) < 0 ? (T) (0 - (W) (x)) : (x))
#define ABS_U(T, W, x, p)  (x)

/* Float-only ops: single precision calls the float libm functions (as
 * PyTorch computes float32 in float32), double the double ones. */
#define GEN_F32_F64(GEN, op, FEXPR32, FEXPR64)                                  \
  GEN (op##_f32, float, float, FEXPR32)                                         \
  GEN (op##_f64, double, double, FEXPR64)

/* Exact GELU: x * Phi(x) = 0.5 x (1 + erf (x / sqrt 2)), torch's default. */
#define GELU_32(T, W, x, p)    (0.5f * (x) * (1.0f + erff ((x) * (float) G_SQRT2 * 0.5f)))
#define GELU_64(T, W, x, p)    (0.5 * (x) * (1.0 + erf ((x) * G_SQRT2 * 0.5)))
#define TANH_32(T, W, x, p)    tanhf (x)
#define TANH_64(T, W, x, p)    tanh (x)
#define SIGMOID_32(T, W, x, p) (1.0f / (1.0f + expf (-(x))))
#define SIGMOID_64(T, W, x, p) (1.0 / (1.0 + exp (-(x))))
#define EXP_32(T, W, x, p)     expf (x)
#define EXP_64(T, W, x, p)     exp (x)
#define LOG_32(T, W, x, p)     logf (x)
#define LOG_64(T, W, x, p)     log (x)
#define SQRT_32(T, W, x, p)    sqrtf (x)
#define SQRT_64(T, W, x, p)    sqrt (x)
#define POW_32(T, W, x, p)     powf ((x), (float) (p))
#define POW_64(T, W, x, p)     pow ((x), (p))
#define SQUARE_F(T, W, x, p)   ((x) * (x))

FOR_FLOATS (GEN_UNARY, relu, RELU_S)
FOR_SIGNED (GEN_UNARY, relu, RELU_S)
FOR_UNSIGNED (GEN_UNARY, relu, RELU_U)
FOR_FLOATS (GEN_UNARY_IP, relu_ip, RELU_S)
FOR_SIGNED (GEN_UNARY_IP, relu_ip, RELU_S)
FOR_UNSIGNED (GEN_UNARY_IP, relu_ip, RELU_U)
FOR_FLOATS (GEN_UNARY, neg, NEG_F)
FOR_SIGNED (GEN_UNARY, neg, NEG_I)
FOR_UNSIGNED (GEN_UNARY, neg, NEG_I)
FOR_FLOATS (GEN_UNARY, abs, ABS_F)
FOR_SIGNED (GEN_UNARY, abs, ABS_S)
FOR_UNSIGNED (GEN_UNARY, abs, ABS_U)
GEN_F32_F64 (GEN_UNARY, gelu, GELU_32, GELU_64)
GEN_F32_F64 (GEN_UNARY, tanh, TANH_32, TANH_64)
GEN_F32_F64 (GEN_UNARY, sigmoid, SIGMOID_32, SIGMOID_64)
GEN_F32_F64 (GEN_UNARY, exp, EXP_32, EXP_64)
GEN_F32_F64 (GEN_UNARY, log, LOG_32, LOG_64)
GEN_F32_F64 (GEN_UNARY, sqrt, SQRT_32, SQRT_64)
GEN_F32_F64 (GEN_UNARY, pow, POW_32, POW_64)
FOR_FLOATS (GEN_UNARY, square, SQUARE_F)

/* Integer power by squaring, wrapping like the other integer ops (the
 * product modulo 2^64 truncated to T is the product modulo 2^bits); the
 * exponent, checked integral and non-negative, arrives in @p. */
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

#define IPOW(T, W, x, p) ((T) ipow_wrap ((guint64) (x), (guint64) (p)))

FOR_SIGNED (GEN_UNARY, pow, IPOW)
FOR_UNSIGNED (GEN_UNARY, pow, IPOW)

/* --- op tables ----------------------------------------------------------- */

typedef struct
{
  const char   *name;          /* for errors: "add" */
  const char   *inplace_name;  /* "add_", or NULL for comparisons */
  gboolean      to_bool;       /* comparisons produce bool */
  BinaryKernel  kernels[N_DTYPES];
  InplaceKernel inplace[N_DTYPES];
} BinaryOp;

#define ARITH_OP(op) \
  { #op, #op "_", FALSE, { TABLE_NUMERIC (op) }, { TABLE_NUMERIC (op##_ip) } }
#define COMPARE_OP(op) \
  { #op, NULL, TRUE, { TABLE_NUMERIC (op), [GNN_DTYPE_BOOL] = op##_bool }, { NULL } }

static const BinaryOp op_add = ARITH_OP (add);
static const BinaryOp op_sub = ARITH_OP (sub);
static const BinaryOp op_mul = ARITH_OP (mul);
static const BinaryOp op_div = ARITH_OP (div);
static const BinaryOp op_eq = COMPARE_OP (eq);
static const BinaryOp op_ne = COMPARE_OP (ne);
static const BinaryOp op_lt = COMPARE_OP (lt);
static const BinaryOp op_le = COMPARE_OP (le);
static const BinaryOp op_gt = COMPARE_OP (gt);
static const BinaryOp op_ge = COMPARE_OP (ge);

typedef struct
{
  const char  *name;
  UnaryKernel  kernels[N_DTYPES];
} UnaryOp;

#define NUMERIC_UNARY(op) { #op, { TABLE_NUMERIC (op) } }
#define FLOAT_UNARY(op)   { #op, { TABLE_FLOATS (op) } }

static const UnaryOp op_relu = NUMERIC_UNARY (relu);
static const UnaryOp op_neg = NUMERIC_UNARY (neg);
static const UnaryOp op_abs = NUMERIC_UNARY (abs);
static const UnaryOp op_gelu = FLOAT_UNARY (gelu);
static const UnaryOp op_tanh = FLOAT_UNARY (tanh);
static const UnaryOp op_sigmoid = FLOAT_UNARY (sigmoid);
static const UnaryOp op_exp = FLOAT_UNARY (exp);
static const UnaryOp op_log = FLOAT_UNARY (log);
static const UnaryOp op_sqrt = FLOAT_UNARY (sqrt);
static const UnaryOp op_square = FLOAT_UNARY (square);
static const UnaryOp op_pow = NUMERIC_UNARY (pow);

static const UnaryInplaceKernel relu_inplace_kernels[N_DTYPES] = { TABLE_NUMERIC (relu_ip) };

/* --- checks -------------------------------------------------------------- */

/* Explains why @op has no kernel for @dtype. */
static gboolean
check_kernel (const char    *op,
              GnnDType       dtype,
              gconstpointer  kernel,
              GError       **error)
{
  if (kernel != NULL)
    return TRUE;
  if (dtype == GNN_DTYPE_F16 || dtype == GNN_DTYPE_BF16)
    g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                 "%s: dtype %s is storage-only; convert with to_dtype (FLOAT32) first",
                 op, gnn_dtype_get_name (dtype));
  else if (dtype == GNN_DTYPE_BOOL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                 "%s: dtype bool is not supported; convert with to_dtype first", op);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                 "%s: dtype %s is not supported (integer tensors are not promoted to "
                 "floating point); convert with to_dtype (FLOAT32) first",
                 op, gnn_dtype_get_name (dtype));
  return FALSE;
}

/* Writing through a tensor whose elements overlap (a stride 0 over more than
 * one element, as made by expand) would be order-dependent: refuse like
 * PyTorch's assert_no_internal_overlap. */
static gboolean
check_no_internal_overlap (GnnTensorPrivate *p,
                           GError          **error)
{
  for (guint d = 0; d < p->ndim; d++)
    if (p->strides[d] == 0 && p->shape[d] > 1)
      {
        g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                             "unsupported operation: more than one element of the written-to "
                             "tensor refers to a single memory location. Please clone() the "
                             "tensor before performing the operation.");
        return FALSE;
      }
  return TRUE;
}

/* Converts a scalar operand to @dtype in @out (8 bytes, aligned). Integer
 * tensors take integral values only (PyTorch would promote the result to
 * float; we make the caller say so); out-of-range integers wrap. */
static gboolean
scalar_to_dtype (const char *op,
                 GnnDType    dtype,
                 double      value,
                 gint64     *out,
                 GError    **error)
{
  gint64 v;

  if (dtype == GNN_DTYPE_F32)
    {
      *(float *) out = (float) value;
      return TRUE;
    }
  if (dtype == GNN_DTYPE_F64)
    {
      *(double *) out = value;
      return TRUE;
    }
  if (!isfinite (value) || value != trunc (value) ||
      value < -9223372036854775808.0 || value >= 9223372036854775808.0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: the value %g is not an integer, so it cannot be applied to a tensor "
                   "of dtype %s (integer tensors are not promoted to floating point); convert "
                   "with to_dtype (FLOAT32) first", op, value, gnn_dtype_get_name (dtype));
      return FALSE;
    }
  v = (gint64) value;
  switch (dtype)
    {
    case GNN_DTYPE_I64: *out = v; break;
    case GNN_DTYPE_I32: *(gint32 *) out = (gint32) v; break;
    case GNN_DTYPE_I16: *(gint16 *) out = (gint16) v; break;
    case GNN_DTYPE_I8: *(gint8 *) out = (gint8) v; break;
    case GNN_DTYPE_U8: *(guint8 *) out = (guint8) v; break;
    default: g_assert_not_reached ();
    }
  return TRUE;
}

/* --- drivers ------------------------------------------------------------- */

static void
run_binary (BinaryKernel  kernel,
            const gint64 *shape,
            guint         ndim,
            guint8       *o,
            gsize         osize,
            const gint64 *o_strides,
            const guint8 *a,
            const gint64 *a_strides,
            const guint8 *b,
            const gint64 *b_strides,
            gsize         isize)
{
  const gint64 *strides[3] = { o_strides, a_strides, b_strides };
  GnnNdIter it;

  gnn_nditer_init (&it, shape, ndim, 3, strides);
  while (gnn_nditer_next (&it))
    kernel (it.inner_size,
            o + it.offsets[0] * (gint64) osize, it.inner_strides[0],
            a + it.offsets[1] * (gint64) isize, it.inner_strides[1],
            b + it.offsets[2] * (gint64) isize, it.inner_strides[2]);
}

static void
run_unary (UnaryKernel       kernel,
           GnnTensorPrivate *op,
           GnnTensorPrivate *ap,
           double            param)
{
  const gint64 *strides[2] = { op->strides, ap->strides };
  gsize size = gnn_dtype_get_size (ap->dtype);
  guint8 *o = gnn_tensor_priv_data (op);
  const guint8 *a = gnn_tensor_priv_data (ap);
  GnnNdIter it;

  gnn_nditer_init (&it, ap->shape, ap->ndim, 2, strides);
  while (gnn_nditer_next (&it))
    kernel (it.inner_size,
            o + it.offsets[0] * (gint64) size, it.inner_strides[0],
            a + it.offsets[1] * (gint64) size, it.inner_strides[1], param);
}

static GnnTensor *
binary_op (const BinaryOp *op,
           GnnTensor      *a,
           GnnTensor      *b,
           GError        **error)
{
  GnnTensorPrivate *ap, *bp, *outp;
  gint64 shape[GNN_MAX_DIMS], a_strides[GNN_MAX_DIMS], b_strides[GNN_MAX_DIMS];
  guint ndim;
  BinaryKernel kernel;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (a), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (b), NULL);
  ap = gnn_tensor_priv (a);
  bp = gnn_tensor_priv (b);
  if (!gnn_check_same_dtype (op->name, a, b, error))
    return NULL;
  kernel = op->kernels[ap->dtype];
  if (!check_kernel (op->name, ap->dtype, kernel, error))
    return NULL;
  if (!gnn_broadcast_shapes (ap->shape, ap->ndim, bp->shape, bp->ndim, shape, &ndim, error))
    return NULL;
  if (op == &op_div && !gnn_check_int_divisor (b, error))
    return NULL;

  out = gnn_tensor_new_contiguous_checked (op->to_bool ? GNN_DTYPE_BOOL : ap->dtype, shape, ndim, FALSE, error);

  if (out == NULL)

    return NULL;
  outp = gnn_tensor_priv (out);
  gnn_broadcast_strides (a, shape, ndim, a_strides);
  gnn_broadcast_strides (b, shape, ndim, b_strides);
  run_binary (kernel, shape, ndim,
              gnn_tensor_priv_data (outp), gnn_dtype_get_size (outp->dtype), outp->strides,
              gnn_tensor_priv_data (ap), a_strides,
              gnn_tensor_priv_data (bp), b_strides, gnn_dtype_get_size (ap->dtype));
  return out;
}

static gboolean
binary_inplace (const BinaryOp *op,
                GnnTensor      *self,
                GnnTensor      *other,
                GError        **error)
{
  GnnTensorPrivate *sp, *bp;
  gint64 shape[GNN_MAX_DIMS], b_strides[GNN_MAX_DIMS];
  guint ndim;
  InplaceKernel kernel;
  gsize size;
  g_autoptr(GnnTensor) other_copy = NULL;
  const gint64 *strides[2];
  GnnNdIter it;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (other), FALSE);
  sp = gnn_tensor_priv (self);
  bp = gnn_tensor_priv (other);
  if (!gnn_check_same_dtype (op->inplace_name, self, other, error))
    return FALSE;
  kernel = op->inplace[sp->dtype];
  if (!check_kernel (op->inplace_name, sp->dtype, kernel, error))
    return FALSE;
  if (!gnn_broadcast_shapes (sp->shape, sp->ndim, bp->shape, bp->ndim, shape, &ndim, error))
    return FALSE;
  if (ndim != sp->ndim || memcmp (shape, sp->shape, sizeof (gint64) * ndim) != 0)
    {
      g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);
      g_autofree char *bs = gnn_shape_to_string (shape, ndim);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "output with shape %s doesn't match the broadcast shape %s", ss, bs);
      return FALSE;
    }
  if (!check_no_internal_overlap (sp, error))
    return FALSE;
  if (op == &op_div && !gnn_check_int_divisor (other, error))
    return FALSE;
  if (!gnn_tensor_record_inplace (op == &op_add ? GNN_OP_ADD : op == &op_sub ? GNN_OP_SUB :
                                  op == &op_mul ? GNN_OP_MUL : GNN_OP_DIV, self, other, error))
    return FALSE;

  /* @other may overlap @self (x.add_(x), a row of x added to x): read it
   * from a copy so every element sees the values from before the op. */
  if (bp->storage == sp->storage)
    {
      other_copy = gnn_tensor_copy_checked (other, bp->dtype, error);
      if (other_copy == NULL)
        return FALSE;
      other = other_copy;
      bp = gnn_tensor_priv (other);
    }

  gnn_broadcast_strides (other, sp->shape, sp->ndim, b_strides);
  size = gnn_dtype_get_size (sp->dtype);
  strides[0] = sp->strides;
  strides[1] = b_strides;
  gnn_nditer_init (&it, sp->shape, sp->ndim, 2, strides);
  while (gnn_nditer_next (&it))
    kernel (it.inner_size,
            gnn_tensor_priv_data (sp) + it.offsets[0] * (gint64) size, it.inner_strides[0],
            gnn_tensor_priv_data (bp) + it.offsets[1] * (gint64) size, it.inner_strides[1]);
  return TRUE;
}

/* tensor op scalar, through the binary kernel with a stride-0 operand. */
static GnnTensor *
scalar_op (const BinaryOp *op,
           const char     *name,
           GnnTensor      *self,
           double          value,
           GError        **error)
{
  GnnTensorPrivate *p, *outp;
  BinaryKernel kernel;
  gint64 scalar = 0;
  gint64 zeros[GNN_MAX_DIMS] = { 0 };
  GnnTensor *out;
  gsize size;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  kernel = op->kernels[p->dtype];
  if (!check_kernel (name, p->dtype, kernel, error) ||
      !scalar_to_dtype (name, p->dtype, value, &scalar, error))
    return NULL;

  out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  outp = gnn_tensor_priv (out);
  size = gnn_dtype_get_size (p->dtype);
  run_binary (kernel, p->shape, p->ndim,
              gnn_tensor_priv_data (outp), size, outp->strides,
              gnn_tensor_priv_data (p), p->strides,
              (const guint8 *) &scalar, zeros, size);
  return out;
}

gboolean
gnn_tensor_mul_scalar_into (GnnTensor  *out,
                            GnnTensor  *self,
                            double      value,
                            GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self), *outp = gnn_tensor_priv (out);
  gint64 n = p->numel, one = 1, zero = 0, scalar = 0;
  gsize size = gnn_dtype_get_size (p->dtype);

  if (outp->dtype != p->dtype || outp->numel != n ||
      !gnn_tensor_is_contiguous (out) || !gnn_tensor_is_contiguous (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "mul_scalar_into: needs contiguous tensors of one dtype and size");
      return FALSE;
    }
  if (!check_kernel ("mul_scalar", p->dtype, op_mul.kernels[p->dtype], error) ||
      !scalar_to_dtype ("mul_scalar", p->dtype, value, &scalar, error))
    return FALSE;
  run_binary (op_mul.kernels[p->dtype], &n, 1, gnn_tensor_priv_data (outp), size, &one,
              gnn_tensor_priv_data (p), &one, (const guint8 *) &scalar, &zero, size);
  return TRUE;
}

static GnnTensor *
unary_op (const UnaryOp *op,
          GnnTensor     *self,
          double         param,
          GError       **error)
{
  GnnTensorPrivate *p;
  UnaryKernel kernel;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  kernel = op->kernels[p->dtype];
  if (!check_kernel (op->name, p->dtype, kernel, error))
    return NULL;
  out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  run_unary (kernel, gnn_tensor_priv (out), p, param);
  return out;
}

/* --- public: binary arithmetic ------------------------------------------- */

/**
 * gnn_tensor_add:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Adds two tensors elementwise (like `torch.add (a, b)`), broadcasting their
 * shapes. Both must have the same dtype (float32, float64 or an integer
 * type); integers wrap around on overflow.
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_add (GnnTensor *a,
                GnnTensor *b,
                GError   **error)
{
  GNN_CHECK_STORAGE ("add", a, error, NULL);
  GNN_CHECK_STORAGE ("add", b, error, NULL);
  return gnn_tensor_record (GNN_OP_ADD, binary_op (&op_add, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_sub:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Subtracts @b from @a elementwise (like `torch.sub (a, b)`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_sub (GnnTensor *a,
                GnnTensor *b,
                GError   **error)
{
  GNN_CHECK_STORAGE ("sub", a, error, NULL);
  GNN_CHECK_STORAGE ("sub", b, error, NULL);
  return gnn_tensor_record (GNN_OP_SUB, binary_op (&op_sub, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_mul:
 * @a: a #GnnTensor
 * @b: a #GnnTensor of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Multiplies two tensors elementwise (like `torch.mul (a, b)`), broadcasting.
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set if the dtypes or shapes do not fit
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_mul (GnnTensor *a,
                GnnTensor *b,
                GError   **error)
{
  GNN_CHECK_STORAGE ("mul", a, error, NULL);
  GNN_CHECK_STORAGE ("mul", b, error, NULL);
  return gnn_tensor_record (GNN_OP_MUL, binary_op (&op_mul, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_div:
 * @a: the dividend
 * @b: the divisor, of the same dtype, broadcastable with @a
 * @error: return location for a #GError
 *
 * Divides @a by @b elementwise, broadcasting. Floating-point division
 * follows IEEE 754 (x / 0 is ±inf or NaN), like `torch.div (a, b)`.
 *
 * Integer tensors stay integers: the quotient is truncated toward zero, like
 * `torch.div (a, b, rounding_mode='trunc')` (PyTorch's plain `div` would
 * return floats; convert with [method@Gnn.Tensor.to_dtype] for that).
 * Integer division by zero fails with %GNN_ERROR_ZERO_DIVISION
 * ("ZeroDivisionError", as PyTorch raises). The most negative value divided
 * by -1 wraps around to itself.
 *
 * Returns: (transfer full): a new contiguous tensor of the broadcast shape,
 *   or %NULL with @error set if the dtypes or shapes do not fit or an
 *   integer divisor is zero
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_div (GnnTensor *a,
                GnnTensor *b,
                GError   **error)
{
  GNN_CHECK_STORAGE ("div", a, error, NULL);
  GNN_CHECK_STORAGE ("div", b, error, NULL);
  return gnn_tensor_record (GNN_OP_DIV, binary_op (&op_div, a, b, error),
                            (GnnTensor *[]) { a, b }, 2, NULL);
}

/**
 * gnn_tensor_add_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @other: a #GnnTensor of the same dtype that broadcasts to the shape of @self
 * @error: return location for a #GError
 *
 * Adds @other to @self in place (like `self.add_(other)`). @other may share
 * storage with @self, even overlap it: it is read as it was before the
 * operation.
 *
 * Returns: %TRUE, or %FALSE with @error set if the dtypes differ, @other
 *   does not broadcast to the shape of @self, or @self has overlapping
 *   elements (an expanded view)
 *
 * Since: 1.0
 */
gboolean
gnn_tensor_add_ (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("add_", self, error, FALSE);
  GNN_CHECK_STORAGE ("add_", other, error, FALSE);
  return binary_inplace (&op_add, self, other, error);
}

/**
 * gnn_tensor_sub_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @other: a #GnnTensor of the same dtype that broadcasts to the shape of @self
 * @error: return location for a #GError
 *
 * Subtracts @other from @self in place (like `self.sub_(other)`); see
 * [method@Gnn.Tensor.add_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 1.0
 */
gboolean
gnn_tensor_sub_ (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("sub_", self, error, FALSE);
  GNN_CHECK_STORAGE ("sub_", other, error, FALSE);
  return binary_inplace (&op_sub, self, other, error);
}

/**
 * gnn_tensor_mul_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @other: a #GnnTensor of the same dtype that broadcasts to the shape of @self
 * @error: return location for a #GError
 *
 * Multiplies @self by @other in place (like `self.mul_(other)`); see
 * [method@Gnn.Tensor.add_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 1.0
 */
gboolean
gnn_tensor_mul_ (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("mul_", self, error, FALSE);
  GNN_CHECK_STORAGE ("mul_", other, error, FALSE);
  return binary_inplace (&op_mul, self, other, error);
}

/**
 * gnn_tensor_div_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @other: a #GnnTensor of the same dtype that broadcasts to the shape of @self
 * @error: return location for a #GError
 *
 * Divides @self by @other in place, with the rules of
 * [method@Gnn.Tensor.div] (integer quotients truncate; an integer zero
 * divisor fails with %GNN_ERROR_ZERO_DIVISION and leaves @self unchanged);
 * see [method@Gnn.Tensor.add_].
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 1.0
 */
gboolean
gnn_tensor_div_ (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("div_", self, error, FALSE);
  GNN_CHECK_STORAGE ("div_", other, error, FALSE);
  return binary_inplace (&op_div, self, other, error);
}

/**
 * gnn_tensor_add_scalar:
 * @self: a #GnnTensor
 * @value: the number to add
 * @error: return location for a #GError
 *
 * Adds @value to every element (like `self + value`). For integer tensors
 * @value must be a whole number (PyTorch would promote the result to float;
 * Gnn asks for an explicit [method@Gnn.Tensor.to_dtype]); it wraps around to
 * the dtype's range like PyTorch's.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for an unsupported dtype or a non-integral @value on an integer tensor
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_add_scalar (GnnTensor *self,
                       double     value,
                       GError   **error)
{
  GNN_CHECK_STORAGE ("add_scalar", self, error, NULL);
  return gnn_tensor_record (GNN_OP_ADD_SCALAR, scalar_op (&op_add, "add_scalar", self, value, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_mul_scalar:
 * @self: a #GnnTensor
 * @value: the factor
 * @error: return location for a #GError
 *
 * Multiplies every element by @value (like `self * value`), with the dtype
 * rules of [method@Gnn.Tensor.add_scalar].
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_mul_scalar (GnnTensor *self,
                       double     value,
                       GError   **error)
{
  GNN_CHECK_STORAGE ("mul_scalar", self, error, NULL);
  return gnn_tensor_record (GNN_OP_MUL_SCALAR, scalar_op (&op_mul, "mul_scalar", self, value, error),
                            &self, 1, &(GnnOpParams) { .scalar = value });
}

/**
 * gnn_tensor_pow:
 * @self: a #GnnTensor
 * @exponent: the power
 * @error: return location for a #GError
 *
 * Raises every element to @exponent (like `torch.pow (self, exponent)`).
 * Floating-point tensors take any exponent (x^0 is 1, even for NaN).
 * Integer tensors need a whole, non-negative exponent and wrap around on
 * overflow, like PyTorch's.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for an unsupported dtype or an exponent an integer tensor cannot take
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_pow (GnnTensor *self,
                double     exponent,
                GError   **error)
{
  GnnDType dtype;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("pow", self, error, NULL);
  dtype = gnn_tensor_priv (self)->dtype;
  if (!check_kernel ("pow", dtype, op_pow.kernels[dtype], error))
    return NULL;

  if (gnn_dtype_is_floating (dtype))
    {
      /* Exact shortcuts, as PyTorch takes them. */
      const UnaryOp *op = exponent == 2.0 ? &op_square : exponent == 0.5 ? &op_sqrt : &op_pow;

      return gnn_tensor_record (GNN_OP_POW, unary_op (op, self, exponent, error), &self, 1,
                                &(GnnOpParams) { .scalar = exponent });
    }

  if (!isfinite (exponent) || exponent != trunc (exponent))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "pow: the exponent %g is not an integer, so it cannot be applied to a "
                   "tensor of dtype %s (integer tensors are not promoted to floating point); "
                   "convert with to_dtype (FLOAT32) first", exponent, gnn_dtype_get_name (dtype));
      return NULL;
    }
  if (exponent < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Integers to negative integer powers are not allowed.");
      return NULL;
    }
  if (exponent >= 18446744073709551616.0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "pow: the exponent %g is too large for an integer tensor", exponent);
      return NULL;
    }
  return unary_op (&op_pow, self, exponent, error);
}

/**
 * gnn_tensor_relu_:
 * @self: the tensor to update, possibly a (non-contiguous) view
 * @error: return location for a #GError
 *
 * Replaces every element by `max (x, 0)` in place (like `self.relu_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set for an unsupported dtype or a
 *   tensor with overlapping elements (an expanded view)
 *
 * Since: 1.0
 */
gboolean
gnn_tensor_relu_ (GnnTensor *self,
                  GError   **error)
{
  GnnTensorPrivate *p;
  UnaryInplaceKernel kernel;
  const gint64 *strides[1];
  gsize size;
  GnnNdIter it;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("relu_", self, error, FALSE);
  p = gnn_tensor_priv (self);
  kernel = relu_inplace_kernels[p->dtype];
  if (!check_kernel ("relu_", p->dtype, kernel, error) ||
      !check_no_internal_overlap (p, error) ||
      !gnn_tensor_record_inplace (GNN_OP_RELU, self, NULL, error))
    return FALSE;

  size = gnn_dtype_get_size (p->dtype);
  strides[0] = p->strides;
  gnn_nditer_init (&it, p->shape, p->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    kernel (it.inner_size, gnn_tensor_priv_data (p) + it.offsets[0] * (gint64) size,
            it.inner_strides[0]);
  return TRUE;
}

/* --- comparisons, for gnn-tensor-compare.c ------------------------------ */

static const BinaryOp *const compare_ops[] = {
  [GNN_COMPARE_EQ] = &op_eq, [GNN_COMPARE_NE] = &op_ne, [GNN_COMPARE_LT] = &op_lt,
  [GNN_COMPARE_LE] = &op_le, [GNN_COMPARE_GT] = &op_gt, [GNN_COMPARE_GE] = &op_ge,
};

GnnTensor *
gnn_tensor_compare_op (GnnCompareOp   op,
                       GnnTensor     *a,
                       GnnTensor     *b,
                       GError       **error)
{
  return binary_op (compare_ops[op], a, b, error);
}

/* --- unary, for gnn-tensor-unary.c -------------------------------------- */

static const UnaryOp *const unary_ops[] = {
  [GNN_UNARY_RELU] = &op_relu, [GNN_UNARY_GELU] = &op_gelu, [GNN_UNARY_TANH] = &op_tanh,
  [GNN_UNARY_SIGMOID] = &op_sigmoid, [GNN_UNARY_EXP] = &op_exp, [GNN_UNARY_LOG] = &op_log,
  [GNN_UNARY_NEG] = &op_neg, [GNN_UNARY_ABS] = &op_abs, [GNN_UNARY_SQRT] = &op_sqrt,
};

GnnTensor *
gnn_tensor_unary_op (GnnUnaryOp   op,
                     GnnTensor   *self,
                     GError     **error)
{
  return unary_op (unary_ops[op], self, 0, error);
}

/* --- for the activations (gnn-activation-kernels.c) ---------------------- */

gboolean
gnn_check_no_internal_overlap (GnnTensorPrivate *p,
                               GError          **error)
{
  return check_no_internal_overlap (p, error);
}
