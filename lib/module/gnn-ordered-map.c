/* gnn-ordered-map.c: the insertion-ordered name → object map of the module
 * registry
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-ordered-map-private.h"

/* Most maps hold a handful of names (Linear: weight, bias), where a scan
 * beats hashing and a hash table per map per module is most of the cost of
 * creating one; the index is built once a map reaches this size. */
#define ORDERED_MAP_INDEX_MIN 8

/* An entry and its name are one allocation. */
static void
map_entry_free (gpointer data)
{
  GnnMapEntry *entry = data;

  g_clear_object (&entry->value);
  g_free (entry);
}

/* Most maps of most modules stay empty (a Linear has no children and no
 * buffers): they share one array that is never written, and get their own
 * on the first put, which saves two array allocations per module. */
static GPtrArray *
shared_empty_entries (void)
{
  static GPtrArray *empty;

  if (g_once_init_enter (&empty))
    g_once_init_leave (&empty, g_ptr_array_new ());
  return empty;
}

void
gnn_ordered_map_init (GnnOrderedMap *map)
{
  map->entries = shared_empty_entries ();
  map->index = NULL;
}

void
gnn_ordered_map_clear (GnnOrderedMap *map)
{
  g_clear_pointer (&map->index, g_hash_table_unref);
  if (map->entries != shared_empty_entries ())
    g_clear_pointer (&map->entries, g_ptr_array_unref);
  map->entries = NULL;
}

void
gnn_ordered_map_reset (GnnOrderedMap *map)
{
  if (map->entries == NULL)
    return;
  if (map->index != NULL)
    g_hash_table_remove_all (map->index);
  g_ptr_array_set_size (map->entries, 0);
}

GnnMapEntry *
gnn_ordered_map_lookup (GnnOrderedMap *map,
                        const char    *name)
{
  if (map->index != NULL)
    return g_hash_table_lookup (map->index, name);
  if (map->entries == NULL)
    return NULL;
  for (guint i = 0; i < map->entries->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (map->entries, i);

      if (strcmp (entry->name, name) == 0)
        return entry;
    }
  return NULL;
}

GObject *
gnn_ordered_map_put (GnnOrderedMap *map,
                     const char    *name,
                     GObject       *value)
{
  GnnMapEntry *entry = gnn_ordered_map_lookup (map, name);
  GObject *old;
  gsize len;

  if (entry != NULL)
    {
      old = g_steal_pointer (&entry->value);
      entry->value = value != NULL ? g_object_ref (value) : NULL;
      return old;
    }
  len = strlen (name) + 1;
  entry = g_malloc (sizeof *entry + len);
  entry->name = memcpy (entry + 1, name, len);
  entry->value = value != NULL ? g_object_ref (value) : NULL;
  if (map->entries == shared_empty_entries ())
    map->entries = g_ptr_array_new_with_free_func (map_entry_free);
  g_ptr_array_add (map->entries, entry);
  if (map->index != NULL)
    g_hash_table_insert (map->index, entry->name, entry);
  else if (map->entries->len >= ORDERED_MAP_INDEX_MIN)
    {
      map->index = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < map->entries->len; i++)
        {
          GnnMapEntry *e = g_ptr_array_index (map->entries, i);
          g_hash_table_insert (map->index, e->name, e);
        }
    }
  return NULL;
}

GObject *
gnn_ordered_map_steal (GnnOrderedMap *map,
                       const char    *name,
                       gboolean      *found)
{
  GnnMapEntry *entry = gnn_ordered_map_lookup (map, name);
  GObject *old;

  *found = entry != NULL;
  if (entry == NULL)
    return NULL;
  old = g_steal_pointer (&entry->value);
  if (map->index != NULL)
    g_hash_table_remove (map->index, entry->name);
  g_ptr_array_remove (map->entries, entry);
  return old;
}
