/* gnn-ordered-map-private.h: the insertion-ordered name → object map of the
 * module registry
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* One entry: @value may be NULL (PyTorch's "None" slot). */
typedef struct
{
  char    *name;
  GObject *value;   /* owned, nullable */
} GnnMapEntry;

/* The hash index's keys point into the entries' names; it is NULL while the
 * map is small (look names up with gnn_ordered_map_lookup()). */
typedef struct
{
  GPtrArray  *entries;  /* GnnMapEntry*, insertion order */
  GHashTable *index;    /* name → GnnMapEntry*, NULL while small */
} GnnOrderedMap;

void         gnn_ordered_map_init   (GnnOrderedMap *map);
void         gnn_ordered_map_clear  (GnnOrderedMap *map);
/* Drops every entry but keeps the map usable. */
void         gnn_ordered_map_reset  (GnnOrderedMap *map);
GnnMapEntry *gnn_ordered_map_lookup (GnnOrderedMap *map,
                                     const char    *name);
/* Sets @name to @value (nullable, referenced), appending a new entry or
 * replacing in place; returns the old value (transfer full, may be NULL). */
GObject     *gnn_ordered_map_put    (GnnOrderedMap *map,
                                     const char    *name,
                                     GObject       *value);
/* Removes @name; returns its old value (transfer full, may be NULL) and
 * whether it was there in @found. */
GObject     *gnn_ordered_map_steal  (GnnOrderedMap *map,
                                     const char    *name,
                                     gboolean      *found);

G_END_DECLS
