/* gnn-activation-kernels.c: the loops of the activations with settings
 * (leaky_relu, elu/selu/celu, silu, mish, hardtanh/relu6, hardswish,
 * hardsigmoid, softplus, softsign, tanhshrink, threshold, gelu's tanh form,
 * hardshrink, softshrink, log_sigmoid) and their one driver
 *
 * Each activation is one expression EXPR (T, x, p) over an element x of
 * type T (float32 computed in float, as PyTorch does) and the op's
 * settings p (GnnOpParams.args, converted to T once per call). One
 * generator makes, per dtype, an out-of-place loop and an in-place loop
 * over contiguous memory, compiled for every CPU level (GNN_DISPATCH_KERNEL);
 * strided operands are packed first. Built with -O3.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-nn-ops-private.h"
#include "tensor/gnn-cpu-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-elementwise-private.h"

/* gcc if-converts the selects below only without trapping math (no code
 * here enables FP traps; results are unchanged). */
#pragma GCC optimize ("no-trapping-math")

/* The libm function of x's type: expf for float, exp for double. */
#define T_EXP(x)   _Generic ((x), float: expf, default: exp) (x)
#define T_EXPM1(x) _Generic ((x), float: expm1f, default: expm1) (x)
#define T_LOG1P(x) _Generic ((x), float: log1pf, default: log1p) (x)
#define T_TANH(x)  _Generic ((x), float: tanhf, default: tanh) (x)
#define T_FABS(x)  _Generic ((x), float: fabsf, default: fabs) (x)

/* Settings, as T: p0 .. p3. */
typedef struct { float v[4]; } ArgsF32;
typedef struct { double v[4]; } ArgsF64;

#define ACTIVATION_LOOPS_T(NAME, TAG, T, ARGS, EXPR)                           \
GNN_KERNEL_INLINE void                                                          \
NAME##_##TAG##_typed (gint64 n, T *restrict o, const T *restrict a,             \
                      const ARGS *args)                                         \
{                                                                               \
  const T p0 = args->v[0], p1 = args->v[1], p2 = args->v[2], p3 = args->v[3];   \
  (void) p0; (void) p1; (void) p2; (void) p3;                                   \
  for (gint64 i = 0; i < n; i++)                                                \
    {                                                                           \
      const T x = a[i];                                                         \
      o[i] = (EXPR);                                                            \
    }                                                                           \
}                                                                               \
GNN_DISPATCH_KERNEL (NAME##_##TAG, (gint64 n, T *o, const T *a, const ARGS *args),  \
                 (n, o, a, args))                                               \
GNN_KERNEL_INLINE void                                                          \
NAME##_ip_##TAG##_typed (gint64 n, T *restrict s, const ARGS *args)             \
{                                                                               \
  const T p0 = args->v[0], p1 = args->v[1], p2 = args->v[2], p3 = args->v[3];   \
  (void) p0; (void) p1; (void) p2; (void) p3;                                   \
  for (gint64 i = 0; i < n; i++)                                                \
    {                                                                           \
      const T x = s[i];                                                         \
      s[i] = (EXPR);                                                            \
    }                                                                           \
}                                                                               \
GNN_DISPATCH_KERNEL (NAME##_ip_##TAG, (gint64 n, T *s, const ARGS *args), (n, s, args))

#define ACTIVATION_LOOPS(NAME, EXPR)                                            \
  ACTIVATION_LOOPS_T (NAME, f32, float, ArgsF32, EXPR)                          \
  ACTIVATION_LOOPS_T (NAME, f64, double, ArgsF64, EXPR)

/* PyTorch's CPU formulas (aten/src/ATen/native/cpu/Activation.cpp). The
 * comparisons keep NaN: a NaN input falls through to the branch that
 * returns x or a function of it. */
ACTIVATION_LOOPS (leaky_relu, x > 0 ? x : x * p0)
/* p0 = alpha * scale, p1 = scale, p2 = input scale (elu, selu, celu) */
ACTIVATION_LOOPS (elu, x <= 0 ? T_EXPM1 (x * p2) * p0 : x * p1)
ACTIVATION_LOOPS (silu, x / (1 + T_EXP (-x)))
ACTIVATION_LOOPS (mish, x * T_TANH (T_LOG1P (T_EXP (x))))
ACTIVATION_LOOPS (hardtanh, x < p0 ? p0 : x > p1 ? p1 : x)
ACTIVATION_LOOPS (hardswish, x * (x + 3 < 0 ? 0 : x + 3 > 6 ? 6 : x + 3) / 6)
ACTIVATION_LOOPS (hardsigmoid, (x + 3 < 0 ? 0 : x + 3 > 6 ? 6 : x + 3) / 6)
/* p0 = beta, p1 = threshold */
ACTIVATION_LOOPS (softplus, x * p0 > p1 ? x : T_LOG1P (T_EXP (x * p0)) / p0)
ACTIVATION_LOOPS (softsign, x / (1 + T_FABS (x)))
ACTIVATION_LOOPS (tanhshrink, x - T_TANH (x))
/* p0 = threshold, p1 = value */
ACTIVATION_LOOPS (threshold, x <= p0 ? p1 : x)
/* p0 = sqrt (2 / pi), p1 = 0.044715 */
ACTIVATION_LOOPS (gelu_tanh, 0.5f * x * (1 + T_TANH (p0 * (x + p1 * x * x * x))))
/* p0 = lambd; a NaN is kept by hardshrink and zeroed by softshrink, as
 * PyTorch's vectorized loops (the ones most elements take) do */
ACTIVATION_LOOPS (hardshrink, x >= -p0 && x <= p0 ? 0 : x)
ACTIVATION_LOOPS (softshrink, x > p0 ? x - p0 : x < -p0 ? x + p0 : 0)
ACTIVATION_LOOPS (log_sigmoid, (x < 0 ? x : 0) - T_LOG1P (T_EXP (-T_FABS (x))))

typedef void (*LoopF32)   (gint64 n, float *o, const float *a, const ArgsF32 *args);
typedef void (*LoopF64)   (gint64 n, double *o, const double *a, const ArgsF64 *args);
typedef void (*LoopIpF32) (gint64 n, float *s, const ArgsF32 *args);
typedef void (*LoopIpF64) (gint64 n, double *s, const ArgsF64 *args);

typedef struct
{
  const char *kernel_name;   /* PyTorch's, for dtype errors: "leaky_relu_cpu" */
  LoopF32     f32;
  LoopF64     f64;
  LoopIpF32   ip_f32;
  LoopIpF64   ip_f64;
} Activation;

#define ACTIVATION(op, name, kernel) \
  [op - GNN_OP_LEAKY_RELU] = { kernel, name##_f32, name##_f64, name##_ip_f32, name##_ip_f64 }

static const Activation activations[] = {
  ACTIVATION (GNN_OP_LEAKY_RELU, leaky_relu, "leaky_relu_cpu"),
  ACTIVATION (GNN_OP_ELU, elu, "elu_cpu"),
  ACTIVATION (GNN_OP_CELU, elu, "elu_cpu"),
  ACTIVATION (GNN_OP_SILU, silu, "silu_cpu"),
  ACTIVATION (GNN_OP_MISH, mish, "mish_cpu"),
  ACTIVATION (GNN_OP_HARDTANH, hardtanh, "hardtanh_cpu"),
  ACTIVATION (GNN_OP_HARDSWISH, hardswish, "hardswish_cpu"),
  ACTIVATION (GNN_OP_HARDSIGMOID, hardsigmoid, "hardsigmoid_cpu"),
  ACTIVATION (GNN_OP_SOFTPLUS, softplus, "softplus_cpu"),
  ACTIVATION (GNN_OP_SOFTSIGN, softsign, "softsign_cpu"),
  ACTIVATION (GNN_OP_TANHSHRINK, tanhshrink, "tanhshrink_cpu"),
  ACTIVATION (GNN_OP_THRESHOLD, threshold, "threshold_cpu"),
  ACTIVATION (GNN_OP_GELU_TANH, gelu_tanh, "GeluKernelImpl"),
  ACTIVATION (GNN_OP_HARDSHRINK, hardshrink, "hardshrink_cpu"),
  ACTIVATION (GNN_OP_SOFTSHRINK, softshrink, "softshrink_cpu"),
  ACTIVATION (GNN_OP_LOG_SIGMOID, log_sigmoid, "log_sigmoid_cpu"),
};

G_STATIC_ASSERT (G_N_ELEMENTS (activations) == GNN_OP_LOG_SIGMOID - GNN_OP_LEAKY_RELU + 1);

static const Activation *
lookup (GnnOpKind  op,
        GnnTensor *self,
        GError   **error)
{
  const Activation *act;

  g_return_val_if_fail (op >= GNN_OP_LEAKY_RELU && op <= GNN_OP_LOG_SIGMOID, NULL);
  act = &activations[op - GNN_OP_LEAKY_RELU];
  return gnn_check_float_dtype (act->kernel_name, self, error) ? act : NULL;
}

static void
run (const Activation *act,
     GnnDType          dtype,
     gint64            n,
     gpointer          out,
     gconstpointer     in,
     const double     *args)
{
  if (dtype == GNN_DTYPE_F32)
    {
      ArgsF32 a = { { (float) args[0], (float) args[1], (float) args[2], (float) args[3] } };

      if (out == in)
        act->ip_f32 (n, out, &a);
      else
        act->f32 (n, out, in, &a);
    }
  else
    {
      ArgsF64 a = { { args[0], args[1], args[2], args[3] } };

      if (out == in)
        act->ip_f64 (n, out, &a);
      else
        act->f64 (n, out, in, &a);
    }
}

static GnnOpParams
params_of (const double *args)
{
  GnnOpParams params = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (params.args); i++)
    params.args[i] = args[i];
  return params;
}

GnnTensor *
gnn_tensor_activation (GnnOpKind      op,
                       GnnTensor     *self,
                       const double  *args,
                       GError       **error)
{
  const Activation *act = lookup (op, self, error);
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) in = NULL;
  GnnTensor *out;
  GnnOpParams params = params_of (args);

  if (act == NULL || (in = gnn_tensor_contiguous_checked (self, error)) == NULL)
    return NULL;
  out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  run (act, p->dtype, p->numel, gnn_tensor_priv_data (gnn_tensor_priv (out)),
       gnn_tensor_priv_data (gnn_tensor_priv (in)), args);
  return gnn_tensor_record (op, out, &self, 1, &params);
}

gboolean
gnn_tensor_activation_ (GnnOpKind      op,
                        GnnTensor     *self,
                        const double  *args,
                        GError       **error)
{
  const Activation *act = lookup (op, self, error);
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnOpParams params = params_of (args);
  g_autoptr(GnnTensor) packed = NULL;

  if (act == NULL || !gnn_check_no_internal_overlap (self, error) ||
      !gnn_tensor_record_inplace_full (op, self, NULL, 0, &params, error))
    return FALSE;
  if (gnn_tensor_is_contiguous (self))
    {
      run (act, p->dtype, p->numel, gnn_tensor_priv_data (p), gnn_tensor_priv_data (p), args);
      return TRUE;
    }
  /* a strided view: through a packed copy, written back */
  if ((packed = gnn_tensor_copy_checked (self, p->dtype, error)) == NULL)
    return FALSE;
  run (act, p->dtype, p->numel, gnn_tensor_priv_data (gnn_tensor_priv (packed)),
       gnn_tensor_priv_data (gnn_tensor_priv (packed)), args);
  return gnn_tensor_write_values_ (self, packed, error);
}
