/* gnn-hook-handle.c: handles that remove module hooks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-private.h"

/**
 * GnnHookHandle:
 *
 * Returned by the hook registration functions of [class@Gnn.Module], like
 * PyTorch's `RemovableHandle`: [method@Gnn.HookHandle.remove] unregisters
 * the hook. Dropping the handle does not remove the hook. A handle does not
 * keep its module alive.
 *
 * Since: 0.1
 */
struct _GnnHookHandle
{
  GObject   parent_instance;

  GWeakRef  module;      /* unset for global hooks */
  gboolean  global;
  int       list_kind;
  GnnHook  *hook;
};

G_DEFINE_FINAL_TYPE (GnnHookHandle, gnn_hook_handle, G_TYPE_OBJECT)

static void
gnn_hook_handle_finalize (GObject *object)
{
  GnnHookHandle *self = GNN_HOOK_HANDLE (object);

  g_weak_ref_clear (&self->module);
  g_clear_pointer (&self->hook, gnn_hook_unref);

  G_OBJECT_CLASS (gnn_hook_handle_parent_class)->finalize (object);
}

static void
gnn_hook_handle_class_init (GnnHookHandleClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_hook_handle_finalize;
}

static void
gnn_hook_handle_init (GnnHookHandle *self)
{
  g_weak_ref_init (&self->module, NULL);
}

GnnHookHandle *
gnn_hook_handle_new (GnnModule *module,
                     int        list_kind,
                     GnnHook   *hook)
{
  GnnHookHandle *self = g_object_new (GNN_TYPE_HOOK_HANDLE, NULL);

  g_weak_ref_set (&self->module, module);
  self->global = module == NULL;
  self->list_kind = list_kind;
  self->hook = gnn_hook_ref (hook);
  return self;
}

/**
 * gnn_hook_handle_remove:
 * @self: a hook handle
 *
 * Unregisters the hook. Removing it again, or after its module is gone, does
 * nothing. A hook removed while a call is running its hooks still runs in
 * that call, which runs the hooks registered when it started (as PyTorch
 * does), and not in later calls.
 *
 * Since: 0.1
 */
void
gnn_hook_handle_remove (GnnHookHandle *self)
{
  g_autoptr(GnnModule) module = NULL;

  g_return_if_fail (GNN_IS_HOOK_HANDLE (self));

  if (self->hook->removed)
    return;
  module = g_weak_ref_get (&self->module);
  if (module == NULL && !self->global)
    {
      self->hook->removed = TRUE;
      return;
    }
  gnn_module_remove_hook (module, self->list_kind, self->hook);
}

/**
 * gnn_hook_handle_is_active:
 * @self: a hook handle
 *
 * Tells whether the hook is still registered.
 *
 * Returns: %FALSE once [method@Gnn.HookHandle.remove] was called
 *
 * Since: 0.1
 */
gboolean
gnn_hook_handle_is_active (GnnHookHandle *self)
{
  g_return_val_if_fail (GNN_IS_HOOK_HANDLE (self), FALSE);

  return !self->hook->removed;
}
