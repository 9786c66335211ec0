/* gnn-module-call.c: GnnModule's call path and forward hooks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-private.h"
#include "tensor/gnn-tensor-private.h"
#include "core/gnn-fork-private.h"

enum { PRE = 0, POST = 1 };

/* Global hooks: registered from any thread, so guarded; n_global_hooks lets
 * gnn_module_call() take the fast path without the lock. */
GNN_FORK_SAFE_MUTEX (global_lock);
static GPtrArray *global_hooks[2];
static gint n_global_hooks;

/* Nested gnn_module_call()s on this thread (see GNN_MODULE_MAX_CALL_DEPTH).
 * initial-exec: a plain %fs-relative access instead of a __tls_get_addr()
 * call on every module call (a 4-byte variable fits glibc's static TLS
 * reserve even when the library is dlopen()ed by a binding). */
#if defined(__GNUC__) && defined(__ELF__)
static _Thread_local int call_depth __attribute__ ((tls_model ("initial-exec")));
#else
static _Thread_local int call_depth;
#endif

GnnHook *
gnn_hook_ref (GnnHook *hook)
{
  g_atomic_ref_count_inc (&hook->ref_count);
  return hook;
}

void
gnn_hook_unref (GnnHook *hook)
{
  if (g_atomic_ref_count_dec (&hook->ref_count))
    {
      if (hook->destroy != NULL)
        hook->destroy (hook->user_data);
      g_free (hook);
    }
}

static GnnHook *
hook_new (gpointer       func,
          gpointer       user_data,
          GDestroyNotify destroy,
          GnnHookFlags   flags)
{
  GnnHook *hook = g_new0 (GnnHook, 1);

  g_atomic_ref_count_init (&hook->ref_count);
  hook->func = func;
  hook->user_data = user_data;
  hook->destroy = destroy;
  hook->flags = flags;
  return hook;
}

static void
hook_list_add (GPtrArray **list,
               GnnHook    *hook)
{
  if (*list == NULL)
    *list = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_hook_unref);
  if (hook->flags & GNN_HOOK_FLAGS_PREPEND)
    g_ptr_array_insert (*list, 0, gnn_hook_ref (hook));
  else
    g_ptr_array_add (*list, gnn_hook_ref (hook));
}

/* Removes @hook from @list, dropping the list when it becomes empty so that
 * gnn_module_call() is back on its fast path. */
static gboolean
hook_list_remove (GPtrArray **list,
                  GnnHook    *hook)
{
  hook->removed = TRUE;
  if (*list == NULL || !g_ptr_array_remove (*list, hook))
    return FALSE;
  if ((*list)->len == 0)
    g_clear_pointer (list, g_ptr_array_unref);
  return TRUE;
}

void
gnn_module_remove_hook (GnnModule *module,
                        int        list_kind,
                        GnnHook   *hook)
{
  if (module == NULL)
    {
      g_mutex_lock (&global_lock);
      if (hook_list_remove (&global_hooks[list_kind], hook))
        g_atomic_int_dec_and_test (&n_global_hooks);
      g_mutex_unlock (&global_lock);
      return;
    }
  else
    {
      GnnModulePrivate *priv = gnn_module_priv (module);
      hook_list_remove (list_kind == PRE ? &priv->pre_hooks : &priv->hooks, hook);
    }
}

static GnnHookHandle *
register_module_hook (GnnModule     *self,
                      int            list_kind,
                      gpointer       func,
                      gpointer       user_data,
                      GDestroyNotify destroy,
                      GnnHookFlags   flags)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  GnnHook *hook = hook_new (func, user_data, destroy, flags);
  GnnHookHandle *handle;

  hook_list_add (list_kind == PRE ? &priv->pre_hooks : &priv->hooks, hook);
  handle = gnn_hook_handle_new (self, list_kind, hook);
  gnn_hook_unref (hook);
  return handle;
}

static GnnHookHandle *
register_global_hook (int            list_kind,
                      gpointer       func,
                      gpointer       user_data,
                      GDestroyNotify destroy,
                      GnnHookFlags   flags)
{
  GnnHook *hook = hook_new (func, user_data, destroy, flags);
  GnnHookHandle *handle;

  g_mutex_lock (&global_lock);
  hook_list_add (&global_hooks[list_kind], hook);
  g_atomic_int_inc (&n_global_hooks);
  g_mutex_unlock (&global_lock);
  handle = gnn_hook_handle_new (NULL, list_kind, hook);
  gnn_hook_unref (hook);
  return handle;
}

/**
 * gnn_module_register_forward_pre_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND to run before the hooks already registered
 *
 * Registers a hook that [method@Gnn.Module.call] runs before forward; it may
 * replace the input (PyTorch's `register_forward_pre_hook`).
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 1.0
 */
GnnHookHandle *
gnn_module_register_forward_pre_hook (GnnModule            *self,
                                      GnnForwardPreHookFunc func,
                                      gpointer              user_data,
                                      GDestroyNotify        destroy,
                                      GnnHookFlags          flags)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  return register_module_hook (self, PRE, func, user_data, destroy, flags);
}

/**
 * gnn_module_register_forward_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND to run first,
 *   %GNN_HOOK_FLAGS_ALWAYS_CALL to run even when the call fails
 *
 * Registers a hook that [method@Gnn.Module.call] runs after forward; it may
 * replace the output (PyTorch's `register_forward_hook`).
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 1.0
 */
GnnHookHandle *
gnn_module_register_forward_hook (GnnModule         *self,
                                  GnnForwardHookFunc func,
                                  gpointer           user_data,
                                  GDestroyNotify     destroy,
                                  GnnHookFlags       flags)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  return register_module_hook (self, POST, func, user_data, destroy, flags);
}

/**
 * gnn_module_register_global_forward_pre_hook:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND to run before the hooks already registered
 *
 * Registers a pre-hook for every module, run before the module's own
 * pre-hooks (PyTorch's `register_module_forward_pre_hook`).
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 1.0
 */
GnnHookHandle *
gnn_module_register_global_forward_pre_hook (GnnForwardPreHookFunc func,
                                             gpointer              user_data,
                                             GDestroyNotify        destroy,
                                             GnnHookFlags          flags)
{
  g_return_val_if_fail (func != NULL, NULL);

  return register_global_hook (PRE, func, user_data, destroy, flags);
}

/**
 * gnn_module_register_global_forward_hook:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND, %GNN_HOOK_FLAGS_ALWAYS_CALL
 *
 * Registers a forward hook for every module, run before the module's own
 * forward hooks (PyTorch's `register_module_forward_hook`).
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 1.0
 */
GnnHookHandle *
gnn_module_register_global_forward_hook (GnnForwardHookFunc func,
                                         gpointer           user_data,
                                         GDestroyNotify     destroy,
                                         GnnHookFlags       flags)
{
  g_return_val_if_fail (func != NULL, NULL);

  return register_global_hook (POST, func, user_data, destroy, flags);
}

/**
 * gnn_module_forward: (virtual forward)
 * @self: a module
 * @input: the input
 * @error: return location for a #GError
 *
 * Runs the module's computation without hooks. Subclasses implement it (in
 * Python `do_forward`, in GJS `vfunc_forward`); callers normally use
 * [method@Gnn.Module.call].
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 1.0
 */
GnnTensor *
gnn_module_forward (GnnModule  *self,
                    GnnTensor  *input,
                    GError    **error)
{
  GnnModuleClass *klass;
  GError *local_error = NULL;
  GnnTensor *output;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  klass = GNN_MODULE_GET_CLASS (self);
  if (klass->forward == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "Module [%s] is missing the required \"forward\" function",
                   gnn_module_get_name (self));
      return NULL;
    }
  /* A use window: the children and tensors forward borrows stay alive
   * while another thread changes the registry (gnn-module-registry.c). */
  gnn_module_use_begin ();
  /* Meta parameters would reach kernels through forward fast paths: refuse
   * them here (free while no meta storage exists). */
  if (G_UNLIKELY (g_atomic_int_get (&gnn_storage_meta_live) > 0) &&
      !gnn_module_check_storage (self, input, error))
    {
      gnn_module_use_end ();
      return NULL;
    }
  output = klass->forward (self, input, &local_error);
  gnn_module_use_end ();
  if (local_error != NULL)
    {
      g_clear_object (&output);
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (output == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "forward of %s returned no output and no error", gnn_module_get_name (self));
  return output;
}

/* A snapshot of the hooks of one kind, each referenced: a call iterates it
 * while hooks may remove themselves or others. Small snapshots live on the
 * stack, so a call with a few hooks allocates nothing. */
#define HOOK_SNAPSHOT_INLINE 8

typedef struct
{
  GnnHook **hooks;
  guint     len;
  GnnHook  *inline_hooks[HOOK_SNAPSHOT_INLINE];
} HookSnapshot;

static void
snapshot_add_list (HookSnapshot *snap,
                   guint        *capacity,
                   GPtrArray    *list)
{
  if (list == NULL || list->len == 0)
    return;
  if (snap->len + list->len > *capacity)
    {
      guint new_capacity = MAX (*capacity * 2, snap->len + list->len);

      if (snap->hooks == snap->inline_hooks)
        {
          snap->hooks = g_new (GnnHook *, new_capacity);
          memcpy (snap->hooks, snap->inline_hooks, snap->len * sizeof (GnnHook *));
        }
      else
        snap->hooks = g_renew (GnnHook *, snap->hooks, new_capacity);
      *capacity = new_capacity;
    }
  for (guint i = 0; i < list->len; i++)
    snap->hooks[snap->len++] = gnn_hook_ref (g_ptr_array_index (list, i));
}

/* Snapshot of the hooks of one kind: global ones first, then the module's. */
static void
snapshot_collect (HookSnapshot *snap,
                  GPtrArray    *local,
                  int           list_kind)
{
  guint capacity = HOOK_SNAPSHOT_INLINE;

  snap->hooks = snap->inline_hooks;
  snap->len = 0;
  if (g_atomic_int_get (&n_global_hooks) > 0)
    {
      g_mutex_lock (&global_lock);
      snapshot_add_list (snap, &capacity, global_hooks[list_kind]);
      g_mutex_unlock (&global_lock);
    }
  snapshot_add_list (snap, &capacity, local);
}

static void
snapshot_clear (HookSnapshot *snap)
{
  for (guint i = 0; i < snap->len; i++)
    gnn_hook_unref (snap->hooks[i]);
  if (snap->hooks != snap->inline_hooks)
    g_free (snap->hooks);
  snap->hooks = snap->inline_hooks;
  snap->len = 0;
}

/* A hook's replacement must be a tensor (a binding may hand back any
 * object); anything else fails the call instead of being passed on. */
static void
check_hook_result (GObject   **replaced,
                   const char *what,
                   GnnModule  *self,
                   GError    **error)
{
  if (GNN_IS_TENSOR (*replaced))
    return;
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s of %s returned a %s instead of a GnnTensor or NULL", what,
               gnn_module_get_name (self),
               G_OBJECT_TYPE_NAME (*replaced));
  g_clear_object (replaced);
}

/* After a failure: the always-call forward hooks that have not run yet run
 * now; their own errors are dropped so the caller sees the first one. */
static void
run_always_call_hooks (GnnModule    *self,
                       HookSnapshot *post,
                       guint         first,
                       GnnTensor    *input,
                       GnnTensor   **output)
{
  for (guint i = first; i < post->len; i++)
    {
      GnnHook *hook = post->hooks[i];
      g_autoptr(GError) hook_error = NULL;
      GnnTensor *replaced;

      if (hook->removed || !(hook->flags & GNN_HOOK_FLAGS_ALWAYS_CALL))
        continue;
      replaced = ((GnnForwardHookFunc) hook->func) (self, input, *output,
                                                    hook->user_data, &hook_error);
      if (hook_error == NULL && replaced != NULL)
        check_hook_result ((GObject **) &replaced, "forward hook", self, &hook_error);
      if (hook_error != NULL)
        {
          g_debug ("forward hook with always-call failed while another error was "
                   "being reported: %s", hook_error->message);
          g_clear_object (&replaced);
          continue;
        }
      if (replaced != NULL)
        {
          g_clear_object (output);
          *output = replaced;
        }
    }
}

static GnnTensor *
call_with_hooks (GnnModule        *self,
                 GnnModulePrivate *priv,
                 GnnTensor        *input,
                 GError          **error)
{
  HookSnapshot pre, post;
  GnnTensor *current_input;
  GnnTensor *output = NULL;
  GError *local_error = NULL;
  guint i;

  /* Keep the module alive even if a hook drops the caller's last ref. */
  g_object_ref (self);
  snapshot_collect (&pre, priv->pre_hooks, PRE);
  /* The forward hooks are taken after forward, as PyTorch builds their
   * tuple then: one removed by a pre-hook or by forward does not run, one
   * they added does. */
  post.hooks = post.inline_hooks;
  post.len = 0;
  current_input = g_object_ref (input);

  for (i = 0; i < pre.len; i++)
    {
      GnnHook *hook = pre.hooks[i];
      GnnTensor *replaced;

      /* Hooks run as captured at call start, even if one removed another
       * meanwhile (PyTorch iterates a tuple of them). */
      replaced = ((GnnForwardPreHookFunc) hook->func) (self, current_input,
                                                       hook->user_data, &local_error);
      if (local_error == NULL && replaced != NULL)
        check_hook_result ((GObject **) &replaced, "forward pre-hook", self, &local_error);
      if (local_error != NULL)
        {
          g_clear_object (&replaced);
          goto failed;
        }
      if (replaced != NULL)
        {
          g_object_unref (current_input);
          current_input = replaced;
        }
    }

  output = gnn_module_forward (self, current_input, &local_error);
  if (output == NULL)
    goto failed;

  snapshot_collect (&post, priv->hooks, POST);
  for (i = 0; i < post.len; i++)
    {
      GnnHook *hook = post.hooks[i];
      GnnTensor *replaced;

      replaced = ((GnnForwardHookFunc) hook->func) (self, current_input, output,
                                                    hook->user_data, &local_error);
      if (local_error == NULL && replaced != NULL)
        check_hook_result ((GObject **) &replaced, "forward hook", self, &local_error);
      if (local_error != NULL)
        {
          g_clear_object (&replaced);
          i++;   /* this hook ran (PyTorch marks it called before running) */
          goto failed;
        }
      if (replaced != NULL)
        {
          g_object_unref (output);
          output = replaced;
        }
    }
  snapshot_clear (&pre);
  snapshot_clear (&post);
  g_object_unref (current_input);
  g_object_unref (self);
  return output;

failed:
  /* i: the first forward hook that has not run (0 if forward did not
   * complete: the always-call hooks are those registered now, as PyTorch
   * walks its hook dict in its exception handler). */
  if (output == NULL)
    {
      i = 0;
      snapshot_clear (&post);
      snapshot_collect (&post, priv->hooks, POST);
    }
  run_always_call_hooks (self, &post, i, current_input, &output);
  g_clear_object (&output);
  g_propagate_error (error, local_error);
  snapshot_clear (&pre);
  snapshot_clear (&post);
  g_object_unref (current_input);
  g_object_unref (self);
  return NULL;
}

/**
 * gnn_module_call:
 * @self: a module
 * @input: the input
 * @error: return location for a #GError
 *
 * Calls the module, like PyTorch's `module(input)`: global forward
 * pre-hooks, the module's pre-hooks (each may replace the input),
 * [method@Gnn.Module.forward], global forward hooks, the module's forward
 * hooks (each may replace the output). When any step fails, the hooks
 * registered with %GNN_HOOK_FLAGS_ALWAYS_CALL that have not run yet still
 * run (with the output so far, possibly %NULL), and the caller gets the
 * first error. With no hooks registered this calls forward directly.
 *
 * Calls nest (a container calls its children): more than
 * %GNN_MODULE_MAX_CALL_DEPTH nested calls on one thread fail with
 * %GNN_ERROR_NOT_SUPPORTED ("maximum recursion depth exceeded"), as Python's
 * recursion limit stops PyTorch, instead of overflowing the C stack.
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 1.0
 */
/**
 * gnn_module_has_forward_hooks:
 * @self: a module
 *
 * Whether [method@Gnn.Module.call] on @self would run hooks: forward
 * pre-hooks or forward hooks of its own, or global ones. A binding that
 * calls a forward of its own language directly (the Python binding, for
 * a forward with several inputs or outputs) asks it first.
 *
 * Returns: %TRUE if a call of @self runs hooks
 *
 * Since: 1.0
 */
gboolean
gnn_module_has_forward_hooks (GnnModule *self)
{
  GnnModulePrivate *priv;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  priv = gnn_module_priv (self);
  return priv->pre_hooks != NULL || priv->hooks != NULL || g_atomic_int_get (&n_global_hooks) > 0;
}

GnnTensor *
gnn_module_call (GnnModule  *self,
                 GnnTensor  *input,
                 GError    **error)
{
  GnnModulePrivate *priv;
  GnnTensor *output;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  priv = gnn_module_priv (self);

  if (G_UNLIKELY (call_depth >= GNN_MODULE_MAX_CALL_DEPTH))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "maximum recursion depth exceeded while calling %s (more than %d nested "
                   "module calls)", gnn_module_get_name (self), GNN_MODULE_MAX_CALL_DEPTH);
      return NULL;
    }
  call_depth++;
  gnn_module_use_begin ();   /* hooks borrow too */
  if (priv->pre_hooks == NULL && priv->hooks == NULL &&
      g_atomic_int_get (&n_global_hooks) == 0)
    output = gnn_module_forward (self, input, error);
  else
    output = call_with_hooks (self, priv, input, error);
  gnn_module_use_end ();
  call_depth--;
  return output;
}
