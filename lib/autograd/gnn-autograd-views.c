/* gnn-autograd-views.c: in-place ops on views (torch's CopySlices). Writing
 * into a view changes its base: `y[0] = 0`, `y[:, 1:].mul_(2)`,
 * `out[i] = f(x)` into a buffer. The base's history becomes a CopySlices
 * node over its previous history and the op's other operands; its backward
 * runs the op's own backward on the view's part of the base's gradient and
 * puts the result for the overwritten values back in that part. The view's
 * history becomes an AsStridedBackward0 of the base's new one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"

/* Where a view's elements lie in its (contiguous) base. */
typedef struct
{
  guint  ndim;
  gint64 shape[GNN_MAX_DIMS];
  gint64 strides[GNN_MAX_DIMS];
  gint64 offset;
} Geometry;

typedef struct
{
  GnnNode *fn;        /* the in-place op's node, on the view's values */
  Geometry where;
} CopySlices;

static void
copy_slices_free (gpointer data)
{
  CopySlices *cs = data;

  gnn_node_unref (cs->fn);
  g_free (cs);
}

/* The part of @t (shaped like the base, contiguous) @g describes. */
static GnnTensor *
region (GnnTensor      *t,
        const Geometry *g)
{
  return gnn_tensor_new_view (t, g->shape, g->strides, g->ndim, g->offset);
}

static gboolean
copy_slices_backward (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  CopySlices *cs = node->custom;
  GnnTensor *fn_grads[1 + GNN_MAX_INPLACE_OPERANDS] = { NULL };
  g_autoptr(GnnTensor) base = gnn_tensor_copy_checked (grad, gnn_tensor_get_dtype (grad), error);
  g_autoptr(GnnTensor) part = NULL;
  g_autoptr(GnnTensor) part_grad = NULL;
  gboolean ok;

  if (base == NULL || (cs->fn->has_saved && !gnn_node_check_saved (cs->fn, error)))
    return FALSE;
  part = region (base, &cs->where);
  part_grad = gnn_tensor_copy_checked (part, gnn_tensor_get_dtype (part), error);
  if (part_grad == NULL)
    return FALSE;
  ok = cs->fn->backward (cs->fn, part_grad, fn_grads, error);
  if (ok && fn_grads[0] != NULL)
    ok = gnn_tensor_copy_values_ (part, fn_grads[0], error);
  else if (ok)
    {
      g_autoptr(GnnTensor) zeros = gnn_ag_zeros (&cs->fn->inputs[0]);

      ok = gnn_tensor_copy_values_ (part, zeros, error);
    }
  if (ok && gnn_node_needs_grad (node, 0))
    grads[0] = g_object_ref (base);
  for (guint i = 1; i < node->n_inputs; i++)
    if (ok && gnn_node_needs_grad (node, i))
      grads[i] = g_steal_pointer (&fn_grads[i]);
  for (guint i = 0; i < G_N_ELEMENTS (fn_grads); i++)
    g_clear_object (&fn_grads[i]);
  return ok;
}

/* The view's history after the write: its elements of the base's. */
static gboolean
as_strided_backward (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  g_autoptr(GnnTensor) base = NULL;
  g_autoptr(GnnTensor) part = NULL;

  if (!gnn_node_needs_grad (node, 0))
    return TRUE;
  base = gnn_ag_zeros (&node->inputs[0]);
  part = region (base, node->custom);
  if (!gnn_tensor_copy_values_ (part, grad, error))
    return FALSE;
  grads[0] = g_steal_pointer (&base);
  return TRUE;
}

gboolean
gnn_record_inplace_on_view (GnnOpKind          op,
                            GnnTensor         *self,
                            GnnTensor *const  *others,
                            guint              n_others,
                            const GnnOpParams *params,
                            GError           **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self);
  GnnTensor *base = sp->view_base;
  GnnTensorPrivate *bp = gnn_tensor_priv (base);
  GnnNode *prev = bp->grad_fn;
  GnnTensor *inputs[1 + GNN_MAX_INPLACE_OPERANDS] = { base };
  CopySlices *cs;
  Geometry *where;
  GnnNode *node;

  if (bp->requires_grad && prev == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.");
      return FALSE;
    }
  if (bp->dtype != GNN_DTYPE_F32 && bp->dtype != GNN_DTYPE_F64)
    {
      gnn_tensor_priv_bump_version (sp);
      return TRUE;
    }
  if (bp->storage != sp->storage || !gnn_tensor_is_contiguous (base))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "in-place operation on a view of a non-contiguous tensor in the "
                           "graph is not supported; use the out-of-place operation");
      return FALSE;
    }
  /* after the refusals, before the node saves the output (at the new version) */
  gnn_tensor_priv_bump_version (sp);

  where = g_new0 (Geometry, 1);
  where->ndim = sp->ndim;
  memcpy (where->shape, sp->shape, sizeof (gint64) * sp->ndim);
  memcpy (where->strides, sp->strides, sizeof (gint64) * sp->ndim);
  where->offset = sp->offset - bp->offset;

  cs = g_new0 (CopySlices, 1);
  cs->fn = gnn_node_new_inplace (op, self, others, n_others, params);
  cs->where = *where;
  for (guint i = 0; i < n_others; i++)
    inputs[1 + i] = others[i];
  node = gnn_node_new_custom ("CopySlices", inputs, 1 + n_others, 1, copy_slices_backward, cs,
                              copy_slices_free);
  node->has_saved = cs->fn->has_saved;
  gnn_node_attach (node, base, 0);
  gnn_node_unref (node);

  node = gnn_node_new_custom ("AsStridedBackward0", &base, 1, 1, as_strided_backward, where,
                              g_free);
  gnn_node_attach (node, self, 0);
  gnn_node_unref (node);
  gnn_node_note_inplace (base);
  return TRUE;
}
