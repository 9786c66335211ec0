/* gnn-backward-rearrange.c: gradients of flip, roll, tril/triu and repeat
 * (each moves the gradient back the way the elements went)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

gboolean
gnn_backward_flip (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  TRY (grads[0] = gnn_tensor_flip (grad, node->params.dims, node->params.n_dims, error));
  return TRUE;
}

gboolean
gnn_backward_roll (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  gint64 back[G_N_ELEMENTS (node->params.ints)];

  for (guint i = 0; i < node->params.n_ints; i++)
    back[i] = -node->params.ints[i];
  TRY (grads[0] = gnn_tensor_roll (grad, back, node->params.n_ints, node->params.dims,
                                   node->params.n_dims, error));
  return TRUE;
}

gboolean
gnn_backward_triangle (GnnNode    *node,
                       GnnTensor  *grad,
                       GnnTensor **grads,
                       GError    **error)
{
  TRY (grads[0] = node->op == GNN_OP_TRIL ? gnn_tensor_tril (grad, node->params.start, error)
                                          : gnn_tensor_triu (grad, node->params.start, error));
  return TRUE;
}

/* The result is [r0 · s0, r1 · s1, ...]: view it as [r0, s0, r1, s1, ...]
 * and sum over the r dims. */
gboolean
gnn_backward_repeat (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  const GnnMeta *in = &node->inputs[0];
  guint n = node->params.n_ints, lead = n - in->ndim;
  gint64 shape2[GNN_MAX_DIMS];
  gint dims[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) tiles = NULL;
  g_autoptr(GnnTensor) summed = NULL;

  for (guint i = 0; i < n; i++)
    {
      shape2[2 * i] = node->params.ints[i];
      shape2[2 * i + 1] = i < lead ? 1 : in->shape[i - lead];
      dims[i] = (gint) (2 * i);
    }
  TRY (tiles = gnn_tensor_reshape (grad, shape2, 2 * n, error));
  TRY (summed = gnn_tensor_sum (tiles, dims, n, FALSE, error));
  TRY (grads[0] = gnn_tensor_reshape (summed, in->shape, in->ndim, error));
  return TRUE;
}
