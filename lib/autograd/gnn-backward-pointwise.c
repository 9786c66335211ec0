/* gnn-backward-pointwise.c: gradients of elementwise ops
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "autograd/gnn-autograd-private.h"
#include "core/gnn-special-math-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

gboolean
gnn_backward_add (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  for (guint i = 0; i < node->n_inputs; i++)
    if (gnn_node_needs_grad (node, i))
      TRY (grads[i] = gnn_ag_sum_to (grad, &node->inputs[i], error));
  return TRUE;
}

gboolean
gnn_backward_sub (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  if (gnn_node_needs_grad (node, 0))
    TRY (grads[0] = gnn_ag_sum_to (grad, &node->inputs[0], error));
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) neg = NULL;

      TRY (neg = gnn_tensor_neg (grad, error));
      TRY (grads[1] = gnn_ag_sum_to (neg, &node->inputs[1], error));
    }
  return TRUE;
}

gboolean
gnn_backward_mul (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  for (guint i = 0; i < 2; i++)
    if (gnn_node_needs_grad (node, i))
      {
        g_autoptr(GnnTensor) prod = NULL;

        TRY (prod = gnn_tensor_mul (grad, node->saved[1 - i], error));
        TRY (grads[i] = gnn_ag_sum_to (prod, &node->inputs[i], error));
      }
  return TRUE;
}

gboolean
gnn_backward_div (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  GnnTensor *a = node->saved[0], *b = node->saved[1];
  g_autoptr(GnnTensor) q = NULL;

  TRY (q = gnn_tensor_div (grad, b, error));           /* g / b */
  if (gnn_node_needs_grad (node, 0))
    TRY (grads[0] = gnn_ag_sum_to (q, &node->inputs[0], error));
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) qa = NULL;
      g_autoptr(GnnTensor) qab = NULL;
      g_autoptr(GnnTensor) neg = NULL;

      TRY (qa = gnn_tensor_mul (q, a, error));          /* -g a / b^2 */
      TRY (qab = gnn_tensor_div (qa, b, error));
      TRY (neg = gnn_tensor_neg (qab, error));
      TRY (grads[1] = gnn_ag_sum_to (neg, &node->inputs[1], error));
    }
  return TRUE;
}

gboolean
gnn_backward_mul_scalar (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  TRY (grads[0] = gnn_tensor_mul_scalar (grad, node->params.scalar, error));
  return TRUE;
}

gboolean
gnn_backward_neg (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  TRY (grads[0] = gnn_tensor_neg (grad, error));
  return TRUE;
}

/* d out / d v for the unary ops, from v (the input or the output, whichever
 * the op saved) */
static double
unary_derivative (GnnOpKind op,
                  double    v,
                  double    param)
{
  switch (op)
    {
    case GNN_OP_POW:
      return param == 0.0 ? 0.0 : param * pow (v, param - 1.0);
    case GNN_OP_RELU:
      return v > 0 ? 1.0 : 0.0;
    case GNN_OP_GELU:
      return 0.5 * (1.0 + erf (v * M_SQRT1_2)) + v * exp (-0.5 * v * v) * 0.5 * M_2_SQRTPI * M_SQRT1_2;
    case GNN_OP_TANH:
      return 1.0 - v * v;
    case GNN_OP_SIGMOID:
      return v * (1.0 - v);
    case GNN_OP_EXP:
      return v;
    case GNN_OP_LOG:
      return 1.0 / v;
    case GNN_OP_ABS:
      return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0;
    case GNN_OP_SQRT:
      return 0.5 / v;
    case GNN_OP_SIN:
      return cos (v);
    case GNN_OP_COS:
      return -sin (v);
    case GNN_OP_TAN:
      return 1.0 + tan (v) * tan (v);
    case GNN_OP_ASIN:
      return 1.0 / sqrt (1.0 - v * v);
    case GNN_OP_ACOS:
      return -1.0 / sqrt (1.0 - v * v);
    case GNN_OP_ATAN:
      return 1.0 / (1.0 + v * v);
    case GNN_OP_SINH:
      return cosh (v);
    case GNN_OP_COSH:
      return sinh (v);
    case GNN_OP_ASINH:
      return 1.0 / sqrt (v * v + 1.0);
    case GNN_OP_ACOSH:
      return 1.0 / sqrt (v * v - 1.0);
    case GNN_OP_ATANH:
      return 1.0 / (1.0 - v * v);
    case GNN_OP_LOG2:
      return 1.0 / (v * M_LN2);
    case GNN_OP_LOG10:
      return 1.0 / (v * M_LN10);
    case GNN_OP_LOG1P:
      return 1.0 / (1.0 + v);
    case GNN_OP_EXPM1:
      return exp (v);
    case GNN_OP_EXP2:
      return exp2 (v) * M_LN2;
    case GNN_OP_RSQRT:
      return -0.5 / (v * sqrt (v));
    case GNN_OP_RECIPROCAL:
      return -1.0 / (v * v);
    case GNN_OP_ERF:
      return M_2_SQRTPI * exp (-v * v);
    case GNN_OP_ERFC:
      return -M_2_SQRTPI * exp (-v * v);
    case GNN_OP_ERFINV:
      {
        double y = gnn_erfinv (v);

        return 0.5 * sqrt (G_PI) * exp (y * y);
      }
    case GNN_OP_LGAMMA:
      return gnn_digamma (v);
    case GNN_OP_DIGAMMA:
      return gnn_trigamma (v);
    case GNN_OP_LOGIT:
      /* torch's logit_backward: NaN outside [0, 1] without eps, 0 outside
       * [eps, 1 - eps] with it */
      if (param < 0)
        return v < 0 || v > 1 ? NAN : 1.0 / (v * (1.0 - v));
      return v < param || v > 1.0 - param ? 0.0 : 1.0 / (v * (1.0 - v));
    default:
      g_assert_not_reached ();
    }
}

#define UNARY_LOOP(T)                                                          \
  G_STMT_START {                                                               \
    const T *gv = (const T *) gnn_tensor_priv_data (gnn_tensor_priv (gc));     \
    const T *vv = (const T *) gnn_tensor_priv_data (gnn_tensor_priv (vc));     \
    T *o = (T *) gnn_tensor_priv_data (gnn_tensor_priv (out));                 \
    for (gint64 i = 0; i < n; i++)                                             \
      o[i] = (T) (gv[i] * unary_derivative (op, vv[i], param));                \
  } G_STMT_END

gboolean
gnn_backward_unary (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  GnnTensor *v = node->saved_out != NULL ? node->saved_out : node->saved[0];
  g_autoptr(GnnTensor) gc = gnn_tensor_contiguous_checked (grad, error);
  g_autoptr(GnnTensor) vc = gc != NULL ? gnn_tensor_contiguous_checked (v, error) : NULL;
  GnnOpKind op = node->op;
  double param = node->params.scalar;
  gint64 n;
  GnnTensor *out;

  if (vc == NULL)
    return FALSE;
  n = gnn_tensor_priv (vc)->numel;
  out = gnn_tensor_new_contiguous (node->inputs[0].dtype, node->inputs[0].shape,
                                   node->inputs[0].ndim, FALSE);

  /* the common ops through vectorized loops (gnn-backward-kernels.c) */
  if (!gnn_backward_unary_kernel (op, node->inputs[0].dtype, n,
                                  gnn_tensor_priv_data (gnn_tensor_priv (out)),
                                  gnn_tensor_priv_data (gnn_tensor_priv (gc)),
                                  gnn_tensor_priv_data (gnn_tensor_priv (vc))))
    {
      if (node->inputs[0].dtype == GNN_DTYPE_F32)
        UNARY_LOOP (float);
      else
        UNARY_LOOP (double);
    }
  grads[0] = out;
  return TRUE;
}

gboolean
gnn_backward_where (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  GnnTensor *cond = node->params.extra[0];
  g_autoptr(GnnTensor) zero = gnn_tensor_new_scalar (0.0, node->out.dtype);

  for (guint i = 0; i < 2; i++)
    if (gnn_node_needs_grad (node, i))
      {
        g_autoptr(GnnTensor) part = NULL;

        TRY (part = i == 0 ? gnn_tensor_where (cond, grad, zero, error)
                           : gnn_tensor_where (cond, zero, grad, error));
        TRY (grads[i] = gnn_ag_sum_to (part, &node->inputs[i], error));
      }
  return TRUE;
}
