/* gnn-autograd-tensor.c: a tensor's place in the graph — is_leaf, the
 * grad_fn's name, retain_grad (a non-leaf's .grad filled by backward, as
 * torch's Tensor.retain_grad) and detach_.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"

typedef struct
{
  GWeakRef tensor;
  guint    output_nr;
  guint    seq;        /* ordered with the tensor hooks (gnn-tensor-hooks.c) */
} Retainer;

static void
retainer_free (gpointer data)
{
  Retainer *r = data;

  g_weak_ref_clear (&r->tensor);
  g_free (r);
}

void
gnn_node_add_retainer (GnnNode   *node,
                       GnnTensor *t,
                       guint      output_nr)
{
  Retainer *r;

  if (node->retainers == NULL)
    node->retainers = g_ptr_array_new_with_free_func (retainer_free);
  for (guint i = 0; i < node->retainers->len; i++)
    {
      g_autoptr(GnnTensor) held = NULL;

      r = g_ptr_array_index (node->retainers, i);
      held = g_weak_ref_get (&r->tensor);
      if (held == t)
        return;
    }
  r = g_new0 (Retainer, 1);
  g_weak_ref_init (&r->tensor, t);
  r->output_nr = output_nr;
  r->seq = gnn_tensor_hook_next_seq ();
  g_ptr_array_add (node->retainers, r);
}

void
gnn_node_retain_range (GnnNode *node,
                       guint    output_nr,
                       guint    lo,
                       guint    hi)
{
  for (guint i = 0; node->retainers != NULL && i < node->retainers->len; i++)
    {
      Retainer *r = g_ptr_array_index (node->retainers, i);
      g_autoptr(GnnTensor) t = NULL;
      GnnTensor *grad = r->output_nr < node->n_outputs ? node->grads_out[r->output_nr] : NULL;
      GnnTensor *current;

      if (r->output_nr != output_nr || r->seq < lo || r->seq >= hi)
        continue;
      t = g_weak_ref_get (&r->tensor);
      /* only while @t is still this output (not rebased by an in-place op) */
      if (t == NULL || grad == NULL || gnn_tensor_priv (t)->grad_fn != node)
        continue;
      current = gnn_tensor_get_grad (t);
      if (current == NULL)
        {
          g_autoptr(GnnTensor) copy = gnn_tensor_clone (grad);

          gnn_tensor_set_grad (t, copy);
        }
      else
        {
          g_autoptr(GnnTensor) sum = gnn_tensor_add (current, grad, NULL);

          if (sum != NULL)
            gnn_tensor_set_grad (t, sum);
        }
    }
}

/**
 * gnn_tensor_retain_grad:
 * @self: a #GnnTensor
 *
 * Makes backward fill @self's [property@Gnn.Tensor:grad] although it is
 * not a leaf (like `tensor.retain_grad ()`); nothing changes for a leaf.
 *
 * Since: 0.1
 */
void
gnn_tensor_retain_grad (GnnTensor *self)
{
  GnnTensorPrivate *p;

  g_return_if_fail (GNN_IS_TENSOR (self));
  p = gnn_tensor_priv (self);
  if (p->grad_fn == NULL)
    return;
  p->retains_grad = TRUE;
  gnn_node_add_retainer (p->grad_fn, self, p->grad_fn_output);
}

/**
 * gnn_tensor_get_retains_grad:
 * @self: a #GnnTensor
 *
 * Whether @self is a non-leaf whose gradient backward keeps (like
 * `tensor.retains_grad`).
 *
 * Returns: %TRUE after [method@Gnn.Tensor.retain_grad] on a non-leaf
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_get_retains_grad (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->retains_grad && gnn_tensor_priv (self)->grad_fn != NULL;
}

/**
 * gnn_tensor_detach_:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Takes @self out of the graph in place (like `tensor.detach_ ()`): it
 * becomes a leaf that does not require grad. Refused for a view of a
 * tensor in the graph, as torch refuses it.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_detach_ (GnnTensor *self,
                    GError   **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  p = gnn_tensor_priv (self);
  if (p->view_base != NULL && gnn_tensor_priv (p->view_base)->requires_grad)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "Can't detach views in-place. Use detach() instead. If you are using "
                           "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view "
                           "is set as True, gradients are views of DDP buckets, and hence detach_() "
                           "cannot be called on these gradients. To fix this error, please refer to "
                           "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                           "solution.");
      return FALSE;
    }
  if (p->grad_fn_destroy != NULL && p->grad_fn != NULL)
    p->grad_fn_destroy (p->grad_fn);
  p->grad_fn = NULL;
  p->grad_fn_destroy = NULL;
  p->grad_fn_output = 0;
  p->requires_grad = FALSE;
  p->retains_grad = FALSE;
  return TRUE;
}

/**
 * gnn_tensor_is_leaf:
 * @self: a #GnnTensor
 *
 * Whether @self is a leaf of the autograd graph (like `tensor.is_leaf`):
 * every tensor that does not require grad, and tensors that require grad
 * but were not computed by a recorded operation (parameters, inputs made
 * with `requires_grad`).
 *
 * Returns: %TRUE for a leaf
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_is_leaf (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->grad_fn == NULL;
}

/**
 * gnn_tensor_get_grad_fn_name:
 * @self: a #GnnTensor
 *
 * The name of the graph node that computed @self, PyTorch style
 * (`"AddBackward0"`, `"MmBackward0"` …), as in `type (t.grad_fn).__name__`.
 *
 * Returns: (nullable) (transfer none): the node's name, or %NULL for a leaf
 *
 * Since: 0.1
 */
const char *
gnn_tensor_get_grad_fn_name (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_grad_fn_name (self);
}
