/* gnn-autograd-engine.c: the backward engine: walks the graph from a root,
 * runs each node's backward and accumulates the leaves' gradients
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"
#include "autograd/gnn-grad-hooks-private.h"
#include "core/gnn-fork-private.h"

/* Like torch's AccumulateGrad: a gradient that nothing else holds (one
 * object reference, the engine's, and a storage of its own) becomes .grad
 * as it is; anything shared is copied so later in-place accumulation into
 * .grad cannot change another tensor. Saves a full copy of every
 * parameter's gradient per step when .grad starts out empty. */
static gboolean
can_adopt (GnnTensor *leaf,
           GnnTensor *grad)
{
  GnnTensorPrivate *gp = gnn_tensor_priv (grad);
  GnnTensorPrivate *lp = gnn_tensor_priv (leaf);

  if (G_OBJECT (grad)->ref_count != 1 || G_OBJECT_TYPE (grad) != GNN_TYPE_TENSOR ||
      g_atomic_int_get ((gint *) &gp->storage->ref_count) != 1 ||
      gp->dtype != lp->dtype || gp->ndim != lp->ndim || gp->grad_fn != NULL ||
      !gnn_tensor_is_contiguous (grad))
    return FALSE;
  for (guint d = 0; d < gp->ndim; d++)
    if (gp->shape[d] != lp->shape[d])
      return FALSE;
  return TRUE;
}

/* Backward passes on several threads through one module meet at its
 * leaves: the read-modify-write of .grad below is serialized per leaf by a
 * striped lock table (uncontended, hence cheap, for a single thread), as
 * torch's AccumulateGrad holds a mutex. */
#define N_LEAF_LOCKS 16
GNN_FORK_SAFE_MUTEX_ARRAY (leaf_locks, N_LEAF_LOCKS);

static GMutex *
leaf_lock (GnnTensor *leaf)
{
  guintptr h = GPOINTER_TO_SIZE (leaf);

  return &leaf_locks[(h >> 4 ^ h >> 10) % N_LEAF_LOCKS];
}

static void
accumulate_leaf_locked (GnnTensor *leaf,
                        GnnTensor *grad)
{
  GnnTensor *current = gnn_tensor_get_grad (leaf);

  if (current == NULL && can_adopt (leaf, grad))
    gnn_tensor_set_grad (leaf, grad);
  else if (current == NULL)
    {
      g_autoptr(GnnTensor) copy = gnn_tensor_clone (grad);

      gnn_tensor_set_grad (leaf, copy);
    }
  else if (!gnn_tensor_add_ (current, grad, NULL))
    {
      /* a .grad of another shape or dtype set by the user: replace it */
      g_autoptr(GnnTensor) copy = gnn_tensor_clone (grad);

      gnn_tensor_set_grad (leaf, copy);
    }
}

static void
accumulate_leaf (GnnTensor *leaf,
                 GnnTensor *grad)
{
  GMutex *lock = leaf_lock (leaf);

  g_mutex_lock (lock);
  accumulate_leaf_locked (leaf, grad);
  g_mutex_unlock (lock);
}

static gboolean
accumulate_node (GnnNode   *node,
                 guint      output_nr,
                 GnnTensor *grad,
                 GError   **error)
{
  GnnTensor **slot = &node->grads_out[MIN (output_nr, node->n_outputs - 1)];
  GnnTensor *sum;

  if (*slot == NULL)
    {
      *slot = g_object_ref (grad);
      return TRUE;
    }
  sum = gnn_tensor_add (*slot, grad, error);
  if (sum == NULL)
    return FALSE;
  g_object_unref (*slot);
  *slot = sum;
  return TRUE;
}
/* Whether some output of @node got a gradient. */
static gboolean
has_output_grad (GnnNode *node)
{
  for (guint i = 0; i < node->n_outputs; i++)
    if (node->grads_out[i] != NULL)
      return TRUE;
  return FALSE;
}

static void
clear_output_grads (GnnNode *node)
{
  for (guint i = 0; i < node->n_outputs; i++)
    g_clear_object (&node->grads_out[i]);
}

static gboolean
run_graph (GnnNode   *root,
           guint      root_output,
           GnnTensor *gradient,
           gboolean   retain_graph,
           GError   **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  g_autoptr(GPtrArray) ready = g_ptr_array_new ();
  g_autoptr(GHashTable) leaf_hooks = NULL;   /* leaves with Tensor.register_hook hooks */
  GHashTableIter iter;
  gpointer key;
  gboolean ok = TRUE;

  /* Count, for every reachable node, the edges that lead into it. */
  g_hash_table_add (seen, root);
  root->deps = 0;
  g_ptr_array_add (stack, root);
  while (stack->len > 0)
    {
      GnnNode *n = g_ptr_array_steal_index_fast (stack, stack->len - 1);

      if (n->freed)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                       "Trying to backward through the graph a second time (or directly access "
                       "saved tensors after they have already been freed). Saved intermediate "
                       "values of the graph are freed when you call .backward() or "
                       "autograd.grad(). Specify retain_graph=True if you need to backward "
                       "through the graph a second time or if you need to access saved tensors "
                       "after calling backward. (node %s)", n->name);
          return FALSE;
        }
      for (guint i = 0; i < n->n_inputs; i++)
        {
          GnnNode *next = n->edges[i].node;

          if (n->edges[i].leaf != NULL)
            {
              gnn_grad_hooks_count_edge (n->edges[i].leaf);   /* DDP: grad-ready hooks */
              gnn_leaf_hooks_count (&leaf_hooks, n->edges[i].leaf);
            }
          if (next == NULL)
            continue;
          if (g_hash_table_add (seen, next))
            {
              next->deps = 0;
              g_ptr_array_add (stack, next);
            }
          next->deps++;
        }
    }

  root->grads_out[MIN (root_output, root->n_outputs - 1)] = g_object_ref (gradient);
  g_ptr_array_add (ready, root);
  while (ok && ready->len > 0)
    {
      GnnNode *n = g_ptr_array_steal_index_fast (ready, ready->len - 1);
      g_autofree GnnTensor **grads = g_new0 (GnnTensor *, n->n_inputs);

      if (n->tensor_hooks != NULL || n->retainers != NULL)
        gnn_node_run_output_hooks (n);
      if (has_output_grad (n) && n->has_saved)
        ok = gnn_node_check_saved (n, error);
      if (ok && has_output_grad (n))
        ok = n->backward (n, n->grads_out[0], grads, error);
      clear_output_grads (n);
      for (guint i = 0; i < n->n_inputs; i++)
        {
          GnnEdge *e = &n->edges[i];

          /* an input of another dtype (promoted by the op) gets its
           * gradient in its own dtype, as torch's engine casts it */
          if (ok && grads[i] != NULL && gnn_tensor_get_dtype (grads[i]) != n->inputs[i].dtype)
            {
              GnnTensor *cast = gnn_tensor_to_dtype (grads[i], n->inputs[i].dtype, error);

              g_object_unref (grads[i]);
              grads[i] = cast;
              ok = cast != NULL;
            }
          if (e->leaf != NULL && leaf_hooks != NULL)
            {
              g_autoptr(GnnTensor) hooked = NULL;

              /* a hooked leaf gets its summed gradient through its hooks */
              if (gnn_leaf_hooks_edge (leaf_hooks, e->leaf, ok ? grads[i] : NULL, &hooked))
                {
                  if (ok && hooked != NULL)
                    accumulate_leaf (e->leaf, hooked);
                  g_clear_object (&grads[i]);
                }
            }
          if (ok && grads[i] != NULL)
            {
              if (e->node != NULL)
                ok = accumulate_node (e->node, e->input_nr, grads[i], error);
              else if (e->leaf != NULL)
                accumulate_leaf (e->leaf, grads[i]);
            }
          g_clear_object (&grads[i]);
          if (ok && e->leaf != NULL)
            gnn_grad_hooks_edge_done (e->leaf);
          if (e->node != NULL && --e->node->deps == 0)
            g_ptr_array_add (ready, e->node);
        }
      if (!retain_graph && n->has_saved)
        {
          gnn_node_release_saved (n);
          n->freed = TRUE;
        }
    }

  /* After an error, drop the partial gradients. */
  g_hash_table_iter_init (&iter, seen);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    clear_output_grads (key);
  return ok;
}

/**
 * gnn_tensor_backward:
 * @self: the tensor to differentiate, usually a scalar loss
 * @gradient: (nullable): the gradient of some final value with respect to
 *   @self, of @self's shape; %NULL for a one-element @self (taken as 1)
 * @retain_graph: whether to keep the graph's saved tensors so that a second
 *   backward pass through it works
 * @error: return location for a #GError
 *
 * Computes the gradient of @self with respect to every leaf tensor that
 * requires grad and that @self was computed from, and adds it to the leaf's
 * [property@Gnn.Tensor:grad] (like `self.backward (gradient, retain_graph)`).
 * Gradients accumulate over calls; clear them with
 * `gnn_tensor_set_grad (leaf, NULL)` or a module's `zero_grad`.
 *
 * The graph is walked iteratively, so arbitrarily long chains of operations
 * are fine. Without @retain_graph the saved tensors of the nodes passed are
 * freed and a second backward through them fails.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_AUTOGRAD) if @self
 *   does not require grad ("element 0 of tensors does not require grad and
 *   does not have a grad_fn"), @gradient is missing for a non-scalar ("grad
 *   can be implicitly created only for scalar outputs") or of the wrong
 *   shape, or the graph was already freed ("Trying to backward through the
 *   graph a second time …")
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_backward (GnnTensor  *self,
                     GnnTensor  *gradient,
                     gboolean    retain_graph,
                     GError    **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) grad = NULL;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (gradient == NULL || GNN_IS_TENSOR (gradient), FALSE);
  p = gnn_tensor_priv (self);

  if (!p->requires_grad)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "element 0 of tensors does not require grad and does not have a grad_fn");
      return FALSE;
    }
  if (gradient == NULL)
    {
      if (p->numel != 1)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                               "grad can be implicitly created only for scalar outputs");
          return FALSE;
        }
      grad = gnn_tensor_new_contiguous (p->dtype, p->shape, p->ndim, FALSE);
      gnn_tensor_fill_fresh (grad, 1.0);
    }
  else
    {
      GnnTensorPrivate *gp = gnn_tensor_priv (gradient);

      if (gp->ndim != p->ndim || memcmp (gp->shape, p->shape, sizeof (gint64) * p->ndim) != 0)
        {
          g_autofree char *gs = gnn_shape_to_string (gp->shape, gp->ndim);
          g_autofree char *ss = gnn_shape_to_string (p->shape, p->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Mismatch in shape: grad_output[0] has a shape of torch.Size(%s) and "
                       "output[0] has a shape of torch.Size(%s).", gs, ss);
          return FALSE;
        }
      grad = gnn_tensor_to_dtype (gradient, p->dtype, error);
      if (grad == NULL)
        return FALSE;
    }

  gnn_no_grad_push ();
  if (p->grad_fn == NULL)
    {
      g_autoptr(GnnTensor) hooked = gnn_leaf_run_tensor_hooks (self, grad);

      accumulate_leaf (self, hooked);
      ok = TRUE;
    }
  else
    {
      gnn_grad_hooks_pass_begin ();
      ok = run_graph (p->grad_fn, p->grad_fn_output, grad, retain_graph, error);
      ok = gnn_grad_hooks_pass_end (ok, error);
    }
  gnn_no_grad_pop ();
  return ok;
}
