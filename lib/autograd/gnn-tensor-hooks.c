/* gnn-tensor-hooks.c: gradient hooks on tensors (torch's
 * Tensor.register_hook): a function called with the gradient with respect
 * to the tensor during backward, which may return a replacement. A
 * non-leaf's hooks live on its grad_fn node (for its output) and run on the
 * summed gradient before the node's backward, interleaved with
 * retain_grad's copies in registration order (torch 1.13's order);
 * a leaf's live on the tensor and run on each gradient before it is
 * accumulated into .grad.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"

#define LEAF_HOOKS "gnn-tensor-hooks"

typedef struct
{
  guint             id;
  guint             output_nr;
  GnnTensorHookFunc func;
  gpointer          user_data;
  GDestroyNotify    notify;
} TensorHook;

static guint last_seq;

guint
gnn_tensor_hook_next_seq (void)
{
  return (guint) g_atomic_int_add (&last_seq, 1) + 1;
}

static void
tensor_hook_free (gpointer data)
{
  TensorHook *h = data;

  if (h->notify != NULL)
    h->notify (h->user_data);
  g_free (h);
}

/* @grad through @h: the replacement (checked against @grad's geometry) or
 * a new reference to @grad. */
static GnnTensor *
run_hook (TensorHook *h,
          GnnTensor  *grad)
{
  g_autoptr(GnnTensor) result = h->func (grad, h->user_data);
  GnnTensorPrivate *g = gnn_tensor_priv (grad), *r;

  if (result == NULL)
    return g_object_ref (grad);
  r = gnn_tensor_priv (result);
  if (r->dtype != g->dtype || r->ndim != g->ndim ||
      memcmp (r->shape, g->shape, sizeof (gint64) * g->ndim) != 0)
    {
      g_warning ("a tensor hook returned a gradient of another dtype or shape; ignored");
      return g_object_ref (grad);
    }
  return g_steal_pointer (&result);
}

/* @node's hooks and retainers on output @o, in registration order */
static void
run_output (GnnNode *node,
            guint    o)
{
  GPtrArray *hooks = node->tensor_hooks;
  guint done = 0;

  for (guint i = 0; hooks != NULL && i < hooks->len; i++)
    {
      TensorHook *h = g_ptr_array_index (hooks, i);
      GnnTensor *next;

      if (h->output_nr != o || node->grads_out[o] == NULL)
        continue;
      gnn_node_retain_range (node, o, done, h->id);
      next = run_hook (h, node->grads_out[o]);
      g_object_unref (node->grads_out[o]);
      node->grads_out[o] = next;
      done = h->id;
    }
  gnn_node_retain_range (node, o, done, G_MAXUINT);
}

void
gnn_node_run_output_hooks (GnnNode *node)
{
  for (guint o = 0; o < node->n_outputs; o++)
    run_output (node, o);
}

GnnTensor *
gnn_leaf_run_tensor_hooks (GnnTensor *leaf,
                           GnnTensor *grad)
{
  GPtrArray *hooks = g_object_get_data (G_OBJECT (leaf), LEAF_HOOKS);
  GnnTensor *current = g_object_ref (grad);

  for (guint i = 0; hooks != NULL && i < hooks->len; i++)
    {
      GnnTensor *next = run_hook (g_ptr_array_index (hooks, i), current);

      g_object_unref (current);
      current = next;
    }
  return current;
}

/**
 * GnnTensorHookFunc:
 * @grad: the gradient with respect to the tensor
 * @user_data: the data given to [method@Gnn.Tensor.register_hook]
 *
 * A gradient hook: it may read @grad and return a replacement of the same
 * shape and dtype, or %NULL to keep @grad.
 *
 * Returns: (transfer full) (nullable): the gradient to use instead, or %NULL
 *
 * Since: 0.1
 */

/**
 * gnn_tensor_register_hook:
 * @self: a tensor that requires grad
 * @func: (scope notified) (closure user_data) (destroy notify): the hook
 * @user_data: data for @func
 * @notify: (nullable): frees @user_data when the hook is removed or its
 *   tensor's node goes away
 * @error: return location for a #GError
 *
 * Registers a hook called with the gradient with respect to @self every
 * time one is computed during backward (like `Tensor.register_hook`); the
 * hook may return a replacement. A leaf's hooks see each gradient before it
 * is added to `.grad`; a non-leaf's see its summed gradient before it flows
 * on ([method@Gnn.Tensor.retain_grad] called before the hook keeps the
 * gradient the hook saw, called after it the hook's result, as in torch).
 *
 * Returns: an id for [method@Gnn.Tensor.remove_hook], or 0 with @error set
 *   (torch's message) when @self does not require grad
 *
 * Since: 0.1
 */
guint
gnn_tensor_register_hook (GnnTensor         *self,
                          GnnTensorHookFunc  func,
                          gpointer           user_data,
                          GDestroyNotify     notify,
                          GError           **error)
{
  GnnTensorPrivate *p;
  TensorHook *h;
  GPtrArray *hooks;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  p = gnn_tensor_priv (self);
  if (!p->requires_grad)
    {
      if (notify != NULL)
        notify (user_data);
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "cannot register a hook on a tensor that doesn't require gradient");
      return 0;
    }
  h = g_new0 (TensorHook, 1);
  h->id = gnn_tensor_hook_next_seq ();
  h->func = func;
  h->user_data = user_data;
  h->notify = notify;
  if (p->grad_fn != NULL)
    {
      GnnNode *node = p->grad_fn;

      h->output_nr = p->grad_fn_output;
      if (node->tensor_hooks == NULL)
        node->tensor_hooks = g_ptr_array_new_with_free_func (tensor_hook_free);
      g_ptr_array_add (node->tensor_hooks, h);
      return h->id;
    }
  hooks = g_object_get_data (G_OBJECT (self), LEAF_HOOKS);
  if (hooks == NULL)
    {
      hooks = g_ptr_array_new_with_free_func (tensor_hook_free);
      g_object_set_data_full (G_OBJECT (self), LEAF_HOOKS, hooks,
                              (GDestroyNotify) g_ptr_array_unref);
    }
  g_ptr_array_add (hooks, h);
  return h->id;
}

static gboolean
remove_from (GPtrArray *hooks,
             guint      id)
{
  for (guint i = 0; hooks != NULL && i < hooks->len; i++)
    if (((TensorHook *) g_ptr_array_index (hooks, i))->id == id)
      {
        g_ptr_array_remove_index (hooks, i);
        return TRUE;
      }
  return FALSE;
}

/**
 * gnn_tensor_remove_hook:
 * @self: the tensor the hook was registered on
 * @id: what [method@Gnn.Tensor.register_hook] returned
 *
 * Removes a gradient hook (like `handle.remove ()` of torch's
 * RemovableHandle); an unknown or already removed @id is ignored.
 *
 * Since: 0.1
 */
void
gnn_tensor_remove_hook (GnnTensor *self,
                        guint      id)
{
  GnnTensorPrivate *p;

  g_return_if_fail (GNN_IS_TENSOR (self));
  p = gnn_tensor_priv (self);
  if (p->grad_fn != NULL && remove_from (((GnnNode *) p->grad_fn)->tensor_hooks, id))
    return;
  remove_from (g_object_get_data (G_OBJECT (self), LEAF_HOOKS), id);
}

/* --- a leaf's hooks see the sum of its gradients in one pass --------------------- */

typedef struct
{
  guint      edges_left;
  GnnTensor *sum;
} LeafPending;

static void
leaf_pending_free (gpointer data)
{
  LeafPending *lp = data;

  g_clear_object (&lp->sum);
  g_free (lp);
}

void
gnn_leaf_hooks_count (GHashTable **pending,
                      GnnTensor   *leaf)
{
  GPtrArray *hooks = g_object_get_data (G_OBJECT (leaf), LEAF_HOOKS);
  LeafPending *lp;

  if (hooks == NULL || hooks->len == 0)
    return;
  if (*pending == NULL)
    *pending = g_hash_table_new_full (NULL, NULL, NULL, leaf_pending_free);
  lp = g_hash_table_lookup (*pending, leaf);
  if (lp == NULL)
    {
      lp = g_new0 (LeafPending, 1);
      g_hash_table_insert (*pending, leaf, lp);
    }
  lp->edges_left++;
}

gboolean
gnn_leaf_hooks_edge (GHashTable  *pending,
                     GnnTensor   *leaf,
                     GnnTensor   *grad,
                     GnnTensor  **ready)
{
  LeafPending *lp = pending != NULL ? g_hash_table_lookup (pending, leaf) : NULL;

  *ready = NULL;
  if (lp == NULL)
    return FALSE;
  if (grad != NULL && lp->sum == NULL)
    lp->sum = g_object_ref (grad);
  else if (grad != NULL)
    {
      GnnTensor *sum = gnn_tensor_add (lp->sum, grad, NULL);

      if (sum != NULL)
        g_set_object (&lp->sum, sum);
      g_clear_object (&sum);
    }
  if (--lp->edges_left == 0 && lp->sum != NULL)
    {
      *ready = gnn_leaf_run_tensor_hooks (leaf, lp->sum);
      g_clear_object (&lp->sum);
    }
  return TRUE;
}
