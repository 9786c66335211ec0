/* gnn-module-registry-private.h: the internal registry API of GnnModule, the
 * only lib/module private header that lib/nn may include (containers)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

#include "module/gnn-ordered-map-private.h"

G_BEGIN_DECLS

typedef enum
{
  GNN_MAP_NONE = -1,
  GNN_MAP_PARAMETERS = 0,
  GNN_MAP_BUFFERS,
  GNN_MAP_MODULES,
  GNN_N_MAPS
} GnnMapKind;

/* Use windows. A thread reads the registry — walks, looks names up,
 * borrows an entry or its value — inside a window; a change made by any
 * thread meanwhile frees what it takes out (entries, their values, old
 * arrays) only once no thread is inside a window any more. Windows nest
 * and cost one fenced store at the outermost begin. gnn_module_call(),
 * gnn_module_forward() and every traversal open one; a value borrowed
 * inside stays valid until its end. */
void         gnn_module_use_begin_outer  (void);
void         gnn_module_use_end_outer    (void);

#if defined(__GNUC__) && defined(__ELF__)
extern _Thread_local guint gnn_module_use_depth __attribute__ ((tls_model ("initial-exec")));
#else
extern _Thread_local guint gnn_module_use_depth;
#endif

/* Nested windows (a forward inside a call, a lookup inside a forward) only
 * count. */
static inline void
gnn_module_use_begin (void)
{
  if (gnn_module_use_depth++ == 0)
    gnn_module_use_begin_outer ();
}

static inline void
gnn_module_use_end (void)
{
  if (--gnn_module_use_depth == 0)
    gnn_module_use_end_outer ();
}

/* The published entries (GnnMapEntry*, read-only: read them with
 * gnn_entries_len() / gnn_entries_get()) of map @kind, registration
 * order, as they are now; the array does not change under the caller, who
 * must be inside a use window. */
GPtrArray   *gnn_module_registry_entries (GnnModule   *self,
                                          GnnMapKind   kind);

/* The entry under @name in map @kind, or NULL (inside a use window). */
GnnMapEntry *gnn_module_registry_lookup  (GnnModule   *self,
                                          GnnMapKind   kind,
                                          const char  *name);

/* Registers @value (nullable) under @name in map @kind (parameters or
 * modules) with every check of gnn_module_register_parameter/_module. */
gboolean     gnn_module_registry_insert  (GnnModule   *self,
                                          GnnMapKind   kind,
                                          const char  *name,
                                          GObject     *value,
                                          GError     **error);

/* Removes @name; @value (nullable) receives its old value (transfer full). */
gboolean     gnn_module_registry_remove  (GnnModule   *self,
                                          const char  *name,
                                          GObject    **value,
                                          GError     **error);

/* Fails with GNN_ERROR_INVALID_ARGUMENT if @child (nullable) is @self or
 * contains it, i.e. if registering it under @name would make a cycle. */
gboolean     gnn_module_registry_check_no_cycle (GnnModule  *self,
                                                 const char *name,
                                                 GnnModule  *child,
                                                 GError    **error);

G_END_DECLS
