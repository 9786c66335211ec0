/* gnn-backward-kernels.c: vectorized derivative loops of the common
 * elementwise backward passes (relu, tanh, sigmoid, exp, abs)
 *
 * grad_in = grad_out * f'(v), with v the saved input or output. Each loop
 * computes, per element, exactly what the generic path of
 * gnn-backward-pointwise.c computes (the operands widened to double, one
 * product, rounded once), so results do not depend on the path; the
 * loops are written without calls or a switch so that gcc vectorizes them,
 * and GNN_DISPATCH_KERNEL compiles them for every CPU level. Built with -O3
 * (a kernel source of lib/autograd/meson.build).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-cpu-private.h"
#include "tensor/gnn-parallel-private.h"

/* gcc turns g * (x > 0) into a branch (g, or g * 0 for the sign of zero)
 * and under the default -ftrapping-math will not if-convert that product
 * back: allow it (no code here enables FP traps; results are unchanged). */
#pragma GCC optimize ("no-trapping-math")

/* One loop per dtype; x is the saved value widened to double. */
#define DERIVATIVE_LOOP(NAME, TAG, T, DERIV)                                    \
GNN_KERNEL_INLINE void                                                          \
NAME##_##TAG##_typed (gint64 n, T *restrict o, const T *restrict g,             \
                      const T *restrict v)                                      \
{                                                                               \
  for (gint64 i = 0; i < n; i++)                                                \
    {                                                                           \
      double x = v[i];                                                          \
      o[i] = (T) ((double) g[i] * (DERIV));                                     \
    }                                                                           \
}                                                                               \
GNN_DISPATCH_KERNEL (NAME##_##TAG, (gint64 n, T *o, const T *g, const T *v), (n, o, g, v))

#define DERIVATIVE_LOOPS(NAME, DERIV)                                           \
  DERIVATIVE_LOOP (NAME, f32, float, DERIV)                                     \
  DERIVATIVE_LOOP (NAME, f64, double, DERIV)

/* The same derivatives as unary_derivative () in gnn-backward-pointwise.c,
 * the comparisons converted to 0.0 / 1.0. */
DERIVATIVE_LOOPS (relu_backward, (double) (x > 0))
DERIVATIVE_LOOPS (tanh_backward, 1.0 - x * x)
DERIVATIVE_LOOPS (sigmoid_backward, x * (1.0 - x))
DERIVATIVE_LOOPS (exp_backward, x)
DERIVATIVE_LOOPS (abs_backward, (double) (x > 0) - (double) (x < 0))

#define DISPATCH_OP(NAME)                                                       \
  if (j->dtype == GNN_DTYPE_F32)                                                \
    NAME##_f32 (n, (float *) j->o + i0, (const float *) j->g + i0,              \
                (const float *) j->v + i0);                                     \
  else                                                                          \
    NAME##_f64 (n, (double *) j->o + i0, (const double *) j->g + i0,            \
                (const double *) j->v + i0);                                    \
  return

typedef struct
{
  GnnOpKind op;
  GnnDType dtype;
  gpointer o;
  gconstpointer g, v;
} DerivativeJob;

/* Elements [i0, i1): ranges of an elementwise loop, the same bits however
 * it is split among the threads. */
static void
derivative_range (gint64   i0,
                  gint64   i1,
                  gpointer data)
{
  const DerivativeJob *j = data;
  gint64 n = i1 - i0;

  switch (j->op)
    {
    case GNN_OP_RELU: DISPATCH_OP (relu_backward);
    case GNN_OP_TANH: DISPATCH_OP (tanh_backward);
    case GNN_OP_SIGMOID: DISPATCH_OP (sigmoid_backward);
    case GNN_OP_EXP: DISPATCH_OP (exp_backward);
    case GNN_OP_ABS: DISPATCH_OP (abs_backward);
    default: g_assert_not_reached ();
    }
}

gboolean
gnn_backward_unary_kernel (GnnOpKind   op,
                           GnnDType    dtype,
                           gint64      n,
                           gpointer    o,
                           gconstpointer g,
                           gconstpointer v)
{
  if (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64)
    return FALSE;
  switch (op)
    {
    case GNN_OP_RELU:
    case GNN_OP_TANH:
    case GNN_OP_SIGMOID:
    case GNN_OP_EXP:
    case GNN_OP_ABS:
      /* a large activation's gradient: split by elements (ReLU's ran */
      /* on the caller alone in a 2-thread ResNet-18 step)            */
      gnn_parallel_for (n, GNN_PARALLEL_GRAIN_ELEMS, derivative_range,
                        &(DerivativeJob) { op, dtype, o, g, v });
      return TRUE;
    default:
      return FALSE;
    }
}
