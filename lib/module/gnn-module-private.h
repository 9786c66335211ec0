/* gnn-module-private.h: GnnModule's private state, shared by the lib/module
 * sources only (lib/nn uses gnn-module-registry-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

#include "module/gnn-module-registry-private.h"

G_BEGIN_DECLS

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
  gboolean        takes_values;   /* registered with a *_args function */
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
  gint          n_parents;        /* module-map entries holding this module (atomic) */
} GnnModulePrivate;

/* Set once by gnn_module_get_type(); inline because every registry access
 * goes through it. */
extern int gnn_module_private_offset;

static inline GnnModulePrivate *
gnn_module_priv (GnnModule *self)
{
  return G_STRUCT_MEMBER_P (self, gnn_module_private_offset);
}

/* The map holding @name, or GNN_MAP_NONE. */
GnnMapKind        gnn_module_find_kind         (GnnModulePrivate *priv,
                                                const char       *name);

/* --- plain tensor attributes (gnn-module-attributes.c) --- */

/* Removes the plain tensor attribute @name: FALSE if there was none. */
gboolean          gnn_module_remove_tensor_attribute (GnnModule  *self,
                                                      const char *name);

/* --- child slots (gnn-module-slots.c) --- */

/* What the GObject property of @self named @name, if any, means for the
 * registry: the child slot of that name (or NULL), and whether it is a
 * plain property (not a slot: PyTorch's `hasattr`, "attribute already
 * exists"). */
typedef struct
{
  GParamSpec *slot;
  gboolean    plain;
} GnnNameProperty;

GnnNameProperty   gnn_module_lookup_property   (GnnModule  *self,
                                                const char *name);
/* The map kind a declared slot's values go to. */
GnnMapKind        gnn_module_slot_kind         (GParamSpec *slot);
/* At each instance: re-takes the property functions of classes that
 * installed slots (once per class). */
void              gnn_module_wrap_slot_classes (GType final_type);
/* The registered value of @slot changed (notifies, or updates a JavaScript
 * class's own copy of it). */
void              gnn_module_slot_changed      (GnnModule  *self,
                                                GParamSpec *slot);

/* --- mixins (gnn-mixin.c) --- */

void              gnn_module_init_mixins       (GnnModule *self,
                                                GType      final_type);

/* --- meta tensors (gnn-module-device.c) --- */

/* FALSE + GNN_ERROR_NOT_SUPPORTED if a tensor of the call's arguments
 * (@input, or else those in @args; those in @kwargs) or one of @self's own
 * parameters or buffers has no storage (meta). */
gboolean          gnn_module_check_storage     (GnnModule  *self,
                                                GnnTensor  *input,
                                                GnnValue   *args,
                                                GnnValue   *kwargs,
                                                GError    **error);

/* --- registry (gnn-module-registry.c) --- */

void              gnn_module_registry_class_init (GnnModuleClass *klass);
/* Detaches every child of @self (dispose), finalizing the detached ones
 * iteratively so that a deep chain does not recurse. */
void              gnn_module_registry_dispose  (GnnModule *self);

/* --- tree walks (inline: they are the inner loop of every traversal) --- */

/* A depth-first walk over the child-module edges of a tree with an explicit
 * stack, so that no traversal recurses on the C stack (trees may be
 * 100,000 modules deep). With @hold, every module on the stack is
 * referenced: walks that run callbacks (which may change the tree) hold
 * them; read-only walks do not pay for it, and get no LEAVE for a module
 * without children. A walk is a use window: each module's children are
 * the ones it had when the walk reached it, whatever another thread (or a
 * callback) changes meanwhile. */
typedef struct
{
  GArray  *stack;   /* GnnWalkFrame */
  GString *path;    /* dotted path of the current edge's child; may be NULL */
  GnnModule *left;  /* the module of the last LEAVE, released at the next step */
  gboolean   hold;  /* reference the modules on the stack */
} GnnModuleWalk;

typedef enum
{
  GNN_WALK_CHILD,   /* @entry: the next child edge of @parent (value may be NULL) */
  GNN_WALK_LEAVE,   /* @parent's children are all done; it left the stack */
  GNN_WALK_DONE
} GnnWalkStep;

typedef struct
{
  GnnModule *module;     /* referenced when the walk holds */
  GPtrArray *entries;    /* the module's child entries when the walk reached it */
  guint      n;          /* ... and how many there were */
  guint      next;       /* index of the next child edge */
  gsize      path_len;   /* length of the module's own path */
} GnnWalkFrame;

static inline void
gnn_module_walk_enter (GnnModuleWalk *walk,
                       GnnModule     *child)
{
  GPtrArray *entries = gnn_ordered_map_entries (&gnn_module_priv (child)->maps[GNN_MAP_MODULES]);
  GnnWalkFrame frame = { child, entries, gnn_entries_len (entries), 0,
                         walk->path != NULL ? walk->path->len : 0 };

  /* A read-only walk skips the frame of a leaf (most modules): it would
   * only yield its LEAVE, which such walks ignore. */
  if (!walk->hold && frame.n == 0)
    return;
  if (walk->hold)
    g_object_ref (child);
  g_array_append_val (walk->stack, frame);
}

static inline void
gnn_module_walk_init (GnnModuleWalk *walk,
                      GnnModule     *root,
                      GString       *path,
                      gboolean       hold)
{
  gnn_module_use_begin ();
  walk->stack = g_array_sized_new (FALSE, FALSE, sizeof (GnnWalkFrame), 16);
  walk->path = path;
  walk->left = NULL;
  walk->hold = hold;
  gnn_module_walk_enter (walk, root);
}

static inline GnnWalkStep
gnn_module_walk_next (GnnModuleWalk *walk,
                      GnnModule    **parent,
                      GnnMapEntry  **entry)
{
  GnnWalkFrame *frame;

  if (walk->hold)
    g_clear_object (&walk->left);
  if (walk->stack->len == 0)
    return GNN_WALK_DONE;
  frame = &g_array_index (walk->stack, GnnWalkFrame, walk->stack->len - 1);
  if (walk->path != NULL)
    g_string_truncate (walk->path, frame->path_len);
  if (frame->next >= frame->n)
    {
      *parent = walk->left = frame->module;   /* valid until the next step */
      *entry = NULL;
      g_array_set_size (walk->stack, walk->stack->len - 1);
      return GNN_WALK_LEAVE;
    }
  *parent = frame->module;
  *entry = gnn_entries_get (frame->entries, frame->next++);
  if (walk->path != NULL)
    {
      if (walk->path->len > 0)
        g_string_append_c (walk->path, '.');
      g_string_append (walk->path, (*entry)->name);
    }
  return GNN_WALK_CHILD;
}

static inline void
gnn_module_walk_clear (GnnModuleWalk *walk)
{
  if (walk->hold)
    {
      for (guint i = 0; i < walk->stack->len; i++)
        g_object_unref (g_array_index (walk->stack, GnnWalkFrame, i).module);
      g_clear_object (&walk->left);
    }
  g_clear_pointer (&walk->stack, g_array_unref);
  gnn_module_use_end ();
}

/* --- hooks (gnn-module-hooks.c, gnn-hook-handle.c) --- */

enum { GNN_HOOK_PRE = 0, GNN_HOOK_POST = 1 };

/* Global hooks registered now, for the call's fast-path test without the
 * lock. */
extern gint gnn_module_n_global_hooks;

GnnHook          *gnn_hook_ref                 (GnnHook *hook);
void              gnn_hook_unref               (GnnHook *hook);

/* A snapshot of the hooks of one kind, each referenced: a call iterates it
 * while hooks may remove themselves or others. Small snapshots live on the
 * stack, so a call with a few hooks allocates nothing. */
#define GNN_HOOK_SNAPSHOT_INLINE 8

typedef struct
{
  GnnHook **hooks;
  guint     len;
  GnnHook  *inline_hooks[GNN_HOOK_SNAPSHOT_INLINE];
} GnnHookSnapshot;

static inline void
gnn_hook_snapshot_init (GnnHookSnapshot *snap)
{
  snap->hooks = snap->inline_hooks;
  snap->len = 0;
}

/* Global hooks of @list_kind first, then @local's. */
void              gnn_hook_snapshot_collect    (GnnHookSnapshot *snap,
                                                GPtrArray       *local,
                                                int              list_kind);
void              gnn_hook_snapshot_clear      (GnnHookSnapshot *snap);

/* Hook handles: @module is NULL for global hooks; @list_kind 0 = pre, 1 = post. */
GnnHookHandle    *gnn_hook_handle_new          (GnnModule *module,
                                                int        list_kind,
                                                GnnHook   *hook);
void              gnn_module_remove_hook       (GnnModule *module,
                                                int        list_kind,
                                                GnnHook   *hook);

/* gnn-module-registry-checks.c: the one validation of a registration.
 * @request is the map the caller asked for (register_*), or GNN_MAP_NONE
 * for set_child, which sorts @value like Module.__setattr__. On success
 * @kind and @slot say where it goes. */
gboolean gnn_module_registry_validate (GnnModule   *self,
                                       const char  *name,
                                       GObject     *value,
                                       GnnMapKind   request,
                                       GnnMapKind  *kind,
                                       GParamSpec **slot,
                                       GError     **error);

/* gnn-module-use-windows.c: changes to any registry are serialized by one
 * lock; the unlock frees @garbage (nullable) at once when no thread is
 * inside a use window, else leaves it in the graveyard. */
void gnn_module_registry_lock   (void);
void gnn_module_registry_unlock (GnnGarbage *garbage);

G_END_DECLS
