/* gnn-autograd-node.c: the lifetime of graph nodes: references, and the release of
 * the tensors a node saved for backward
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"

GnnNode *
gnn_node_ref (GnnNode *node)
{
  g_atomic_ref_count_inc (&node->ref_count);
  return node;
}

void
gnn_node_release_saved (GnnNode *node)
{
  if (node->saved != NULL)
    for (guint i = 0; i < node->n_inputs; i++)
      g_clear_object (&node->saved[i]);
  g_clear_pointer (&node->saved_extra, g_ptr_array_unref);
  g_clear_pointer (&node->saved_extra_versions, g_array_unref);
  g_clear_object (&node->saved_out);
  for (guint i = 0; i < G_N_ELEMENTS (node->params.extra); i++)
    g_clear_object (&node->params.extra[i]);
}

void
gnn_node_unref (GnnNode *node)
{
  /* Dropping the last reference to a long chain would recurse once per node
   * through the edges: unlink iteratively with an explicit stack instead. */
  GPtrArray *dead = NULL;

  if (!g_atomic_ref_count_dec (&node->ref_count))
    return;
  dead = g_ptr_array_new ();
  g_ptr_array_add (dead, node);
  while (dead->len > 0)
    {
      GnnNode *n = g_ptr_array_steal_index_fast (dead, dead->len - 1);

      for (guint i = 0; i < n->n_inputs; i++)
        {
          GnnNode *next = n->edges[i].node;

          if (next != NULL && g_atomic_ref_count_dec (&next->ref_count))
            g_ptr_array_add (dead, next);
          g_clear_object (&n->edges[i].leaf);
        }
      gnn_node_release_saved (n);
      for (guint i = 0; i < n->n_outputs; i++)
        g_clear_object (&n->grads_out[i]);
      if (n->custom_free != NULL)
        n->custom_free (n->custom);
      g_clear_pointer (&n->retainers, g_ptr_array_unref);
      g_clear_pointer (&n->tensor_hooks, g_ptr_array_unref);
      g_free (n->grads_out);
      g_free (n->owned_name);
      g_free (n->saved);
      g_free (n->edges);
      g_free (n->inputs);
      g_free (n);
    }
  g_ptr_array_unref (dead);
}
