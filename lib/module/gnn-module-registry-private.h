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

/* The entries (GnnMapEntry*, read-only) of map @kind, registration order. */
GPtrArray   *gnn_module_registry_entries (GnnModule   *self,
                                          GnnMapKind   kind);

/* The entry under @name in map @kind, or NULL. */
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
