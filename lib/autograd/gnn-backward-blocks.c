/* gnn-backward-blocks.c: gradients of block_diag, diag_embed, rot90, take
 * and masked_scatter (torch 1.13's formulas, with the tensor ops; the
 * engine runs backward with recording off)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

/* each input gets its block of the gradient, in its own shape */
gboolean
gnn_backward_block_diag (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  gint64 row = 0, col = 0;

  for (guint i = 0; i < node->n_inputs; i++)
    {
      const GnnMeta *in = &node->inputs[i];
      gint64 r = in->ndim == 2 ? in->shape[0] : 1, c = in->ndim == 0 ? 1 : in->shape[in->ndim - 1];

      if (gnn_node_needs_grad (node, i))
        {
          g_autoptr(GnnTensor) band = NULL;
          g_autoptr(GnnTensor) block = NULL;

          TRY (band = gnn_tensor_narrow (grad, 0, row, r, error));
          TRY (block = gnn_tensor_narrow (band, 1, col, c, error));
          TRY (grads[i] = gnn_tensor_reshape (block, in->shape, in->ndim, error));
        }
      row += r;
      col += c;
    }
  return TRUE;
}

gboolean
gnn_backward_diag_embed (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  g_autoptr(GnnTensor) d = NULL;

  TRY (d = gnn_tensor_diagonal (grad, node->params.start, node->params.dims[0],
                                node->params.dims[1], error));
  TRY (grads[0] = gnn_tensor_contiguous (d));
  return TRUE;
}

gboolean
gnn_backward_rot90 (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  TRY (grads[0] = gnn_tensor_rot90 (grad, -node->params.start, node->params.dims, 2, error));
  return TRUE;
}

/* the gradient summed into the flat positions taken */
gboolean
gnn_backward_take (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  const GnnMeta *in = &node->inputs[0];
  GnnTensor *index = node->params.extra[0];
  gint64 numel = 1;
  g_autoptr(GnnTensor) flat = NULL;
  g_autoptr(GnnTensor) g = NULL;

  for (guint i = 0; i < in->ndim; i++)
    numel *= in->shape[i];
  flat = gnn_tensor_zeros ((gint64[]) { numel }, 1, in->dtype, NULL);
  TRY (g = gnn_tensor_reshape (grad, (gint64[]) { gnn_tensor_get_numel (index) }, 1, error));
  if (!gnn_tensor_index_add_ (flat, 0, index, g, 1.0, error))
    return FALSE;
  TRY (grads[0] = gnn_tensor_reshape (flat, in->shape, in->ndim, error));
  return TRUE;
}

/* self: the gradient off the mask; source: the masked gradient in order,
 * zeros after it, in source's shape */
gboolean
gnn_backward_masked_scatter (GnnNode    *node,
                             GnnTensor  *grad,
                             GnnTensor **grads,
                             GError    **error)
{
  GnnTensor *mask = node->params.extra[0];

  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) zero = gnn_tensor_new_wrapped_number (0.0);
      g_autoptr(GnnTensor) kept = NULL;

      TRY (kept = gnn_tensor_masked_fill (grad, mask, zero, error));
      TRY (grads[0] = gnn_ag_sum_to (kept, &node->inputs[0], error));
    }
  if (gnn_node_needs_grad (node, 1))
    {
      const GnnMeta *src = &node->inputs[1];
      gint64 numel = 1, n;
      g_autoptr(GnnTensor) picked = NULL;
      g_autoptr(GnnTensor) flat = NULL;
      g_autoptr(GnnTensor) head = NULL;

      for (guint i = 0; i < src->ndim; i++)
        numel *= src->shape[i];
      TRY (picked = gnn_tensor_masked_select (grad, mask, error));
      n = gnn_tensor_get_numel (picked);
      flat = gnn_tensor_zeros ((gint64[]) { numel }, 1, src->dtype, NULL);
      TRY (head = gnn_tensor_narrow (flat, 0, 0, n, error));
      if (!gnn_tensor_copy_ (head, picked, error))
        return FALSE;
      TRY (grads[1] = gnn_tensor_reshape (flat, src->shape, src->ndim, error));
    }
  return TRUE;
}
