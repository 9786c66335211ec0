/* gnn-container-private.h: the child-slot logic shared by the container
 * modules (Sequential, ModuleList, ParameterList, ModuleDict, ParameterDict)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "module/gnn-module-registry-private.h"

G_BEGIN_DECLS

/* Every function works on one registry map of @self: @kind is
 * GNN_MAP_MODULES (children) or GNN_MAP_PARAMETERS (parameters). */

guint         gnn_container_get_length   (GnnModule   *self,
                                          GnnMapKind   kind);

/* The keys in registration order. */
char        **gnn_container_get_keys     (GnnModule   *self,
                                          GnnMapKind   kind);

/* Registers @value (a module or a parameter, as @kind says) under @key. */
gboolean      gnn_container_register     (GnnModule   *self,
                                          GnnMapKind   kind,
                                          const char  *key,
                                          GObject     *value,
                                          GError     **error);

/* --- by position ("0", "1", … lists) --- */

/* The entry at the Python-style @index ("index <i> is out of range");
 * @position (nullable) receives its position in [0, len). */
GnnMapEntry  *gnn_container_entry_at     (GnnModule   *self,
                                          GnnMapKind   kind,
                                          gint64       index,
                                          guint       *position,
                                          GError     **error);

/* The value at @index (NULL without error for an empty slot). */
GObject      *gnn_container_get_at       (GnnModule   *self,
                                          GnnMapKind   kind,
                                          gint64       index,
                                          GError     **error);

/* Replaces the child module at @index, keeping its key. */
gboolean      gnn_container_set_module_at (GnnModule  *self,
                                           gint64      index,
                                           GnnModule  *module,
                                           GError    **error);

/* Registers @value under `str(len(self))` (fails on a cycle). */
gboolean      gnn_container_append       (GnnModule   *self,
                                          GnnMapKind   kind,
                                          GObject     *value,
                                          GError     **error);

/* Appends each of @modules, or none of them on failure. */
gboolean      gnn_container_extend_modules (GnnModule  *self,
                                            GnnModule **modules,
                                            guint       n_modules,
                                            GError    **error);

/* Inserts @module before @index; a cycle fails before anything moves. */
gboolean      gnn_container_insert_module (GnnModule  *self,
                                           gint64      index,
                                           GnnModule  *module,
                                           GError    **error);

/* Removes the child module at @index and renames the rest "0".."n-1". */
GObject      *gnn_container_pop_module   (GnnModule   *self,
                                          gint64       index,
                                          GError     **error);

/* A new container of @self's type holding the child modules selected by
 * the Python slice, renamed "0", "1", … when @renumber, else under their
 * keys ("slice step cannot be zero"). */
GnnModule    *gnn_container_slice_modules (GnnModule  *self,
                                           gint64      start,
                                           gint64      stop,
                                           gint64      step,
                                           gboolean    renumber,
                                           GError    **error);

/* --- by key (dicts) --- */

/* The entry under @key, or NULL with "'<key>' is not a key of <Type>". */
GnnMapEntry  *gnn_container_entry_for    (GnnModule   *self,
                                          GnnMapKind   kind,
                                          const char  *key,
                                          GError     **error);

/* The value under @key (NULL without error for an empty slot). */
GObject      *gnn_container_get_for      (GnnModule   *self,
                                          GnnMapKind   kind,
                                          const char  *key,
                                          GError     **error);

/* Removes the entry under @key and returns its value (transfer full). */
GObject      *gnn_container_pop_key      (GnnModule   *self,
                                          GnnMapKind   kind,
                                          const char  *key,
                                          GError     **error);

/* Removes every entry of the map. */
void          gnn_container_clear        (GnnModule   *self,
                                          GnnMapKind   kind);

G_END_DECLS
