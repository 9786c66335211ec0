/* gnn-backward-activation.c: gradients of the activations with settings
 * (lib/tensor/gnn-activation-kernels.c), of glu and of prelu
 *
 * grad_in = grad_out × f'(x), x the saved input widened to double and
 * p the op's settings (GnnOpParams.args); one loop per activation and
 * dtype over contiguous memory, compiled for every CPU level
 * (GNN_DISPATCH_KERNEL). Built with -O3.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-cpu-private.h"

#pragma GCC optimize ("no-trapping-math")

#define DERIVATIVE_LOOP_T(NAME, TAG, T, DERIV)                                  \
GNN_KERNEL_INLINE void                                                          \
NAME##_##TAG##_typed (gint64 n, T *restrict o, const T *restrict g,             \
                      const T *restrict v, const double *args)                  \
{                                                                               \
  const double p0 = args[0], p1 = args[1], p2 = args[2];                        \
  (void) p0; (void) p1; (void) p2;                                              \
  for (gint64 i = 0; i < n; i++)                                                \
    {                                                                           \
      const double x = v[i];                                                    \
      o[i] = (T) ((double) g[i] * (DERIV));                                     \
    }                                                                           \
}                                                                               \
GNN_DISPATCH_KERNEL (NAME##_##TAG, (gint64 n, T *o, const T *g, const T *v,     \
                                const double *args), (n, o, g, v, args))

#define DERIVATIVE_LOOPS(NAME, DERIV)                                           \
  DERIVATIVE_LOOP_T (NAME, f32, float, DERIV)                                   \
  DERIVATIVE_LOOP_T (NAME, f64, double, DERIV)

static inline double
sigmoid (double x)
{
  return 1.0 / (1.0 + exp (-x));
}

/* d tanh (softplus (x)) x / dx */
static inline double
mish_derivative (double x)
{
  double t = tanh (log1p (exp (x))), s = sigmoid (x);

  return t + x * s * (1.0 - t * t);
}

/* PyTorch's gelu backward with approximate='tanh'; p0 = sqrt (2 / pi),
 * p1 = 0.044715. */
static inline double
gelu_tanh_derivative (double x,
                      double beta,
                      double kappa)
{
  double inner = beta * (x + kappa * x * x * x), t = tanh (inner);

  return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * beta * (1.0 + 3.0 * kappa * x * x);
}

/* The settings are those of the forward (gnn-activation-kernels.c). */
DERIVATIVE_LOOPS (leaky_relu, x > 0 ? 1.0 : p0)
DERIVATIVE_LOOPS (elu, x <= 0 ? p2 * p0 * exp (x * p2) : p1)
DERIVATIVE_LOOPS (silu, sigmoid (x) * (1.0 + x * (1.0 - sigmoid (x))))
DERIVATIVE_LOOPS (mish, mish_derivative (x))
DERIVATIVE_LOOPS (hardtanh, x <= p0 || x >= p1 ? 0.0 : 1.0)
/* at x = 3 PyTorch's vectorized loop (the one most elements take) gives 1 */
DERIVATIVE_LOOPS (hardswish, x < -3 ? 0.0 : x < 3 ? x / 3 + 0.5 : 1.0)
DERIVATIVE_LOOPS (hardsigmoid, x > -3 && x < 3 ? 1.0 / 6 : 0.0)
DERIVATIVE_LOOPS (softplus, x * p0 > p1 ? 1.0 : 1.0 - 1.0 / (1.0 + exp (x * p0)))
DERIVATIVE_LOOPS (softsign, 1.0 / ((1.0 + fabs (x)) * (1.0 + fabs (x))))
DERIVATIVE_LOOPS (tanhshrink, tanh (x) * tanh (x))
DERIVATIVE_LOOPS (threshold, x <= p0 ? 0.0 : 1.0)
DERIVATIVE_LOOPS (gelu_tanh, gelu_tanh_derivative (x, p0, p1))
/* p0 = lambd (hardshrink, softshrink) */
DERIVATIVE_LOOPS (shrink, x >= -p0 && x <= p0 ? 0.0 : 1.0)
DERIVATIVE_LOOPS (log_sigmoid, 1.0 / (1.0 + exp (x)))

typedef void (*LoopF32) (gint64 n, float *o, const float *g, const float *v, const double *args);
typedef void (*LoopF64) (gint64 n, double *o, const double *g, const double *v,
                         const double *args);

typedef struct
{
  LoopF32 f32;
  LoopF64 f64;
} Derivative;

#define DERIVATIVE(op, name) [op - GNN_OP_LEAKY_RELU] = { name##_f32, name##_f64 }

static const Derivative derivatives[] = {
  DERIVATIVE (GNN_OP_LEAKY_RELU, leaky_relu),
  DERIVATIVE (GNN_OP_ELU, elu),
  DERIVATIVE (GNN_OP_CELU, elu),
  DERIVATIVE (GNN_OP_SILU, silu),
  DERIVATIVE (GNN_OP_MISH, mish),
  DERIVATIVE (GNN_OP_HARDTANH, hardtanh),
  DERIVATIVE (GNN_OP_HARDSWISH, hardswish),
  DERIVATIVE (GNN_OP_HARDSIGMOID, hardsigmoid),
  DERIVATIVE (GNN_OP_SOFTPLUS, softplus),
  DERIVATIVE (GNN_OP_SOFTSIGN, softsign),
  DERIVATIVE (GNN_OP_TANHSHRINK, tanhshrink),
  DERIVATIVE (GNN_OP_THRESHOLD, threshold),
  DERIVATIVE (GNN_OP_GELU_TANH, gelu_tanh),
  DERIVATIVE (GNN_OP_HARDSHRINK, shrink),
  DERIVATIVE (GNN_OP_SOFTSHRINK, shrink),
  DERIVATIVE (GNN_OP_LOG_SIGMOID, log_sigmoid),
};

G_STATIC_ASSERT (G_N_ELEMENTS (derivatives) == GNN_OP_LOG_SIGMOID - GNN_OP_LEAKY_RELU + 1);

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

static gpointer
data_of (GnnTensor *t)
{
  return gnn_tensor_priv_data (gnn_tensor_priv (t));
}

gboolean
gnn_backward_activation (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  const Derivative *d = &derivatives[node->op - GNN_OP_LEAKY_RELU];
  const GnnMeta *m = &node->inputs[0];
  g_autoptr(GnnTensor) gc = NULL;
  g_autoptr(GnnTensor) vc = NULL;
  GnnTensor *out;
  gint64 n;

  TRY (gc = gnn_tensor_contiguous_checked (grad, error));
  TRY (vc = gnn_tensor_contiguous_checked (node->saved[0], error));
  TRY (out = gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, FALSE, error));
  n = gnn_tensor_priv (out)->numel;
  if (m->dtype == GNN_DTYPE_F32)
    d->f32 (n, data_of (out), data_of (gc), data_of (vc), node->params.args);
  else
    d->f64 (n, data_of (out), data_of (gc), data_of (vc), node->params.args);
  grads[0] = out;
  return TRUE;
}

/* --- glu ------------------------------------------------------------------- */

#define GLU_BACKWARD_LOOP(T)                                                    \
  G_STMT_START {                                                                \
    const T *x = data_of (xc), *g = data_of (gc);                               \
    T *restrict gx = data_of (out);                                             \
    for (gint64 o = 0; o < outer; o++)                                          \
      {                                                                         \
        const T *a = x + o * 2 * half, *b = a + half, *go = g + o * half;       \
        T *ga = gx + o * 2 * half, *gb = ga + half;                             \
        for (gint64 k = 0; k < half; k++)                                       \
          {                                                                     \
            double s = sigmoid (b[k]);                                          \
            ga[k] = (T) (go[k] * s);                                            \
            gb[k] = (T) (go[k] * a[k] * s * (1.0 - s));                         \
          }                                                                     \
      }                                                                         \
  } G_STMT_END

gboolean
gnn_backward_glu (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  const GnnMeta *m = &node->inputs[0];
  guint dim = (guint) node->params.dim;
  gint64 outer = 1, half = m->shape[dim] / 2;
  g_autoptr(GnnTensor) gc = NULL;
  g_autoptr(GnnTensor) xc = NULL;
  GnnTensor *out;

  for (guint k = 0; k < dim; k++)
    outer *= m->shape[k];
  for (guint k = dim + 1; k < m->ndim; k++)
    half *= m->shape[k];          /* one half of a row, all inner elements */
  TRY (gc = gnn_tensor_contiguous_checked (grad, error));
  TRY (xc = gnn_tensor_contiguous_checked (node->saved[0], error));
  TRY (out = gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, FALSE, error));
  if (m->dtype == GNN_DTYPE_F32)
    GLU_BACKWARD_LOOP (float);
  else
    GLU_BACKWARD_LOOP (double);
  grads[0] = out;
  return TRUE;
}

/* --- prelu ----------------------------------------------------------------- */

#define PRELU_BACKWARD_LOOP(T)                                                  \
  G_STMT_START {                                                                \
    const T *x = data_of (xc), *w = data_of (wc), *g = data_of (gc);            \
    T *gx = want_x ? data_of (gxt) : NULL;                                      \
    for (gint64 o = 0; o < outer; o++)                                          \
      for (gint64 c = 0; c < channels; c++)                                     \
        {                                                                       \
          const double slope = w[wn == 1 ? 0 : c];                              \
          const gint64 base = (o * channels + c) * inner;                       \
          double acc = 0;                                                       \
          for (gint64 k = base; k < base + inner; k++)                          \
            {                                                                   \
              if (gx != NULL)                                                   \
                gx[k] = (T) (x[k] > 0 ? g[k] : slope * g[k]);                   \
              acc += x[k] > 0 ? 0.0 : (double) x[k] * g[k];                     \
            }                                                                   \
          gw[wn == 1 ? 0 : c] += acc;                                           \
        }                                                                       \
  } G_STMT_END

gboolean
gnn_backward_prelu (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  const GnnMeta *m = &node->inputs[0], *wm = &node->inputs[1];
  gboolean want_x = gnn_node_needs_grad (node, 0), want_w = gnn_node_needs_grad (node, 1);
  gint64 wn = wm->ndim == 0 ? 1 : wm->shape[0], outer = 1, inner = 1, channels = 1;
  g_autoptr(GnnTensor) gc = NULL;
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) wc = NULL;
  g_autoptr(GnnTensor) gxt = NULL;
  g_autofree double *gw = g_new0 (double, wn);

  if (m->ndim > 1)
    {
      outer = m->shape[0];
      channels = m->shape[1];
      for (guint k = 2; k < m->ndim; k++)
        inner *= m->shape[k];
    }
  else
    for (guint k = 0; k < m->ndim; k++)
      inner *= m->shape[k];
  TRY (gc = gnn_tensor_contiguous_checked (grad, error));
  TRY (xc = gnn_tensor_contiguous_checked (node->saved[0], error));
  TRY (wc = gnn_tensor_contiguous_checked (node->saved[1], error));
  if (want_x)
    TRY (gxt = gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, FALSE, error));
  if (gnn_tensor_priv (xc)->numel > 0)
    {
      if (m->dtype == GNN_DTYPE_F32)
        PRELU_BACKWARD_LOOP (float);
      else
        PRELU_BACKWARD_LOOP (double);
    }
  grads[0] = g_steal_pointer (&gxt);
  if (want_w)
    grads[1] = gnn_ag_from_doubles (g_steal_pointer (&gw), wm);
  return TRUE;
}
