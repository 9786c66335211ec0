/* gnn-tensor-unary-kernels.c: the kernels and descriptors of the unary
 * elementwise ops (activations, math functions, rounding, tests) and
 * relu_'s in-place loop; their public functions are in gnn-tensor-unary.c
 * and gnn-tensor-unary-math.c
 *
 * Float-only functions compute integer and bool inputs in float32, as
 * torch's do (FLOAT_RESULT); single precision calls the float libm
 * functions, as PyTorch computes float32 in float32.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-nditer-private.h"
#include "core/gnn-special-math-private.h"

/* relu keeps NaN and -0.0 as PyTorch does (x < 0 is false for both). */
#define RELU_S(T, W, x, p) ((x) < 0 ? (T) 0 : (x))
#define RELU_U(T, W, x, p) (x)
#define NEG_F(T, W, x, p)  (-(x))
#define NEG_I(T, W, x, p)  ((T) (0 - (W) (x)))
#define ABS_F(T, W, x, p)  ((T) fabs (x))
#define ABS_S(T, W, x, p)  ((x) < 0 ? (T) (0 - (W) (x)) : (x))
#define ABS_U(T, W, x, p)  (x)
#define SQUARE_F(T, W, x, p) ((x) * (x))
#define SQUARE_I(T, W, x, p) ((T) ((W) (x) * (W) (x)))
#define SIGN_E(T, W, x, p) ((T) ((0 < (x)) - ((x) < 0)))
#define SAME_E(T, W, x, p) (x)

/* Exact GELU: x * Phi(x) = 0.5 x (1 + erf (x / sqrt 2)), torch's default. */
#define GELU_32(T, W, x, p)    (0.5f * (x) * (1.0f + erff ((x) * (float) G_SQRT2 * 0.5f)))
#define GELU_64(T, W, x, p)    (0.5 * (x) * (1.0 + erf ((x) * G_SQRT2 * 0.5)))
#define SIGMOID_32(T, W, x, p) (1.0f / (1.0f + expf (-(x))))
#define SIGMOID_64(T, W, x, p) (1.0 / (1.0 + exp (-(x))))
#define POW_32(T, W, x, p)     powf ((x), (float) (p))
#define POW_64(T, W, x, p)     pow ((x), (p))
#define RSQRT_32(T, W, x, p)   (1.0f / sqrtf (x))
#define RSQRT_64(T, W, x, p)   (1.0 / sqrt (x))
#define RECIP_32(T, W, x, p)   (1.0f / (x))
#define RECIP_64(T, W, x, p)   (1.0 / (x))
#define FRAC_32(T, W, x, p)    ((x) - truncf (x))
#define FRAC_64(T, W, x, p)    ((x) - trunc (x))
/* torch rounds halves to even */
#define ROUND_32(T, W, x, p)   nearbyintf (x)
#define ROUND_64(T, W, x, p)   nearbyint (x)
#define ISNAN_F(T, W, x, p)    ((guint8) ((x) != (x)))
#define ISINF_F(T, W, x, p)    ((guint8) (isinf (x) != 0))
#define ISFINITE_F(T, W, x, p) ((guint8) (isfinite (x) != 0))
#define FALSE_E(T, W, x, p)    ((guint8) 0)
#define TRUE_E(T, W, x, p)     ((guint8) 1)

/* One macro per libm function keeps the generators' EXPR (T, W, x, p) form. */
#define TANH_32(T, W, x, p)  tanhf (x)
#define TANH_64(T, W, x, p)  tanh (x)
#define EXP_32(T, W, x, p)   expf (x)
#define EXP_64(T, W, x, p)   exp (x)
#define LOG_32(T, W, x, p)   logf (x)
#define LOG_64(T, W, x, p)   log (x)
#define SQRT_32(T, W, x, p)  sqrtf (x)
#define SQRT_64(T, W, x, p)  sqrt (x)
#define SIN_32(T, W, x, p)   sinf (x)
#define SIN_64(T, W, x, p)   sin (x)
#define COS_32(T, W, x, p)   cosf (x)
#define COS_64(T, W, x, p)   cos (x)
#define TAN_32(T, W, x, p)   tanf (x)
#define TAN_64(T, W, x, p)   tan (x)
#define ASIN_32(T, W, x, p)  asinf (x)
#define ASIN_64(T, W, x, p)  asin (x)
#define ACOS_32(T, W, x, p)  acosf (x)
#define ACOS_64(T, W, x, p)  acos (x)
#define ATAN_32(T, W, x, p)  atanf (x)
#define ATAN_64(T, W, x, p)  atan (x)
#define SINH_32(T, W, x, p)  sinhf (x)
#define SINH_64(T, W, x, p)  sinh (x)
#define COSH_32(T, W, x, p)  coshf (x)
#define COSH_64(T, W, x, p)  cosh (x)
#define ASINH_32(T, W, x, p) asinhf (x)
#define ASINH_64(T, W, x, p) asinh (x)
#define ACOSH_32(T, W, x, p) acoshf (x)
#define ACOSH_64(T, W, x, p) acosh (x)
#define ATANH_32(T, W, x, p) atanhf (x)
#define ATANH_64(T, W, x, p) atanh (x)
#define LOG2_32(T, W, x, p)  log2f (x)
#define LOG2_64(T, W, x, p)  log2 (x)
#define LOG10_32(T, W, x, p) log10f (x)
#define LOG10_64(T, W, x, p) log10 (x)
#define LOG1P_32(T, W, x, p) log1pf (x)
#define LOG1P_64(T, W, x, p) log1p (x)
#define EXPM1_32(T, W, x, p) expm1f (x)
#define EXPM1_64(T, W, x, p) expm1 (x)
#define EXP2_32(T, W, x, p)  exp2f (x)
#define EXP2_64(T, W, x, p)  exp2 (x)
#define FLOOR_32(T, W, x, p) floorf (x)
#define FLOOR_64(T, W, x, p) floor (x)
#define CEIL_32(T, W, x, p)  ceilf (x)
#define CEIL_64(T, W, x, p)  ceil (x)
#define TRUNC_32(T, W, x, p) truncf (x)
#define TRUNC_64(T, W, x, p) trunc (x)
#define ERF_32(T, W, x, p)   erff (x)
#define ERF_64(T, W, x, p)   erf (x)
#define ERFC_32(T, W, x, p)  erfcf (x)
#define ERFC_64(T, W, x, p)  erfc (x)
#define LGAMMA_32(T, W, x, p) lgammaf_r_value (x)
#define LGAMMA_64(T, W, x, p) lgamma_r_value (x)
/* erfinv and digamma in double (torch's algorithms, core/gnn-special-math) */
#define ERFINV_E(T, W, x, p)  ((T) gnn_erfinv (x))
#define DIGAMMA_E(T, W, x, p) ((T) gnn_digamma (x))
/* logit: log (x / (1 - x)), x clamped to [eps, 1 - eps] when eps >= 0 */
#define LOGIT_E(T, W, x, p)   logit_value ((x), (p))

/* the reentrant lgamma: lgamma () writes the global signgam from every
 * thread of a parallel loop */
static inline float
lgammaf_r_value (float x)
{
  int sign;

  return lgammaf_r (x, &sign);
}

static inline double
lgamma_r_value (double x)
{
  int sign;

  return lgamma_r (x, &sign);
}

static inline double
logit_value (double x,
             double eps)
{
  if (eps >= 0)
    x = x < eps ? eps : x > 1 - eps ? 1 - eps : x;
  return log (x / (1 - x));
}

#define FLOAT_FN(op, E32, E64) GNN_GEN_F32_F64 (GNN_GEN_UNARY, op, E32, E64)

GNN_FOR_FLOATS (GNN_GEN_UNARY, relu, RELU_S)
GNN_FOR_SIGNED (GNN_GEN_UNARY, relu, RELU_S)
GNN_FOR_UNSIGNED (GNN_GEN_UNARY, relu, RELU_U)
GNN_FOR_FLOATS (GNN_GEN_UNARY, neg, NEG_F)
GNN_FOR_INTEGRAL (GNN_GEN_UNARY, neg, NEG_I)
GNN_FOR_FLOATS (GNN_GEN_UNARY, abs, ABS_F)
GNN_FOR_SIGNED (GNN_GEN_UNARY, abs, ABS_S)
GNN_FOR_UNSIGNED (GNN_GEN_UNARY, abs, ABS_U)
GNN_FOR_FLOATS (GNN_GEN_UNARY, square, SQUARE_F)
GNN_FOR_INTEGRAL (GNN_GEN_UNARY, square, SQUARE_I)
GNN_FOR_NUMERIC (GNN_GEN_UNARY, sign, SIGN_E)
GNN_FOR_BOOL (GNN_GEN_UNARY, sign, SAME_E)
GNN_FOR_INTEGRAL (GNN_GEN_UNARY, same, SAME_E)
FLOAT_FN (gelu, GELU_32, GELU_64)
FLOAT_FN (tanh, TANH_32, TANH_64)
FLOAT_FN (sigmoid, SIGMOID_32, SIGMOID_64)
FLOAT_FN (exp, EXP_32, EXP_64)
FLOAT_FN (log, LOG_32, LOG_64)
FLOAT_FN (sqrt, SQRT_32, SQRT_64)
FLOAT_FN (pow, POW_32, POW_64)
FLOAT_FN (sin, SIN_32, SIN_64)
FLOAT_FN (cos, COS_32, COS_64)
FLOAT_FN (tan, TAN_32, TAN_64)
FLOAT_FN (asin, ASIN_32, ASIN_64)
FLOAT_FN (acos, ACOS_32, ACOS_64)
FLOAT_FN (atan, ATAN_32, ATAN_64)
FLOAT_FN (sinh, SINH_32, SINH_64)
FLOAT_FN (cosh, COSH_32, COSH_64)
FLOAT_FN (asinh, ASINH_32, ASINH_64)
FLOAT_FN (acosh, ACOSH_32, ACOSH_64)
FLOAT_FN (atanh, ATANH_32, ATANH_64)
FLOAT_FN (log2, LOG2_32, LOG2_64)
FLOAT_FN (log10, LOG10_32, LOG10_64)
FLOAT_FN (log1p, LOG1P_32, LOG1P_64)
FLOAT_FN (expm1, EXPM1_32, EXPM1_64)
FLOAT_FN (exp2, EXP2_32, EXP2_64)
FLOAT_FN (rsqrt, RSQRT_32, RSQRT_64)
FLOAT_FN (reciprocal, RECIP_32, RECIP_64)
FLOAT_FN (floor, FLOOR_32, FLOOR_64)
FLOAT_FN (ceil, CEIL_32, CEIL_64)
FLOAT_FN (round, ROUND_32, ROUND_64)
FLOAT_FN (trunc, TRUNC_32, TRUNC_64)
FLOAT_FN (frac, FRAC_32, FRAC_64)
FLOAT_FN (erf, ERF_32, ERF_64)
FLOAT_FN (erfc, ERFC_32, ERFC_64)
FLOAT_FN (lgamma, LGAMMA_32, LGAMMA_64)
GNN_FOR_FLOATS (GNN_GEN_UNARY, erfinv, ERFINV_E)
GNN_FOR_FLOATS (GNN_GEN_UNARY, digamma, DIGAMMA_E)
GNN_FOR_FLOATS (GNN_GEN_UNARY, logit, LOGIT_E)
GNN_FOR_FLOATS (GNN_GEN_UNARY_TO_BOOL, isnan, ISNAN_F)
GNN_FOR_INTEGRAL (GNN_GEN_UNARY_TO_BOOL, isnan, FALSE_E)
GNN_FOR_BOOL (GNN_GEN_UNARY_TO_BOOL, isnan, FALSE_E)
GNN_FOR_FLOATS (GNN_GEN_UNARY_TO_BOOL, isinf, ISINF_F)
GNN_FOR_INTEGRAL (GNN_GEN_UNARY_TO_BOOL, isinf, FALSE_E)
GNN_FOR_BOOL (GNN_GEN_UNARY_TO_BOOL, isinf, FALSE_E)
GNN_FOR_FLOATS (GNN_GEN_UNARY_TO_BOOL, isfinite, ISFINITE_F)
GNN_FOR_INTEGRAL (GNN_GEN_UNARY_TO_BOOL, isfinite, TRUE_E)
GNN_FOR_BOOL (GNN_GEN_UNARY_TO_BOOL, isfinite, TRUE_E)

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

#define IPOW(T, W, x, p) ((T) ipow_wrap ((guint64) (gint64) (x), (guint64) (p)))

GNN_FOR_INTEGRAL (GNN_GEN_UNARY, pow, IPOW)

#define NUMERIC(id, op, flags) \
  [id] = { #op, #op "_cpu", flags, { GNN_TABLE_NUMERIC (op) } }
#define FLOATS(id, op, flags) \
  [id] = { #op, #op "_cpu", flags, { GNN_TABLE_FLOATS (op) } }
/* rounding keeps integers as they are */
#define ROUNDING(id, op) \
  [id] = { #op, #op "_cpu", 0, { GNN_TABLE_FLOATS (op), GNN_TABLE_INTEGRAL (same) } }
#define TEST(id, op) \
  [id] = { #op, #op "_cpu", GNN_EW_BOOL_OUT, \
           { GNN_TABLE_NUMERIC (op), GNN_TABLE_BOOL (op) } }

#define F GNN_EW_FLOAT_RESULT

static const GnnUnaryOp unary_ops[GNN_N_UNARY] = {
  NUMERIC (GNN_UNARY_RELU, relu, 0),
  FLOATS (GNN_UNARY_GELU, gelu, 0),
  FLOATS (GNN_UNARY_TANH, tanh, F),
  FLOATS (GNN_UNARY_SIGMOID, sigmoid, F),
  FLOATS (GNN_UNARY_EXP, exp, F),
  FLOATS (GNN_UNARY_LOG, log, F),
  NUMERIC (GNN_UNARY_NEG, neg, 0),
  NUMERIC (GNN_UNARY_ABS, abs, 0),
  FLOATS (GNN_UNARY_SQRT, sqrt, F),
  NUMERIC (GNN_UNARY_SQUARE, square, 0),
  NUMERIC (GNN_UNARY_POW, pow, 0),
  FLOATS (GNN_UNARY_SIN, sin, F),
  FLOATS (GNN_UNARY_COS, cos, F),
  FLOATS (GNN_UNARY_TAN, tan, F),
  FLOATS (GNN_UNARY_ASIN, asin, F),
  FLOATS (GNN_UNARY_ACOS, acos, F),
  FLOATS (GNN_UNARY_ATAN, atan, F),
  FLOATS (GNN_UNARY_SINH, sinh, F),
  FLOATS (GNN_UNARY_COSH, cosh, F),
  FLOATS (GNN_UNARY_ASINH, asinh, F),
  FLOATS (GNN_UNARY_ACOSH, acosh, F),
  FLOATS (GNN_UNARY_ATANH, atanh, F),
  FLOATS (GNN_UNARY_LOG2, log2, F),
  FLOATS (GNN_UNARY_LOG10, log10, F),
  FLOATS (GNN_UNARY_LOG1P, log1p, F),
  FLOATS (GNN_UNARY_EXPM1, expm1, F),
  FLOATS (GNN_UNARY_EXP2, exp2, F),
  FLOATS (GNN_UNARY_RSQRT, rsqrt, F),
  FLOATS (GNN_UNARY_RECIPROCAL, reciprocal, F),
  [GNN_UNARY_SIGN] = { "sign", "sign_cpu", 0, { GNN_TABLE_NUMERIC (sign), GNN_TABLE_BOOL (sign) } },
  ROUNDING (GNN_UNARY_FLOOR, floor),
  ROUNDING (GNN_UNARY_CEIL, ceil),
  ROUNDING (GNN_UNARY_ROUND, round),
  ROUNDING (GNN_UNARY_TRUNC, trunc),
  FLOATS (GNN_UNARY_FRAC, frac, 0),
  FLOATS (GNN_UNARY_ERF, erf, F),
  TEST (GNN_UNARY_ISNAN, isnan),
  TEST (GNN_UNARY_ISINF, isinf),
  TEST (GNN_UNARY_ISFINITE, isfinite),
  FLOATS (GNN_UNARY_ERFC, erfc, F),
  FLOATS (GNN_UNARY_ERFINV, erfinv, F),
  FLOATS (GNN_UNARY_LGAMMA, lgamma, F),
  FLOATS (GNN_UNARY_DIGAMMA, digamma, F),
  FLOATS (GNN_UNARY_LOGIT, logit, F),
};

#undef F

const GnnUnaryOp *
gnn_unary_op (GnnUnaryId id)
{
  return &unary_ops[id];
}

GnnTensor *
gnn_tensor_unary_op (GnnUnaryId   id,
                     GnnTensor   *self,
                     GError     **error)
{
  return gnn_ew_unary (&unary_ops[id], self, 0, error);
}

/* --- relu_: the in-place activation of every ReLU(inplace=True) ----------- */

#define RELU_IP_LOOP(name, T, W, EXPR)                                          \
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
GNN_DISPATCH_KERNEL (name, (gint64 n, void *s, gint64 ss), (n, s, ss))

GNN_FOR_FLOATS (RELU_IP_LOOP, relu_ip, RELU_S)
GNN_FOR_SIGNED (RELU_IP_LOOP, relu_ip, RELU_S)
GNN_FOR_UNSIGNED (RELU_IP_LOOP, relu_ip, RELU_U)

typedef void (*ReluInplaceKernel) (gint64 n, void *s, gint64 ss);

static const ReluInplaceKernel relu_inplace_kernels[GNN_N_DTYPES] = {
  GNN_TABLE_NUMERIC (relu_ip)
};

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
 * Since: 0.1
 */
gboolean
gnn_tensor_relu_ (GnnTensor *self,
                  GError   **error)
{
  GnnTensorPrivate *p;
  ReluInplaceKernel kernel;
  const gint64 *strides[1];
  gsize size;
  GnnNdIter it;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("relu_", self, error, FALSE);
  p = gnn_tensor_priv (self);
  kernel = relu_inplace_kernels[p->dtype];
  if (kernel == NULL)
    {
      if (p->dtype == GNN_DTYPE_F16 || p->dtype == GNN_DTYPE_BF16)
        {
          g_autoptr(GnnTensor) values = gnn_tensor_unary_op (GNN_UNARY_RELU, self, error);

          return values != NULL &&
                 gnn_ew_assign_ (self, values, GNN_OP_RELU, NULL, 0, NULL, error);
        }
      gnn_set_not_implemented (error, "clamp_min_cpu", p->dtype);
      return FALSE;
    }
  if (!gnn_check_no_internal_overlap (self, error) ||
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
