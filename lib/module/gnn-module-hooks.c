/* gnn-module-hooks.c: registering forward hooks (module and global) and
 * the snapshots a call runs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-call-private.h"
#include "core/gnn-fork-private.h"

#define PRE GNN_HOOK_PRE
#define POST GNN_HOOK_POST

/* Global hooks: registered from any thread, so guarded;
 * gnn_module_n_global_hooks lets a call take the fast path without the
 * lock. */
GNN_FORK_SAFE_MUTEX (global_lock);
static GPtrArray *global_hooks[2];
gint gnn_module_n_global_hooks;

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
          GnnHookFlags   flags,
          gboolean       takes_values)
{
  GnnHook *hook = g_new0 (GnnHook, 1);

  g_atomic_ref_count_init (&hook->ref_count);
  hook->func = func;
  hook->user_data = user_data;
  hook->destroy = destroy;
  hook->flags = flags;
  hook->takes_values = takes_values;
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
        g_atomic_int_dec_and_test (&gnn_module_n_global_hooks);
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
                      GnnHookFlags   flags,
                      gboolean       takes_values)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  GnnHook *hook = hook_new (func, user_data, destroy, flags, takes_values);
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
                      GnnHookFlags   flags,
                      gboolean       takes_values)
{
  GnnHook *hook = hook_new (func, user_data, destroy, flags, takes_values);
  GnnHookHandle *handle;

  g_mutex_lock (&global_lock);
  hook_list_add (&global_hooks[list_kind], hook);
  g_atomic_int_inc (&gnn_module_n_global_hooks);
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
 * replace the input (PyTorch's `register_forward_pre_hook`). It sees one
 * tensor: a call whose arguments are anything but one tensor (see
 * [method@Gnn.Module.call_args]) fails with %GNN_ERROR_TYPE naming
 * [method@Gnn.Module.register_forward_pre_hook_args], the registration for
 * hooks that see every call shape.
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 0.1
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

  return register_module_hook (self, PRE, func, user_data, destroy, flags, FALSE);
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
 * replace the output (PyTorch's `register_forward_hook`). It sees one
 * tensor in and one out: a call with other arguments or another output
 * fails with %GNN_ERROR_TYPE naming
 * [method@Gnn.Module.register_forward_hook_args].
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 0.1
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

  return register_module_hook (self, POST, func, user_data, destroy, flags, FALSE);
}

/**
 * gnn_module_register_global_forward_pre_hook:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND to run before the hooks already registered
 *
 * Registers a pre-hook for every module, run before the module's own
 * pre-hooks (PyTorch's `register_module_forward_pre_hook`). Like
 * [method@Gnn.Module.register_forward_pre_hook] it sees one tensor; see
 * [func@Gnn.Module.register_global_forward_pre_hook_args] for every call
 * shape.
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 0.1
 */
GnnHookHandle *
gnn_module_register_global_forward_pre_hook (GnnForwardPreHookFunc func,
                                             gpointer              user_data,
                                             GDestroyNotify        destroy,
                                             GnnHookFlags          flags)
{
  g_return_val_if_fail (func != NULL, NULL);

  return register_global_hook (PRE, func, user_data, destroy, flags, FALSE);
}

/**
 * gnn_module_register_global_forward_hook:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND, %GNN_HOOK_FLAGS_ALWAYS_CALL
 *
 * Registers a forward hook for every module, run before the module's own
 * forward hooks (PyTorch's `register_module_forward_hook`). Like
 * [method@Gnn.Module.register_forward_hook] it sees one tensor in and
 * out; see [func@Gnn.Module.register_global_forward_hook_args] for every
 * call shape.
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 0.1
 */
GnnHookHandle *
gnn_module_register_global_forward_hook (GnnForwardHookFunc func,
                                         gpointer           user_data,
                                         GDestroyNotify     destroy,
                                         GnnHookFlags       flags)
{
  g_return_val_if_fail (func != NULL, NULL);

  return register_global_hook (POST, func, user_data, destroy, flags, FALSE);
}

/**
 * gnn_module_register_forward_pre_hook_args:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND to run before the hooks already
 *   registered, %GNN_HOOK_FLAGS_WITH_KWARGS to return `(args, kwargs)`
 *
 * Registers a hook that every call runs before forward, whatever its
 * arguments (PyTorch's `register_forward_pre_hook`): it receives the
 * positional arguments as a tuple (a call with one tensor `x` passes
 * `(x,)`) and the keyword arguments, and may replace them. It runs in
 * registration order among the module's other pre-hooks, those registered
 * with [method@Gnn.Module.register_forward_pre_hook] included.
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 0.1
 */
GnnHookHandle *
gnn_module_register_forward_pre_hook_args (GnnModule                *self,
                                           GnnForwardPreHookArgsFunc func,
                                           gpointer                  user_data,
                                           GDestroyNotify            destroy,
                                           GnnHookFlags              flags)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  return register_module_hook (self, PRE, func, user_data, destroy, flags, TRUE);
}

/**
 * gnn_module_register_forward_hook_args:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND to run first,
 *   %GNN_HOOK_FLAGS_ALWAYS_CALL to run even when the call fails
 *
 * Registers a hook that every call runs after forward, whatever its
 * arguments and output (PyTorch's `register_forward_hook`): it receives
 * the arguments forward received (a tuple and the keywords) and the
 * output, which it may replace.
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 0.1
 */
GnnHookHandle *
gnn_module_register_forward_hook_args (GnnModule             *self,
                                       GnnForwardHookArgsFunc func,
                                       gpointer               user_data,
                                       GDestroyNotify         destroy,
                                       GnnHookFlags           flags)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  return register_module_hook (self, POST, func, user_data, destroy, flags, TRUE);
}

/**
 * gnn_module_register_global_forward_pre_hook_args:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND, %GNN_HOOK_FLAGS_WITH_KWARGS
 *
 * Registers a pre-hook for every module and every call shape, run before
 * the module's own pre-hooks (PyTorch's
 * `register_module_forward_pre_hook`); see
 * [method@Gnn.Module.register_forward_pre_hook_args].
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 0.1
 */
GnnHookHandle *
gnn_module_register_global_forward_pre_hook_args (GnnForwardPreHookArgsFunc func,
                                                  gpointer                  user_data,
                                                  GDestroyNotify            destroy,
                                                  GnnHookFlags              flags)
{
  g_return_val_if_fail (func != NULL, NULL);

  return register_global_hook (PRE, func, user_data, destroy, flags, TRUE);
}

/**
 * gnn_module_register_global_forward_hook_args:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is gone
 * @flags: %GNN_HOOK_FLAGS_PREPEND, %GNN_HOOK_FLAGS_ALWAYS_CALL
 *
 * Registers a forward hook for every module and every call shape, run
 * before the module's own forward hooks (PyTorch's
 * `register_module_forward_hook`); see
 * [method@Gnn.Module.register_forward_hook_args].
 *
 * Returns: (transfer full): a handle that removes the hook
 *
 * Since: 0.1
 */
GnnHookHandle *
gnn_module_register_global_forward_hook_args (GnnForwardHookArgsFunc func,
                                              gpointer               user_data,
                                              GDestroyNotify         destroy,
                                              GnnHookFlags           flags)
{
  g_return_val_if_fail (func != NULL, NULL);

  return register_global_hook (POST, func, user_data, destroy, flags, TRUE);
}

static void
snapshot_add_list (GnnHookSnapshot *snap,
                   guint           *capacity,
                   GPtrArray       *list)
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

void
gnn_hook_snapshot_collect (GnnHookSnapshot *snap,
                           GPtrArray       *local,
                           int              list_kind)
{
  guint capacity = GNN_HOOK_SNAPSHOT_INLINE;

  gnn_hook_snapshot_init (snap);
  if (g_atomic_int_get (&gnn_module_n_global_hooks) > 0)
    {
      g_mutex_lock (&global_lock);
      snapshot_add_list (snap, &capacity, global_hooks[list_kind]);
      g_mutex_unlock (&global_lock);
    }
  snapshot_add_list (snap, &capacity, local);
}

void
gnn_hook_snapshot_clear (GnnHookSnapshot *snap)
{
  for (guint i = 0; i < snap->len; i++)
    gnn_hook_unref (snap->hooks[i]);
  if (snap->hooks != snap->inline_hooks)
    g_free (snap->hooks);
  gnn_hook_snapshot_init (snap);
}

/* --- running the hooks of a call -------------------------------------------- */

/* A one-tensor hook met by a call of another shape: an error naming the
 * registration that fits, never a silent skip. */
static void
set_tensor_hook_error (GError     **error,
                       GnnModule   *self,
                       const char  *what,
                       const char  *registration,
                       const char  *found)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s of %s takes one tensor (it was registered with %s), but the call has %s: "
               "register it with %s_args to see every call shape",
               what, gnn_module_get_name (self), registration, found, registration);
}

static char *
describe_input (GnnCallInput *in)
{
  g_autofree char *args = g_strdup_printf ("%" G_GSIZE_FORMAT " positional argument%s",
                                           gnn_value_get_length (in->args),
                                           gnn_value_get_length (in->args) == 1 ? "" : "s");

  if (in->kwargs != NULL)
    return g_strdup_printf ("%s and keyword arguments", args);
  if (gnn_value_get_length (in->args) == 1)
    return g_strdup_printf ("a %s argument", gnn_value_get_type_name (gnn_value_get_item (in->args, 0)));
  return g_steal_pointer (&args);
}

/* A tensor hook's replacement must be a tensor (a binding may hand back any
 * object); anything else fails the call instead of being passed on. */
static GnnTensor *
check_tensor_result (GnnTensor  *replaced,
                     const char *what,
                     GnnModule  *self,
                     GError    **error)
{
  if (replaced == NULL || GNN_IS_TENSOR (replaced))
    return replaced;
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s of %s returned a %s instead of a GnnTensor or NULL", what,
               gnn_module_get_name (self), G_OBJECT_TYPE_NAME (replaced));
  g_object_unref (replaced);
  return NULL;
}

/* A pre-hook's replacement: new positional arguments (a non-tuple becomes
 * a 1-tuple, as torch 1.13's _call_impl does), or with WITH_KWARGS the
 * pair (args, kwargs), as torch 2's. Takes @result. */
static gboolean
apply_pre_hook_result (GnnCallInput  *in,
                       GnnValue      *result,
                       gboolean       with_kwargs,
                       GError       **error)
{
  g_autoptr(GnnValue) owned = result;
  GnnValue *args, *kwargs;

  if (!with_kwargs)
    {
      args = gnn_value_get_kind (result) == GNN_VALUE_TUPLE ?
             gnn_value_ref (result) : gnn_value_new_tuple (&result, 1);
      kwargs = g_steal_pointer (&in->kwargs);   /* the keywords stay */
      gnn_call_input_clear (in);
      in->args = args;
      in->kwargs = kwargs;
      return TRUE;
    }
  if (gnn_value_get_kind (result) != GNN_VALUE_TUPLE || gnn_value_get_length (result) != 2 ||
      gnn_value_get_kind (gnn_value_get_item (result, 0)) != GNN_VALUE_TUPLE ||
      gnn_value_get_kind (gnn_value_get_item (result, 1)) != GNN_VALUE_DICT)
    {
      g_autofree char *text = gnn_value_to_string (result);

      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                   "but got %s.", text);
      return FALSE;
    }
  args = gnn_value_get_item (result, 0);
  kwargs = gnn_value_get_item (result, 1);
  gnn_call_input_clear (in);
  gnn_call_input_init_args (in, args, kwargs);
  return TRUE;
}

static inline gboolean
run_pre_hook (GnnModule     *self,
              GnnHook       *hook,
              GnnCallInput  *in,
              GError       **error)
{
  GError *local_error = NULL;

  if (!hook->takes_values)
    {
      GnnTensor *input = gnn_call_input_tensor (in), *replaced;

      if (input == NULL)
        {
          g_autofree char *found = describe_input (in);

          set_tensor_hook_error (error, self, "forward pre-hook",
                                 "gnn_module_register_forward_pre_hook", found);
          return FALSE;
        }
      replaced = ((GnnForwardPreHookFunc) hook->func) (self, input, hook->user_data, &local_error);
      if (local_error == NULL)
        replaced = check_tensor_result (replaced, "forward pre-hook", self, &local_error);
      if (local_error != NULL)
        {
          g_clear_object (&replaced);
          g_propagate_error (error, local_error);
          return FALSE;
        }
      if (replaced != NULL)
        gnn_call_input_take_tensor (in, replaced);
      return TRUE;
    }
  else
    {
      GnnValue *replaced;

      replaced = ((GnnForwardPreHookArgsFunc) hook->func) (self, gnn_call_input_args (in), in->kwargs,
                                                           hook->user_data, &local_error);
      if (local_error != NULL)
        {
          g_clear_pointer (&replaced, gnn_value_unref);
          g_propagate_error (error, local_error);
          return FALSE;
        }
      return replaced == NULL ||
             apply_pre_hook_result (in, replaced, hook->flags & GNN_HOOK_FLAGS_WITH_KWARGS, error);
    }
}

/* Runs one forward hook on @out, which is unset after a failure (only
 * always-call hooks run then). */
static inline gboolean
run_post_hook (GnnModule      *self,
               GnnHook        *hook,
               GnnCallInput   *in,
               GnnCallOutput  *out,
               GError        **error)
{
  GError *local_error = NULL;

  if (!hook->takes_values)
    {
      GnnTensor *input = gnn_call_input_tensor (in), *output = gnn_call_output_tensor (out), *replaced;

      if (input == NULL || (output == NULL && gnn_call_output_is_set (out)))
        {
          g_autofree char *found = input == NULL ? describe_input (in) :
            g_strdup_printf ("a %s output", gnn_value_get_type_name (out->value));

          set_tensor_hook_error (error, self, "forward hook",
                                 "gnn_module_register_forward_hook", found);
          return FALSE;
        }
      replaced = ((GnnForwardHookFunc) hook->func) (self, input, output, hook->user_data,
                                                    &local_error);
      if (local_error == NULL)
        replaced = check_tensor_result (replaced, "forward hook", self, &local_error);
      if (local_error != NULL)
        {
          g_clear_object (&replaced);
          g_propagate_error (error, local_error);
          return FALSE;
        }
      if (replaced != NULL)
        gnn_call_output_take_tensor (out, replaced);
      return TRUE;
    }
  else
    {
      GnnValue *replaced;

      replaced = ((GnnForwardHookArgsFunc) hook->func) (self, gnn_call_input_args (in), in->kwargs,
                                                        gnn_call_output_value (out), hook->user_data,
                                                        &local_error);
      if (local_error != NULL)
        {
          g_clear_pointer (&replaced, gnn_value_unref);
          g_propagate_error (error, local_error);
          return FALSE;
        }
      if (replaced != NULL)
        gnn_call_output_take_value (out, replaced);
      return TRUE;
    }
}

/* After a failure: the always-call forward hooks that have not run yet run
 * now; their own errors are dropped so the caller sees the first one. */
static void
run_always_call_hooks (GnnModule       *self,
                       GnnHookSnapshot *post,
                       guint            first,
                       GnnCallInput    *in,
                       GnnCallOutput   *out)
{
  for (guint i = first; i < post->len; i++)
    {
      GnnHook *hook = post->hooks[i];
      g_autoptr(GError) hook_error = NULL;

      if (hook->removed || !(hook->flags & GNN_HOOK_FLAGS_ALWAYS_CALL))
        continue;
      if (!run_post_hook (self, hook, in, out, &hook_error))
        g_debug ("forward hook with always-call failed while another error was "
                 "being reported: %s", hook_error->message);
    }
}

gboolean
gnn_module_call_with_hooks (GnnModule         *self,
                            GnnModulePrivate  *priv,
                            GnnCallInput      *in,
                            gboolean           want_tensor,
                            GnnCallOutput     *out,
                            GError           **error)
{
  GnnHookSnapshot pre, post;
  GError *local_error = NULL;
  gboolean forward_done = FALSE;
  guint i;

  /* Keep the module alive even if a hook drops the caller's last ref. */
  g_object_ref (self);
  gnn_hook_snapshot_collect (&pre, priv->pre_hooks, GNN_HOOK_PRE);
  /* The forward hooks are taken after forward, as PyTorch builds their
   * tuple then: one removed by a pre-hook or by forward does not run, one
   * they added does. */
  gnn_hook_snapshot_init (&post);

  /* Hooks run as captured at call start, even if one removed another
   * meanwhile (PyTorch iterates a tuple of them). */
  for (i = 0; i < pre.len; i++)
    if (!run_pre_hook (self, pre.hooks[i], in, &local_error))
      goto failed;

  if (!gnn_module_run_forward (self, GNN_MODULE_GET_CLASS (self), in, want_tensor, out, &local_error))
    goto failed;
  forward_done = TRUE;

  gnn_hook_snapshot_collect (&post, priv->hooks, GNN_HOOK_POST);
  for (i = 0; i < post.len; i++)
    if (!run_post_hook (self, post.hooks[i], in, out, &local_error))
      {
        i++;   /* this hook ran (PyTorch marks it called before running) */
        goto failed;
      }
  gnn_hook_snapshot_clear (&pre);
  gnn_hook_snapshot_clear (&post);
  g_object_unref (self);
  return TRUE;

failed:
  /* i: the first forward hook that has not run (0 if forward did not
   * complete: the always-call hooks are those registered now, as PyTorch
   * walks its hook dict in its exception handler). */
  if (!forward_done)
    {
      i = 0;
      gnn_hook_snapshot_clear (&post);
      gnn_hook_snapshot_collect (&post, priv->hooks, GNN_HOOK_POST);
      gnn_call_output_clear (out);
    }
  run_always_call_hooks (self, &post, i, in, out);
  gnn_call_output_clear (out);
  g_propagate_error (error, local_error);
  gnn_hook_snapshot_clear (&pre);
  gnn_hook_snapshot_clear (&post);
  g_object_unref (self);
  return FALSE;
}
