/* gnn-backward-reduce.c: gradients of reductions and softmax
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

/* @grad (the reduction's output gradient) reshaped so that it broadcasts
 * against the input: reduced dims put back as size 1. */
GnnTensor *
gnn_ag_grad_keepdim (GnnNode   *node,
              GnnTensor *grad,
              GError   **error)
{
  const GnnMeta *in = &node->inputs[0];
  gint64 shape[GNN_MAX_DIMS];
  gboolean reduce[GNN_MAX_DIMS] = { FALSE, };

  if (node->params.keepdim)
    return g_object_ref (grad);
  for (guint d = 0; d < in->ndim; d++)
    reduce[d] = node->params.n_dims == 0;
  for (guint i = 0; i < node->params.n_dims; i++)
    {
      guint d;

      if (gnn_wrap_dim (node->params.dims[i], in->ndim, &d, NULL))
        reduce[d] = TRUE;
    }
  for (guint d = 0; d < in->ndim; d++)
    shape[d] = reduce[d] ? 1 : in->shape[d];
  return gnn_tensor_reshape (grad, shape, in->ndim, error);
}

static GnnTensor *
expand_to_input (GnnNode   *node,
                 GnnTensor *g,
                 GError   **error)
{
  g_autoptr(GnnTensor) e = NULL;

  TRY (e = gnn_tensor_expand (g, node->inputs[0].shape, node->inputs[0].ndim, error));
  return gnn_tensor_contiguous_checked (e, error);
}

gboolean
gnn_backward_sum (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  g_autoptr(GnnTensor) g = NULL;

  TRY (g = gnn_ag_grad_keepdim (node, grad, error));
  TRY (grads[0] = expand_to_input (node, g, error));
  return TRUE;
}

gboolean
gnn_backward_mean (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) scaled = NULL;
  gint64 in_numel = 1, out_numel = 1;

  for (guint d = 0; d < node->inputs[0].ndim; d++)
    in_numel *= node->inputs[0].shape[d];
  for (guint d = 0; d < node->out.ndim; d++)
    out_numel *= node->out.shape[d];
  TRY (g = gnn_ag_grad_keepdim (node, grad, error));
  TRY (scaled = gnn_tensor_mul_scalar (g, out_numel > 0 ? (double) out_numel / (double) in_numel : 0.0,
                                       error));
  TRY (grads[0] = expand_to_input (node, scaled, error));
  return TRUE;
}

/* max/min (amax/amin): the gradient is shared evenly by the elements equal
 * to the extreme value, as in PyTorch. */
gboolean
gnn_backward_max (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) hit = NULL;
  g_autoptr(GnnTensor) mask = NULL;
  g_autoptr(GnnTensor) count = NULL;
  g_autoptr(GnnTensor) share = NULL;
  g_autoptr(GnnTensor) masked = NULL;
  GnnNode keep = *node;

  TRY (g = gnn_ag_grad_keepdim (node, grad, error));
  TRY (y = gnn_ag_grad_keepdim (node, node->saved_out, error));
  TRY (hit = gnn_tensor_eq (node->saved[0], y, error));
  TRY (mask = gnn_tensor_to_dtype (hit, node->inputs[0].dtype, error));
  keep.params.keepdim = TRUE;
  TRY (count = gnn_tensor_sum (mask, keep.params.dims, keep.params.n_dims, TRUE, error));
  TRY (share = gnn_tensor_div (g, count, error));
  TRY (masked = gnn_tensor_mul (mask, share, error));
  grads[0] = g_steal_pointer (&masked);
  return TRUE;
}

/* softmax: dx = y * (g - sum (g * y)) */
gboolean
gnn_backward_softmax (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  GnnTensor *y = node->saved_out;
  gint dim = node->params.dim;
  g_autoptr(GnnTensor) gy = NULL;
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) d = NULL;

  TRY (gy = gnn_tensor_mul (grad, y, error));
  TRY (s = gnn_tensor_sum (gy, &dim, 1, TRUE, error));
  TRY (d = gnn_tensor_sub (grad, s, error));
  TRY (grads[0] = gnn_tensor_mul (y, d, error));
  return TRUE;
}

/* log_softmax: dx = g - exp (y) * sum (g) */
gboolean
gnn_backward_log_softmax (GnnNode    *node,
                          GnnTensor  *grad,
                          GnnTensor **grads,
                          GError    **error)
{
  gint dim = node->params.dim;
  g_autoptr(GnnTensor) p = NULL;
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) ps = NULL;

  TRY (p = gnn_tensor_exp (node->saved_out, error));
  TRY (s = gnn_tensor_sum (grad, &dim, 1, TRUE, error));
  TRY (ps = gnn_tensor_mul (p, s, error));
  TRY (grads[0] = gnn_tensor_sub (grad, ps, error));
  return TRUE;
}
