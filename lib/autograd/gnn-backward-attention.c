/* gnn-backward-attention.c: gradients of the attention ops
 * (lib/tensor/gnn-attention-private.h)
 *
 * probs (P = dropout (softmax (scale · Q Kᵀ + masks))):
 *   dP = dP_drop · mask / (1 - p),  dS = P ∘ (dP - rowsum (dP ∘ P)),
 *   dQ = scale dS K,  dK = scale dSᵀ Q,  d(float mask) = dS summed to its shape;
 * apply (O = P V):  dP = dO Vᵀ,  dV = Pᵀ dO.
 *
 * The kernels run per (batch, head) on the intra-op threads, like the
 * forward. Gradients of Q, K and V are allocated in the memory order of
 * the views they belong to (gnn_attention_empty_like), so they reach the
 * projection the heads were read from without a transposing copy.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-attention-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

static void
set_dims (GnnAttnGeom   *g,
          const GnnMeta *rows_cols,   /* [B, H, L, x] */
          gint64         S)
{
  g->dtype = rows_cols->dtype;
  g->B = rows_cols->shape[0];
  g->H = rows_cols->shape[1];
  g->L = rows_cols->shape[2];
  g->S = S;
}

static void *
data_of (GnnTensor *t)
{
  return gnn_tensor_priv_data (gnn_tensor_priv (t));
}

static gboolean
alloc_failed (GError **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_MEMORY,
                       "attention backward: cannot allocate its scratch memory");
  return FALSE;
}

gboolean
gnn_backward_attention_probs (GnnNode    *node,
                              GnnTensor  *grad,
                              GnnTensor **grads,
                              GError    **error)
{
  GnnTensor *p = node->params.extra[0] != NULL ? node->params.extra[0] : node->saved_out;
  GnnTensor *pd = node->params.extra[0] != NULL ? node->saved_out : NULL;
  gboolean want_q = gnn_node_needs_grad (node, 0), want_k = gnn_node_needs_grad (node, 1);
  gboolean want_masks = FALSE;
  g_autoptr(GnnTensor) q = NULL;
  g_autoptr(GnnTensor) k = NULL;
  g_autoptr(GnnTensor) dpd = NULL;
  g_autoptr(GnnTensor) dq = NULL;
  g_autoptr(GnnTensor) dk = NULL;
  g_autoptr(GnnTensor) ds = NULL;
  GnnAttnGeom g;
  GnnAttnMat dqm, dkm;

  for (guint i = 2; i < node->n_inputs; i++)
    want_masks = want_masks || gnn_node_needs_grad (node, i);
  memset (&g, 0, sizeof g);
  set_dims (&g, &node->inputs[0], node->inputs[1].shape[2]);
  g.D = node->inputs[0].shape[3];
  g.scale = node->params.scalar;
  g.causal = node->params.flag;
  g.dropout_p = node->params.scalar2;
  TRY (q = gnn_attention_operand (node->saved[0], error));
  TRY (k = gnn_attention_operand (node->saved[1], error));
  TRY (dpd = gnn_tensor_contiguous_checked (grad, error));
  gnn_attn_mat_from_tensor (&g.q, q);
  gnn_attn_mat_from_tensor (&g.k, k);
  if (want_q)
    {
      TRY (dq = gnn_attention_empty_like (node->saved[0], error));
      gnn_attn_mat_from_tensor (&dqm, dq);
    }
  if (want_k)
    {
      TRY (dk = gnn_attention_empty_like (node->saved[1], error));
      gnn_attn_mat_from_tensor (&dkm, dk);
    }
  if (want_masks)
    TRY (ds = gnn_tensor_new_contiguous_checked (node->out.dtype, node->out.shape, 4, FALSE, error));
  if (!gnn_attn_probs_backward_kernel (&g, data_of (p),
                                       pd != NULL ? data_of (pd) : NULL,
                                       data_of (dpd), want_q ? &dqm : NULL,
                                       want_k ? &dkm : NULL,
                                       ds != NULL ? data_of (ds) : NULL))
    return alloc_failed (error);
  grads[0] = g_steal_pointer (&dq);
  grads[1] = g_steal_pointer (&dk);
  for (guint i = 2; i < node->n_inputs; i++)
    if (gnn_node_needs_grad (node, i))
      TRY (grads[i] = gnn_ag_sum_to (ds, &node->inputs[i], error));
  return TRUE;
}

gboolean
gnn_backward_attention_apply (GnnNode    *node,
                              GnnTensor  *grad,
                              GnnTensor **grads,
                              GError    **error)
{
  gboolean want_p = gnn_node_needs_grad (node, 0), want_v = gnn_node_needs_grad (node, 1);
  g_autoptr(GnnTensor) p = NULL;
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) dout = NULL;
  g_autoptr(GnnTensor) dp = NULL;
  g_autoptr(GnnTensor) dv = NULL;
  GnnAttnGeom g;
  GnnAttnMat doutm, dvm;

  memset (&g, 0, sizeof g);
  set_dims (&g, &node->inputs[0], node->inputs[0].shape[3]);
  g.Dv = node->inputs[1].shape[3];
  TRY (p = gnn_tensor_contiguous_checked (node->saved[0], error));
  TRY (v = gnn_attention_operand (node->saved[1], error));
  TRY (dout = gnn_attention_operand (grad, error));
  gnn_attn_mat_from_tensor (&g.v, v);
  gnn_attn_mat_from_tensor (&doutm, dout);
  if (want_p)
    TRY (dp = gnn_tensor_new_contiguous_checked (node->inputs[0].dtype, node->inputs[0].shape, 4,
                                                 FALSE, error));
  if (want_v)
    {
      TRY (dv = gnn_attention_empty_like (node->saved[1], error));
      gnn_attn_mat_from_tensor (&dvm, dv);
    }
  gnn_attn_apply_backward_kernel (&g, data_of (p), &doutm,
                                  dp != NULL ? data_of (dp) : NULL,
                                  want_v ? &dvm : NULL);
  grads[0] = g_steal_pointer (&dp);
  grads[1] = g_steal_pointer (&dv);
  return TRUE;
}
