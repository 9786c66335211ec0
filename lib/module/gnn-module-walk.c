/* gnn-module-walk.c: depth-first walks of a module tree on an explicit stack
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-private.h"

typedef struct
{
  GnnModule *module;     /* referenced */
  guint      next;       /* index of the next child edge */
  gsize      path_len;   /* length of the module's own path */
} WalkFrame;

void
gnn_module_walk_init (GnnModuleWalk *walk,
                      GnnModule     *root,
                      GString       *path,
                      gboolean       hold)
{
  walk->stack = g_array_sized_new (FALSE, FALSE, sizeof (WalkFrame), 16);
  walk->path = path;
  walk->left = NULL;
  walk->hold = hold;
  gnn_module_walk_enter (walk, root);
}

void
gnn_module_walk_enter (GnnModuleWalk *walk,
                       GnnModule     *child)
{
  WalkFrame frame = { child, 0, walk->path != NULL ? walk->path->len : 0 };

  /* A read-only walk skips the frame of a leaf (most modules): it would
   * only yield its LEAVE, which such walks ignore. */
  if (!walk->hold && gnn_module_priv (child)->maps[GNN_MAP_MODULES].entries->len == 0)
    return;
  if (walk->hold)
    g_object_ref (child);
  g_array_append_val (walk->stack, frame);
}

GnnWalkStep
gnn_module_walk_next (GnnModuleWalk *walk,
                      GnnModule    **parent,
                      GnnMapEntry  **entry)
{
  WalkFrame *frame;
  GPtrArray *entries;

  if (walk->hold)
    g_clear_object (&walk->left);
  if (walk->stack->len == 0)
    return GNN_WALK_DONE;
  frame = &g_array_index (walk->stack, WalkFrame, walk->stack->len - 1);
  entries = gnn_module_priv (frame->module)->maps[GNN_MAP_MODULES].entries;
  if (walk->path != NULL)
    g_string_truncate (walk->path, frame->path_len);
  /* Bounds re-read each step: a callback may have changed the registry. */
  if (entries == NULL || frame->next >= entries->len)
    {
      *parent = walk->left = frame->module;   /* valid until the next step */
      *entry = NULL;
      g_array_set_size (walk->stack, walk->stack->len - 1);
      return GNN_WALK_LEAVE;
    }
  *parent = frame->module;
  *entry = g_ptr_array_index (entries, frame->next++);
  if (walk->path != NULL)
    {
      if (walk->path->len > 0)
        g_string_append_c (walk->path, '.');
      g_string_append (walk->path, (*entry)->name);
    }
  return GNN_WALK_CHILD;
}

void
gnn_module_walk_clear (GnnModuleWalk *walk)
{
  if (walk->hold)
    {
      for (guint i = 0; i < walk->stack->len; i++)
        g_object_unref (g_array_index (walk->stack, WalkFrame, i).module);
      g_clear_object (&walk->left);
    }
  g_clear_pointer (&walk->stack, g_array_unref);
}
