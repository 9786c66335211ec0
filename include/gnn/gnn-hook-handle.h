/* gnn-hook-handle.h: handles that remove module hooks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>

G_BEGIN_DECLS

/**
 * GnnHookFlags:
 * @GNN_HOOK_FLAGS_NONE: append the hook; skip it when forward fails
 * @GNN_HOOK_FLAGS_PREPEND: run the hook before the hooks already registered
 *   (PyTorch's `prepend=True`)
 * @GNN_HOOK_FLAGS_ALWAYS_CALL: a forward hook that also runs when forward (or
 *   an earlier hook) fails, with a %NULL output (PyTorch's `always_call=True`)
 * @GNN_HOOK_FLAGS_WITH_KWARGS: a pre-hook registered with
 *   [method@Gnn.Module.register_forward_pre_hook_args] returns the pair
 *   `(new_args, new_kwargs)` instead of new positional arguments (PyTorch
 *   2's `with_kwargs=True`); bindings also pass the keyword arguments to
 *   their hooks only when it is set
 *
 * Options of [method@Gnn.Module.register_forward_pre_hook] and
 * [method@Gnn.Module.register_forward_hook].
 *
 * Since: 0.1
 */
typedef enum /*< flags >*/
{
  GNN_HOOK_FLAGS_NONE        = 0,
  GNN_HOOK_FLAGS_PREPEND     = 1 << 0,
  GNN_HOOK_FLAGS_ALWAYS_CALL = 1 << 1,
  GNN_HOOK_FLAGS_WITH_KWARGS = 1 << 2,
} GnnHookFlags;

#define GNN_TYPE_HOOK_HANDLE (gnn_hook_handle_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHookHandle, gnn_hook_handle, GNN, HOOK_HANDLE, GObject)

GNN_AVAILABLE_IN_ALL
void     gnn_hook_handle_remove     (GnnHookHandle *self);
GNN_AVAILABLE_IN_ALL
gboolean gnn_hook_handle_is_active  (GnnHookHandle *self);

G_END_DECLS
