/* gnn-ordered-map-private.h: the insertion-ordered name → object map of the
 * module registry
 *
 * Readers do not lock: one thread may walk a map while another changes it.
 * A map's entries array, once published, never changes below its length:
 * a change either appends into spare capacity (the length published last),
 * stores one slot (a replaced entry), or publishes a new array (growth,
 * removal). Entries never change after they are published. What a change
 * takes out (entries, their values, old arrays) goes to the caller's
 * garbage, which the registry frees once no reader can still see it
 * (gnn-module-registry.c: the use windows). Writers are serialized by the
 * registry lock.
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
 * map is small. Readers of a map with an index take the registry lock. */
typedef struct
{
  GPtrArray  *entries;   /* GnnMapEntry*, insertion order; published */
  guint       capacity;  /* slots of @entries that may be filled in place */
  GHashTable *index;     /* name → GnnMapEntry*, NULL while small */
} GnnOrderedMap;

/* What a change took out of the maps, freed later: (data, destroy) pairs,
 * the first few inline (a change usually leaves one or none: no
 * allocation). Declare with `GnnGarbage g = GNN_GARBAGE_INIT;`. */
typedef struct
{
  gpointer       data;
  GDestroyNotify destroy;
} GnnGarbageItem;

#define GNN_GARBAGE_INLINE 4

typedef struct
{
  guint          n_inline;
  GnnGarbageItem inline_items[GNN_GARBAGE_INLINE];
  GArray        *more;   /* GnnGarbageItem, NULL until needed */
} GnnGarbage;

#define GNN_GARBAGE_INIT { 0, { { NULL, NULL } }, NULL }

static inline gboolean
gnn_garbage_is_empty (const GnnGarbage *garbage)
{
  return garbage->n_inline == 0;
}

void         gnn_garbage_add        (GnnGarbage    *garbage,
                                     gpointer       data,
                                     GDestroyNotify destroy);
/* Moves @from's items to *@into (a heap array, created when needed),
 * leaving @from empty. */
void         gnn_garbage_move       (GArray       **into,
                                     GnnGarbage    *from);
/* Frees everything in @garbage, leaving it empty. */
void         gnn_garbage_free       (GnnGarbage    *garbage);
/* Frees the items of a heap array of them, and the array (nullable). */
void         gnn_garbage_free_array (GArray        *items);

/* --- readers (inside a use window) ----------------------------------------- */

static inline GPtrArray *
gnn_ordered_map_entries (const GnnOrderedMap *map)
{
  return __atomic_load_n (&map->entries, __ATOMIC_ACQUIRE);
}

static inline guint
gnn_entries_len (GPtrArray *entries)
{
  return __atomic_load_n (&entries->len, __ATOMIC_ACQUIRE);
}

static inline GnnMapEntry *
gnn_entries_get (GPtrArray *entries,
                 guint      i)
{
  return __atomic_load_n ((GnnMapEntry **) &entries->pdata[i], __ATOMIC_ACQUIRE);
}

/* The number of entries, as published. */
static inline gboolean
gnn_ordered_map_has_index (const GnnOrderedMap *map)
{
  return __atomic_load_n (&map->index, __ATOMIC_ACQUIRE) != NULL;
}

static inline guint
gnn_ordered_map_len (const GnnOrderedMap *map)
{
  return gnn_entries_len (gnn_ordered_map_entries (map));
}

/* The entry under @name, or NULL. A map with an index needs the registry
 * lock: writers hold it; readers go through gnn_module_registry_lookup(). */
GnnMapEntry *gnn_ordered_map_lookup (GnnOrderedMap *map,
                                     const char    *name);

/* --- writers (under the registry lock) ------------------------------------- */

void         gnn_ordered_map_init   (GnnOrderedMap *map);
/* At finalize: frees everything (no reader can reach the module). */
void         gnn_ordered_map_clear  (GnnOrderedMap *map);
/* Empties the map, keeping it usable; the entries go to @garbage. */
void         gnn_ordered_map_reset  (GnnOrderedMap *map,
                                     GnnGarbage    *garbage);
/* Sets @name to @value (nullable, referenced), appending a new entry or
 * replacing it; returns the old value (transfer full, may be NULL). */
GObject     *gnn_ordered_map_put    (GnnOrderedMap *map,
                                     const char    *name,
                                     GObject       *value,
                                     GnnGarbage    *garbage);
/* Removes @name; returns its old value (transfer full, may be NULL) and
 * whether it was there in @found. */
GObject     *gnn_ordered_map_steal  (GnnOrderedMap *map,
                                     const char    *name,
                                     gboolean      *found,
                                     GnnGarbage    *garbage);

G_END_DECLS
