/* gnn-backward-matmul.c: gradients of matmul, cat and stack
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

/* A 2-d matrix stored column-major: a transposed view of a packed one. */
static gboolean
is_transposed (GnnTensor *t)
{
  const gint64 *shape = gnn_tensor_get_shape (t, NULL);
  const gint64 *strides = gnn_tensor_get_strides (t, NULL);

  return shape[0] > 1 && shape[1] > 1 && strides[0] == 1 && strides[1] == shape[0];
}

/* All matmul cases at once: 1-d operands are promoted to matrices (a as a
 * row, b as a column) and the gradient gets the matching unit dims; then
 * dA = G B^T and dB = A^T G, summed over broadcast batch dims. */
gboolean
gnn_backward_matmul (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  const GnnMeta *am = &node->inputs[0], *bm = &node->inputs[1];
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnTensor) g = NULL;
  GnnMeta a2 = *am, b2 = *bm;
  gint64 gshape[GNN_MAX_DIMS];
  guint gnd = node->out.ndim;

  memcpy (gshape, node->out.shape, sizeof (gint64) * gnd);
  if (am->ndim == 1)
    {
      TRY (a = gnn_tensor_unsqueeze (node->saved[0], 0, error));
      a2.ndim = 2, a2.shape[0] = 1, a2.shape[1] = am->shape[0];
      if (bm->ndim == 1)
        gnd = 0;                       /* a scalar output: (1, 1) after b's step */
      else
        gshape[gnd] = gshape[gnd - 1]; /* [..., n] -> [..., 1, n] */
      gshape[gnd == 0 ? 0 : gnd - 1] = 1;
      gnd++;
    }
  else
    a = g_object_ref (node->saved[0]);
  if (bm->ndim == 1)
    {
      TRY (b = gnn_tensor_unsqueeze (node->saved[1], 1, error));
      b2.ndim = 2, b2.shape[0] = bm->shape[0], b2.shape[1] = 1;
      gshape[gnd++] = 1;
    }
  else
    b = g_object_ref (node->saved[1]);
  TRY (g = gnn_tensor_reshape (grad, gshape, gnd, error));

  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) bt = NULL;
      g_autoptr(GnnTensor) ga = NULL;
      g_autoptr(GnnTensor) gas = NULL;

      TRY (bt = gnn_tensor_transpose (b, -1, -2, error));
      TRY (ga = gnn_tensor_matmul (g, bt, error));
      TRY (gas = gnn_ag_sum_to (ga, &a2, error));
      TRY (grads[0] = gnn_tensor_reshape (gas, am->shape, am->ndim, error));
    }
  if (gnn_node_needs_grad (node, 1) && am->ndim > 2 && bm->ndim == 2)
    {
      /* a batch of rows times one matrix (a Linear over [T, B, in]): the
       * batch dims fold into the rows, dB = A_rowsᵀ G_rows in one product
       * instead of a product per batch entry summed afterwards */
      gint64 rows = 1;
      g_autoptr(GnnTensor) a_flat = NULL;

      for (guint d = 0; d + 1 < am->ndim; d++)
        rows *= am->shape[d];
      gint64 a_rows[2] = { rows, am->shape[am->ndim - 1] }, g_rows[2] = { rows, gshape[gnd - 1] };

      TRY (a_flat = gnn_tensor_reshape (a, a_rows, 2, error));
      g_object_unref (a);
      a = g_steal_pointer (&a_flat);
      TRY (a_flat = gnn_tensor_reshape (g, g_rows, 2, error));
      g_object_unref (g);
      g = g_steal_pointer (&a_flat);
      a2.ndim = 2;
      a2.shape[0] = rows;
      a2.shape[1] = a_rows[1];
    }
  if (gnn_node_needs_grad (node, 1) && a2.ndim == 2 && bm->ndim == 2 && is_transposed (b))
    {
      /* b is a transposed view (Linear's weight.T): compute dB^T = G^T A as
       * a contiguous matrix and hand back its transpose, so the gradient
       * that reaches the weight through TransposeBackward is contiguous
       * and becomes .grad without a copy. */
      g_autoptr(GnnTensor) gt = NULL;
      g_autoptr(GnnTensor) gbt = NULL;

      TRY (gt = gnn_tensor_transpose (g, 0, 1, error));
      TRY (gbt = gnn_tensor_matmul (gt, a, error));
      TRY (grads[1] = gnn_tensor_transpose (gbt, 0, 1, error));
    }
  else if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) at = NULL;
      g_autoptr(GnnTensor) gb = NULL;
      g_autoptr(GnnTensor) gbs = NULL;

      TRY (at = gnn_tensor_transpose (a, -1, -2, error));
      TRY (gb = gnn_tensor_matmul (at, g, error));
      TRY (gbs = gnn_ag_sum_to (gb, &b2, error));
      TRY (grads[1] = gnn_tensor_reshape (gbs, bm->shape, bm->ndim, error));
    }
  return TRUE;
}

gboolean
gnn_backward_cat (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  guint dim;
  gint64 start = 0;

  if (!gnn_wrap_dim (node->params.dim, node->out.ndim, &dim, error))
    return FALSE;
  for (guint i = 0; i < node->n_inputs; i++)
    {
      const GnnMeta *m = &node->inputs[i];
      g_autoptr(GnnTensor) part = NULL;

      /* 1-d empty tensors were skipped by cat */
      if (m->ndim == 1 && m->shape[0] == 0 && node->out.ndim != 1)
        {
          if (gnn_node_needs_grad (node, i))
            grads[i] = gnn_ag_zeros (m);
          continue;
        }
      if (gnn_node_needs_grad (node, i))
        {
          TRY (part = gnn_tensor_narrow (grad, (gint) dim, start, m->shape[dim], error));
          TRY (grads[i] = gnn_tensor_contiguous_checked (part, error));
        }
      start += m->shape[dim];
    }
  return TRUE;
}

gboolean
gnn_backward_stack (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  for (guint i = 0; i < node->n_inputs; i++)
    if (gnn_node_needs_grad (node, i))
      {
        g_autoptr(GnnTensor) part = NULL;

        TRY (part = gnn_tensor_select (grad, node->params.dim, i, error));
        TRY (grads[i] = gnn_tensor_contiguous_checked (part, error));
      }
  return TRUE;
}

/* addmm / baddbmm: beta · grad for the added tensor (summed to its
 * shape), alpha · grad @ b^T and alpha · a^T @ grad for the factors. */
gboolean
gnn_backward_addmm (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  GnnTensor *a = node->saved[1], *b = node->saved[2];
  g_autoptr(GnnTensor) alpha = gnn_tensor_new_wrapped_number (node->params.scalar);

  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) beta = gnn_tensor_new_wrapped_number (node->params.scalar2);
      g_autoptr(GnnTensor) gb = NULL;

      TRY (gb = gnn_tensor_mul (grad, beta, error));
      TRY (grads[0] = gnn_ag_sum_to (gb, &node->inputs[0], error));
    }
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) bt = NULL;
      g_autoptr(GnnTensor) p = NULL;

      TRY (bt = gnn_tensor_transpose (b, -1, -2, error));
      TRY (p = gnn_tensor_matmul (grad, bt, error));
      TRY (grads[1] = gnn_tensor_mul (p, alpha, error));
    }
  if (gnn_node_needs_grad (node, 2))
    {
      g_autoptr(GnnTensor) at = NULL;
      g_autoptr(GnnTensor) p = NULL;

      TRY (at = gnn_tensor_transpose (a, -1, -2, error));
      TRY (p = gnn_tensor_matmul (at, grad, error));
      TRY (grads[2] = gnn_tensor_mul (p, alpha, error));
    }
  return TRUE;
}

/* diagonal (a view): the gradient written onto the diagonal of zeros;
 * diag of a vector: the diagonal of the gradient. */
gboolean
gnn_backward_diagonal (GnnNode    *node,
                       GnnTensor  *grad,
                       GnnTensor **grads,
                       GError    **error)
{
  if (node->op == GNN_OP_DIAG_EMBED)
    {
      g_autoptr(GnnTensor) d = NULL;

      TRY (d = gnn_tensor_diagonal (grad, node->params.start, 0, 1, error));
      TRY (grads[0] = gnn_tensor_clone (d));
      return TRUE;
    }
  {
    g_autoptr(GnnTensor) zeros = gnn_ag_zeros (&node->inputs[0]);
    g_autoptr(GnnTensor) view = NULL;

    TRY (view = gnn_tensor_diagonal (zeros, node->params.start, node->params.dims[0],
                                     node->params.dims[1], error));
    if (!gnn_tensor_copy_ (view, grad, error))
      return FALSE;
    grads[0] = g_steal_pointer (&zeros);
  }
  return TRUE;
}
