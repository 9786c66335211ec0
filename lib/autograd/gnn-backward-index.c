/* gnn-backward-index.c: gradients of the index-based ops — gather, scatter,
 * scatter_add, index_add, index_copy, index_fill — as torch defines them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

/* @t (no larger than @meta in any dim) placed at the start of zeros of
 * @meta's shape: a src larger than its index gets no gradient beyond it. */
static GnnTensor *
pad_to (GnnTensor     *t,
        const GnnMeta *meta,
        GError       **error)
{
  GnnTensor *out;
  g_autoptr(GnnTensor) corner = NULL;
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (t, &ndim);

  if (ndim == meta->ndim && memcmp (shape, meta->shape, sizeof (gint64) * ndim) == 0)
    return g_object_ref (t);
  out = gnn_ag_zeros (meta);
  corner = g_object_ref (out);
  for (guint d = 0; d < ndim; d++)
    {
      GnnTensor *narrowed = gnn_tensor_narrow (corner, (gint) d, 0, shape[d], error);

      if (narrowed == NULL)
        {
          g_object_unref (out);
          return NULL;
        }
      g_object_unref (corner);
      corner = narrowed;
    }
  if (!gnn_tensor_copy_ (corner, t, error))
    g_clear_object (&out);
  return out;
}

gboolean
gnn_backward_gather (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  g_autoptr(GnnTensor) zeros = gnn_ag_zeros (&node->inputs[0]);

  TRY (grads[0] = gnn_tensor_scatter_add (zeros, node->params.dim, node->params.extra[0], grad,
                                          error));
  return TRUE;
}

/* scatter: the overwritten positions of self get nothing, src what its
 * positions became; scatter_add: self all of it. */
gboolean
gnn_backward_scatter (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  GnnTensor *index = node->params.extra[0];
  gint dim = node->params.dim;

  if (gnn_node_needs_grad (node, 0))
    {
      if (node->op == GNN_OP_SCATTER_ADD)
        grads[0] = g_object_ref (grad);
      else
        {
          g_autoptr(GnnTensor) zero = gnn_tensor_new_wrapped_number (0.0);

          TRY (grads[0] = gnn_tensor_scatter (grad, dim, index, zero, error));
        }
    }
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) picked = NULL;

      TRY (picked = gnn_tensor_gather (grad, dim, index, error));
      TRY (grads[1] = pad_to (picked, &node->inputs[1], error));
    }
  return TRUE;
}

gboolean
gnn_backward_index_add (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  GnnTensor *index = node->params.extra[0];
  gint dim = node->params.dim;

  if (gnn_node_needs_grad (node, 0))
    grads[0] = g_object_ref (grad);
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) picked = NULL;
      g_autoptr(GnnTensor) alpha = gnn_tensor_new_wrapped_number (node->params.scalar);

      TRY (picked = gnn_tensor_index_select (grad, dim, index, error));
      TRY (grads[1] = gnn_tensor_mul (picked, alpha, error));
    }
  return TRUE;
}

/* index_copy and index_fill: the replaced slices of self get nothing, the
 * source (or the 0-d value) what those slices became. */
gboolean
gnn_backward_index_copy (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  GnnTensor *index = node->params.extra[0];
  gint dim = node->params.dim;

  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) zero = gnn_tensor_new_wrapped_number (0.0);

      TRY (grads[0] = gnn_tensor_index_fill (grad, dim, index, zero, error));
    }
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) picked = NULL;

      TRY (picked = gnn_tensor_index_select (grad, dim, index, error));
      if (node->op == GNN_OP_INDEX_FILL)
        TRY (grads[1] = gnn_tensor_sum (picked, NULL, 0, FALSE, error));
      else
        grads[1] = g_steal_pointer (&picked);
    }
  return TRUE;
}

/* index_put_ (lib/tensor/gnn-tensor-index-put.c), on self seen as [lead,
 * rest...] with its indexed dims merged: self gets the gradient (the
 * replaced positions none unless accumulating), the values what their
 * positions got, summed to their shape where they were broadcast. */
gboolean
gnn_backward_index_put (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  const GnnMeta *m = &node->inputs[0];
  GnnTensor *flat = node->params.extra[0];
  guint n = (guint) node->params.dim, indim = node->params.n_ints;
  gint64 merged[GNN_MAX_DIMS], rshape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) gm = NULL;

  merged[0] = 1;
  for (guint d = 0; d < n; d++)
    merged[0] *= m->shape[d];
  memcpy (merged + 1, m->shape + n, sizeof (gint64) * (m->ndim - n));
  memcpy (rshape, node->params.ints, sizeof (gint64) * indim);
  memcpy (rshape + indim, m->shape + n, sizeof (gint64) * (m->ndim - n));
  TRY (gm = gnn_tensor_reshape (grad, merged, m->ndim - n + 1, error));
  if (gnn_node_needs_grad (node, 0))
    {
      if (node->params.flag)
        grads[0] = g_object_ref (grad);
      else
        {
          g_autoptr(GnnTensor) zero = gnn_tensor_new_wrapped_number (0.0);
          g_autoptr(GnnTensor) kept = NULL;

          TRY (kept = gnn_tensor_index_fill (gm, 0, flat, zero, error));
          TRY (grads[0] = gnn_tensor_reshape (kept, m->shape, m->ndim, error));
        }
    }
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) picked = NULL;
      g_autoptr(GnnTensor) shaped = NULL;

      TRY (picked = gnn_tensor_index_select (gm, 0, flat, error));
      TRY (shaped = gnn_tensor_reshape (picked, rshape, indim + m->ndim - n, error));
      TRY (grads[1] = gnn_ag_sum_to (shaped, &node->inputs[1], error));
    }
  return TRUE;
}

/* max/min along a dim, sort, topk: the values were picked at the saved
 * positions; their gradient is scattered back there (torch's
 * value_selecting_reduction_backward). */
gboolean
gnn_backward_select_indices (GnnNode    *node,
                             GnnTensor  *grad,
                             GnnTensor **grads,
                             GError    **error)
{
  GnnTensor *index = node->params.extra[0];
  g_autoptr(GnnTensor) zeros = gnn_ag_zeros (&node->inputs[0]);
  g_autoptr(GnnTensor) g = NULL;

  if (node->params.keepdim || node->inputs[0].ndim == 0)
    g = g_object_ref (grad);
  else
    TRY (g = gnn_tensor_unsqueeze (grad, node->params.dim, error));
  TRY (grads[0] = gnn_tensor_scatter (zeros, node->params.dim, index, g, error));
  return TRUE;
}

/* median of all elements: the 0-d gradient goes to the picked element of
 * the flattened input. */
gboolean
gnn_backward_select_flat (GnnNode    *node,
                          GnnTensor  *grad,
                          GnnTensor **grads,
                          GError    **error)
{
  gint64 numel = 1;
  g_autoptr(GnnTensor) zeros = NULL;
  g_autoptr(GnnTensor) index = NULL;
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) placed = NULL;

  for (guint d = 0; d < node->inputs[0].ndim; d++)
    numel *= node->inputs[0].shape[d];
  TRY (zeros = gnn_tensor_zeros (&numel, 1, node->inputs[0].dtype, error));
  TRY (index = gnn_tensor_reshape (node->params.extra[0], (gint64[]) { 1 }, 1, error));
  TRY (g = gnn_tensor_reshape (grad, (gint64[]) { 1 }, 1, error));
  TRY (placed = gnn_tensor_scatter (zeros, 0, index, g, error));
  TRY (grads[0] = gnn_tensor_reshape (placed, node->inputs[0].shape, node->inputs[0].ndim,
                                      error));
  return TRUE;
}

/* masked_select: the gradient goes to the picked positions of the
 * broadcast input, then sums back to the input's shape. */
gboolean
gnn_backward_masked_select (GnnNode    *node,
                            GnnTensor  *grad,
                            GnnTensor **grads,
                            GError    **error)
{
  GnnMeta full = node->inputs[0];
  gint64 numel = 1;
  g_autoptr(GnnTensor) zeros = NULL;
  g_autoptr(GnnTensor) flat = NULL;
  g_autoptr(GnnTensor) placed = NULL;
  g_autoptr(GnnTensor) shaped = NULL;

  full.ndim = node->params.n_ints;
  memcpy (full.shape, node->params.ints, sizeof (gint64) * full.ndim);
  for (guint d = 0; d < full.ndim; d++)
    numel *= full.shape[d];
  zeros = gnn_tensor_zeros (&numel, 1, full.dtype, error);
  TRY (zeros);
  TRY (placed = gnn_tensor_index_add (zeros, 0, node->params.extra[0], grad, 1.0, error));
  TRY (shaped = gnn_tensor_reshape (placed, full.shape, full.ndim, error));
  TRY (grads[0] = gnn_ag_sum_to (shaped, &node->inputs[0], error));
  return TRUE;
}
