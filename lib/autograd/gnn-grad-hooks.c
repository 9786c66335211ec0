/* gnn-grad-hooks.c: gradient-ready hooks on leaves and end-of-backward
 * callbacks
 *
 * A leaf can be reached through several edges of one graph (a weight used
 * twice); its gradient is final only when the last of them has been
 * processed. The engine reports every edge into a hooked leaf when it counts
 * dependencies and again when it processes the edge, and the hooks fire when
 * the count drops to zero: once per backward pass, like torch's post hooks
 * on AccumulateGrad. With no hooks anywhere every entry point returns at
 * once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-grad-hooks-private.h"

typedef struct
{
  guint            id;
  GnnGradReadyFunc func;
  gpointer         user_data;
} GradHook;

typedef struct
{
  GnnBackwardCallback func;
  gpointer            user_data;
} QueuedCallback;

/* One backward pass on this thread (passes nest when a hook runs backward). */
typedef struct
{
  GHashTable *pending;     /* leaf -> edges left (GUINT_TO_POINTER) */
  GArray     *callbacks;   /* QueuedCallback */
} Pass;

static GMutex hooks_lock;
static gint n_hooked_leaves;   /* atomic: leaves with at least one hook */
static guint next_hook_id = 1;
static GPrivate pass_stack = G_PRIVATE_INIT ((GDestroyNotify) g_ptr_array_unref);

G_DEFINE_QUARK (gnn-grad-hooks, grad_hooks)

static void
hooks_free (gpointer data)
{
  g_array_unref (data);
  g_atomic_int_add (&n_hooked_leaves, -1);
}

guint
gnn_grad_hook_add (GnnTensor        *leaf,
                   GnnGradReadyFunc  func,
                   gpointer          user_data)
{
  GArray *hooks;
  GradHook hook = { 0, func, user_data };

  g_return_val_if_fail (GNN_IS_TENSOR (leaf) && func != NULL, 0);
  g_mutex_lock (&hooks_lock);
  hooks = g_object_get_qdata (G_OBJECT (leaf), grad_hooks_quark ());
  if (hooks == NULL)
    {
      hooks = g_array_new (FALSE, FALSE, sizeof (GradHook));
      g_object_set_qdata_full (G_OBJECT (leaf), grad_hooks_quark (), hooks, hooks_free);
      g_atomic_int_inc (&n_hooked_leaves);
    }
  hook.id = next_hook_id++;
  g_array_append_val (hooks, hook);
  g_mutex_unlock (&hooks_lock);
  return hook.id;
}

void
gnn_grad_hook_remove (GnnTensor *leaf,
                      guint      id)
{
  GArray *hooks;

  g_return_if_fail (GNN_IS_TENSOR (leaf));
  g_mutex_lock (&hooks_lock);
  hooks = g_object_get_qdata (G_OBJECT (leaf), grad_hooks_quark ());
  for (guint i = 0; hooks != NULL && i < hooks->len; i++)
    if (g_array_index (hooks, GradHook, i).id == id)
      {
        g_array_remove_index (hooks, i);
        break;
      }
  if (hooks != NULL && hooks->len == 0)
    g_object_set_qdata (G_OBJECT (leaf), grad_hooks_quark (), NULL);
  g_mutex_unlock (&hooks_lock);
}

static GPtrArray *
stack_get (void)
{
  GPtrArray *stack = g_private_get (&pass_stack);

  if (stack == NULL)
    {
      stack = g_ptr_array_new ();
      g_private_set (&pass_stack, stack);
    }
  return stack;
}

static Pass *
current_pass (void)
{
  GPtrArray *stack = g_private_get (&pass_stack);

  return stack != NULL && stack->len > 0 ? g_ptr_array_index (stack, stack->len - 1) : NULL;
}

void
gnn_grad_hooks_pass_begin (void)
{
  Pass *pass = NULL;

  if (g_atomic_int_get (&n_hooked_leaves) > 0)
    {
      pass = g_new0 (Pass, 1);
      pass->pending = g_hash_table_new (NULL, NULL);
      pass->callbacks = g_array_new (FALSE, FALSE, sizeof (QueuedCallback));
    }
  g_ptr_array_add (stack_get (), pass);
}

static gboolean
has_hooks (GnnTensor *leaf)
{
  gboolean any;

  g_mutex_lock (&hooks_lock);
  any = g_object_get_qdata (G_OBJECT (leaf), grad_hooks_quark ()) != NULL;
  g_mutex_unlock (&hooks_lock);
  return any;
}

void
gnn_grad_hooks_count_edge (GnnTensor *leaf)
{
  Pass *pass = current_pass ();
  guint n;

  if (pass == NULL || !has_hooks (leaf))
    return;
  n = GPOINTER_TO_UINT (g_hash_table_lookup (pass->pending, leaf));
  g_hash_table_insert (pass->pending, leaf, GUINT_TO_POINTER (n + 1));
}

void
gnn_grad_hooks_edge_done (GnnTensor *leaf)
{
  Pass *pass = current_pass ();
  g_autoptr(GArray) hooks = NULL;
  GArray *live;
  guint n;

  if (pass == NULL)
    return;
  n = GPOINTER_TO_UINT (g_hash_table_lookup (pass->pending, leaf));
  if (n == 0)
    return;
  if (n > 1)
    {
      g_hash_table_insert (pass->pending, leaf, GUINT_TO_POINTER (n - 1));
      return;
    }
  g_hash_table_remove (pass->pending, leaf);
  /* A copy: a hook may add or remove hooks. */
  g_mutex_lock (&hooks_lock);
  live = g_object_get_qdata (G_OBJECT (leaf), grad_hooks_quark ());
  if (live != NULL)
    {
      hooks = g_array_sized_new (FALSE, FALSE, sizeof (GradHook), live->len);
      g_array_append_vals (hooks, live->data, live->len);
    }
  g_mutex_unlock (&hooks_lock);
  for (guint i = 0; hooks != NULL && i < hooks->len; i++)
    {
      GradHook *h = &g_array_index (hooks, GradHook, i);

      h->func (leaf, h->user_data);
    }
}

void
gnn_autograd_queue_callback (GnnBackwardCallback func,
                             gpointer            user_data)
{
  Pass *pass = current_pass ();
  QueuedCallback cb = { func, user_data };

  g_return_if_fail (pass != NULL);
  g_array_append_val (pass->callbacks, cb);
}

gboolean
gnn_grad_hooks_pass_end (gboolean   ok,
                         GError   **error)
{
  GPtrArray *stack = stack_get ();
  Pass *pass;

  g_return_val_if_fail (stack->len > 0, ok);
  pass = g_ptr_array_steal_index (stack, stack->len - 1);
  if (pass == NULL)
    return ok;
  /* Callbacks see the pass's status; the first failure is the pass's error. */
  for (guint i = 0; i < pass->callbacks->len; i++)
    {
      QueuedCallback *cb = &g_array_index (pass->callbacks, QueuedCallback, i);
      g_autoptr(GError) local = NULL;

      if (!cb->func (ok, cb->user_data, &local) && ok)
        {
          ok = FALSE;
          g_propagate_error (error, g_steal_pointer (&local));
        }
    }
  g_hash_table_unref (pass->pending);
  g_array_unref (pass->callbacks);
  g_free (pass);
  return ok;
}
