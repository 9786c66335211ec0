/* gnn-backward-view.c: gradients of views, copies and index_select
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

/* view, reshape, flatten, squeeze, unsqueeze */
gboolean
gnn_backward_reshape (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  TRY (grads[0] = gnn_tensor_reshape (grad, node->inputs[0].shape, node->inputs[0].ndim, error));
  return TRUE;
}

/* narrow and select: the gradient lands in a zero tensor's slice */
static gboolean
scatter_into_zeros (GnnNode    *node,
                    GnnTensor  *grad,
                    gboolean    narrow,
                    GnnTensor **out,
                    GError    **error)
{
  g_autoptr(GnnTensor) zeros = gnn_ag_zeros (&node->inputs[0]);
  g_autoptr(GnnTensor) slice = NULL;

  if (narrow)
    {
      gint d = node->params.dim < 0 ? node->params.dim + (gint) node->out.ndim : node->params.dim;
      gint64 step = node->params.n_ints == 1 ? node->params.ints[0] : 1;

      slice = gnn_tensor_slice (zeros, d, node->params.start,
                                node->params.start + node->out.shape[d] * step, step, error);
    }
  else
    slice = gnn_tensor_select (zeros, node->params.dim, node->params.start, error);
  if (slice == NULL || !gnn_tensor_copy_values_ (slice, grad, error))
    return FALSE;
  *out = g_steal_pointer (&zeros);
  return TRUE;
}

gboolean
gnn_backward_narrow (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  return scatter_into_zeros (node, grad, TRUE, &grads[0], error);
}

gboolean
gnn_backward_select (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  return scatter_into_zeros (node, grad, FALSE, &grads[0], error);
}

gboolean
gnn_backward_transpose (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  TRY (grads[0] = gnn_tensor_transpose (grad, node->params.dims[0], node->params.dims[1], error));
  return TRUE;
}

gboolean
gnn_backward_permute (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  gint inverse[GNN_MAX_DIMS];
  guint nd = node->inputs[0].ndim;

  for (guint i = 0; i < nd; i++)
    {
      guint d;

      if (!gnn_wrap_dim (node->params.dims[i], nd, &d, error))
        return FALSE;
      inverse[d] = (gint) i;
    }
  TRY (grads[0] = gnn_tensor_permute (grad, inverse, nd, error));
  return TRUE;
}

gboolean
gnn_backward_expand (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  TRY (grads[0] = gnn_ag_sum_to (grad, &node->inputs[0], error));
  return TRUE;
}

/* index_select: rows of the gradient are added back at their indices. */
gboolean
gnn_backward_index_select (GnnNode    *node,
                           GnnTensor  *grad,
                           GnnTensor **grads,
                           GError    **error)
{
  g_autoptr(GnnTensor) zeros = gnn_ag_zeros (&node->inputs[0]);
  g_autoptr(GnnTensor) index = NULL;
  GnnTensor *idx = node->params.extra[0];
  gint dim = node->params.dim;
  gsize n = 0;
  g_autofree double *iv = NULL;

  if (node->inputs[0].ndim == 0)
    {
      /* a 0-d input: every selected element is the input itself */
      g_autoptr(GnnTensor) s = gnn_tensor_sum (grad, NULL, 0, FALSE, error);

      TRY (s);
      TRY (grads[0] = gnn_tensor_reshape (s, NULL, 0, error));
      return TRUE;
    }
  iv = gnn_tensor_to_doubles (idx, &n);
  for (gsize k = 0; k < n; k++)
    {
      g_autoptr(GnnTensor) src = NULL;
      g_autoptr(GnnTensor) dst = NULL;

      TRY (src = gnn_tensor_select (grad, dim, (gint64) k, error));
      TRY (dst = gnn_tensor_select (zeros, dim, (gint64) iv[k] < 0 ?
                                    (gint64) iv[k] + node->inputs[0].shape[dim < 0 ? dim + (gint) node->inputs[0].ndim : dim]
                                    : (gint64) iv[k], error));
      if (!gnn_tensor_add_ (dst, src, error))
        return FALSE;
    }
  grads[0] = g_steal_pointer (&zeros);
  return TRUE;
}

/* clone, contiguous, frac, add of a scalar: the gradient passes unchanged */
gboolean
gnn_backward_identity (GnnNode    *node,
                       GnnTensor  *grad,
                       GnnTensor **grads,
                       GError    **error)
{
  grads[0] = g_object_ref (grad);
  return TRUE;
}

/* copy_: the overwritten values get no gradient (NULL: none flows back);
 * the source gets it, summed over the broadcast dimensions, in its dtype. */
gboolean
gnn_backward_copy (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  g_autoptr(GnnTensor) summed = NULL;

  if (!gnn_node_needs_grad (node, 1))
    return TRUE;
  TRY (summed = gnn_ag_sum_to (grad, &node->inputs[1], error));
  if (gnn_tensor_get_dtype (summed) == node->inputs[1].dtype)
    grads[1] = g_steal_pointer (&summed);
  else
    TRY (grads[1] = gnn_tensor_to_dtype (summed, node->inputs[1].dtype, error));
  return TRUE;
}

gboolean
gnn_backward_to_dtype (GnnNode    *node,
                       GnnTensor  *grad,
                       GnnTensor **grads,
                       GError    **error)
{
  TRY (grads[0] = gnn_tensor_to_dtype (grad, node->inputs[0].dtype, error));
  return TRUE;
}
