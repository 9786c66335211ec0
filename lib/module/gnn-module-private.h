/* gnn-module-private.h: the module registry shared by the lib/module sources
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* One registry map: insertion-ordered name → value (value may be NULL, the
 * "None" slot). The hash table's keys point into the entries' names; it is
 * NULL while the map is small (look names up with gnn_ordered_map_lookup()). */
typedef struct
{
  char    *name;
  GObject *value;   /* owned, nullable */
} GnnMapEntry;

typedef struct
{
  GPtrArray  *entries;  /* GnnMapEntry*, insertion order */
  GHashTable *index;    /* name → GnnMapEntry*, NULL while small */
} GnnOrderedMap;

typedef enum
{
  GNN_MAP_NONE = -1,
  GNN_MAP_PARAMETERS = 0,
  GNN_MAP_BUFFERS,
  GNN_MAP_MODULES,
  GNN_N_MAPS
} GnnMapKind;

/* A registered hook; refcounted so a call can snapshot the list while a hook
 * removes itself (or another) through its handle. */
typedef struct
{
  gatomicrefcount ref_count;
  gpointer        func;
  gpointer        user_data;
  GDestroyNotify  destroy;
  GnnHookFlags    flags;
  gboolean        removed;
} GnnHook;

typedef struct
{
  /* The instance's final class: during instance init, G_OBJECT_GET_CLASS()
   * still returns the class whose init is running. */
  GObjectClass *final_class;
  GnnOrderedMap maps[GNN_N_MAPS];
  GHashTable   *non_persistent;   /* set of buffer names, NULL when empty so far */
  gboolean      training;
  GPtrArray    *pre_hooks;        /* GnnHook*, NULL when none */
  GPtrArray    *hooks;            /* GnnHook*, NULL when none */
} GnnModulePrivate;

GnnModulePrivate *gnn_module_priv              (GnnModule *self);

GnnMapEntry      *gnn_ordered_map_lookup       (GnnOrderedMap *map,
                                                const char    *name);

GnnHook          *gnn_hook_ref                 (GnnHook *hook);
void              gnn_hook_unref               (GnnHook *hook);

/* Hook handles: @module is NULL for global hooks; @list_kind 0 = pre, 1 = post. */
GnnHookHandle    *gnn_hook_handle_new          (GnnModule *module,
                                                int        list_kind,
                                                GnnHook   *hook);
void              gnn_module_remove_hook       (GnnModule *module,
                                                int        list_kind,
                                                GnnHook   *hook);

G_END_DECLS
