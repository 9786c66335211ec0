/* gnn-ordered-map.c: the insertion-ordered name → object map of the module
 * registry (see the header for how readers and writers share it)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-ordered-map-private.h"

/* Most maps hold a handful of names (Linear: weight, bias), where a scan
 * beats hashing and a hash table per map per module is most of the cost of
 * creating one; the index is built once a map reaches this size. */
#define ORDERED_MAP_INDEX_MIN 8
#define FIRST_CAPACITY 4

void
gnn_garbage_add (GnnGarbage    *garbage,
                 gpointer       data,
                 GDestroyNotify destroy)
{
  GnnGarbageItem item = { data, destroy };

  if (garbage->n_inline < GNN_GARBAGE_INLINE)
    {
      garbage->inline_items[garbage->n_inline++] = item;
      return;
    }
  if (garbage->more == NULL)
    garbage->more = g_array_new (FALSE, FALSE, sizeof (GnnGarbageItem));
  g_array_append_val (garbage->more, item);
}

void
gnn_garbage_move (GArray     **into,
                  GnnGarbage  *from)
{
  if (gnn_garbage_is_empty (from))
    return;
  if (*into == NULL)
    *into = g_array_new (FALSE, FALSE, sizeof (GnnGarbageItem));
  g_array_append_vals (*into, from->inline_items, from->n_inline);
  if (from->more != NULL)
    {
      g_array_append_vals (*into, from->more->data, from->more->len);
      g_clear_pointer (&from->more, g_array_unref);
    }
  from->n_inline = 0;
}

/* A destroy may drop the last reference to a module, whose dispose makes
 * garbage of its own: never into these items, which are no longer shared. */
static void
free_items (const GnnGarbageItem *items,
            guint                 n)
{
  for (guint i = 0; i < n; i++)
    items[i].destroy (items[i].data);
}

void
gnn_garbage_free (GnnGarbage *garbage)
{
  GnnGarbage taken = *garbage;

  garbage->n_inline = 0;
  garbage->more = NULL;
  free_items (taken.inline_items, taken.n_inline);
  gnn_garbage_free_array (taken.more);
}

void
gnn_garbage_free_array (GArray *items)
{
  if (items == NULL)
    return;
  free_items ((const GnnGarbageItem *) items->data, items->len);
  g_array_unref (items);
}

/* An entry and its name are one allocation. */
static void
map_entry_free (gpointer data)
{
  GnnMapEntry *entry = data;

  g_clear_object (&entry->value);
  g_free (entry);
}

static GnnMapEntry *
map_entry_new (const char *name,
               GObject    *value)
{
  gsize len = strlen (name) + 1;
  GnnMapEntry *entry = g_malloc (sizeof *entry + len);

  entry->name = memcpy (entry + 1, name, len);
  entry->value = value != NULL ? g_object_ref (value) : NULL;
  return entry;
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

/* The arrays never own their entries: entries leave through garbage. */
static void
array_release (gpointer data)
{
  g_ptr_array_unref (data);
}

static void
publish (GnnOrderedMap *map,
         GPtrArray     *entries,
         guint          capacity,
         GnnGarbage    *garbage)
{
  GPtrArray *old = map->entries;

  __atomic_store_n (&map->entries, entries, __ATOMIC_RELEASE);
  map->capacity = capacity;
  if (old != NULL && old != shared_empty_entries ())
    gnn_garbage_add (garbage, old, array_release);
}

/* A new array holding @entries' first @n entries, with room for @capacity. */
static GPtrArray *
array_copy (GPtrArray *entries,
            guint      n,
            guint      capacity)
{
  GPtrArray *copy = g_ptr_array_sized_new (capacity);

  if (n > 0)
    memcpy (copy->pdata, entries->pdata, n * sizeof (gpointer));
  copy->len = n;
  return copy;
}

void
gnn_ordered_map_init (GnnOrderedMap *map)
{
  map->entries = shared_empty_entries ();
  map->capacity = 0;
  map->index = NULL;
}

void
gnn_ordered_map_clear (GnnOrderedMap *map)
{
  g_clear_pointer (&map->index, g_hash_table_unref);
  if (map->entries != NULL && map->entries != shared_empty_entries ())
    {
      for (guint i = 0; i < map->entries->len; i++)
        map_entry_free (map->entries->pdata[i]);
      g_ptr_array_unref (map->entries);
    }
  map->entries = NULL;
}

void
gnn_ordered_map_reset (GnnOrderedMap *map,
                       GnnGarbage    *garbage)
{
  GPtrArray *entries = map->entries;

  if (entries == NULL || entries->len == 0)
    return;
  if (map->index != NULL)
    g_hash_table_remove_all (map->index);
  for (guint i = 0; i < entries->len; i++)
    gnn_garbage_add (garbage, entries->pdata[i], map_entry_free);
  publish (map, shared_empty_entries (), 0, garbage);
}

GnnMapEntry *
gnn_ordered_map_lookup (GnnOrderedMap *map,
                        const char    *name)
{
  GPtrArray *entries;
  guint n;

  if (gnn_ordered_map_has_index (map))
    return g_hash_table_lookup (map->index, name);
  entries = gnn_ordered_map_entries (map);
  if (entries == NULL)
    return NULL;
  n = gnn_entries_len (entries);
  for (guint i = 0; i < n; i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, i);

      if (strcmp (entry->name, name) == 0)
        return entry;
    }
  return NULL;
}

static guint
entry_position (GnnOrderedMap *map,
                GnnMapEntry   *entry)
{
  guint i = 0;

  while (map->entries->pdata[i] != entry)
    i++;
  return i;
}

GObject *
gnn_ordered_map_put (GnnOrderedMap *map,
                     const char    *name,
                     GObject       *value,
                     GnnGarbage    *garbage)
{
  GnnMapEntry *entry = gnn_ordered_map_lookup (map, name);
  GnnMapEntry *fresh;
  GPtrArray *entries = map->entries;

  if (entry != NULL)
    {
      /* entries never change: a new one takes the slot */
      GObject *old = entry->value != NULL ? g_object_ref (entry->value) : NULL;

      fresh = map_entry_new (entry->name, value);
      __atomic_store_n ((GnnMapEntry **) &entries->pdata[entry_position (map, entry)], fresh,
                        __ATOMIC_RELEASE);
      if (map->index != NULL)
        g_hash_table_insert (map->index, fresh->name, fresh);
      gnn_garbage_add (garbage, entry, map_entry_free);
      return old;
    }
  fresh = map_entry_new (name, value);
  if (entries->len == map->capacity)
    {
      guint capacity = MAX (FIRST_CAPACITY, 2 * map->capacity);

      entries = array_copy (entries, entries->len, capacity);
      publish (map, entries, capacity, garbage);
    }
  /* the slot first, then the length that shows it */
  entries->pdata[entries->len] = fresh;
  __atomic_store_n (&entries->len, entries->len + 1, __ATOMIC_RELEASE);
  if (map->index != NULL)
    g_hash_table_insert (map->index, fresh->name, fresh);
  else if (entries->len >= ORDERED_MAP_INDEX_MIN)
    {
      GHashTable *index = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint i = 0; i < entries->len; i++)
        {
          GnnMapEntry *e = entries->pdata[i];
          g_hash_table_insert (index, e->name, e);
        }
      __atomic_store_n (&map->index, index, __ATOMIC_RELEASE);
    }
  return NULL;
}

GObject *
gnn_ordered_map_steal (GnnOrderedMap *map,
                       const char    *name,
                       gboolean      *found,
                       GnnGarbage    *garbage)
{
  GnnMapEntry *entry = gnn_ordered_map_lookup (map, name);
  GPtrArray *entries = map->entries;
  GPtrArray *rest;
  GObject *old;
  guint at;

  *found = entry != NULL;
  if (entry == NULL)
    return NULL;
  old = entry->value != NULL ? g_object_ref (entry->value) : NULL;
  if (map->index != NULL)
    g_hash_table_remove (map->index, entry->name);
  /* readers may be walking this array: publish one without the entry */
  at = entry_position (map, entry);
  rest = array_copy (entries, at, map->capacity);
  if (entries->len - at - 1 > 0)
    memcpy (rest->pdata + at, entries->pdata + at + 1, (entries->len - at - 1) * sizeof (gpointer));
  rest->len = entries->len - 1;
  publish (map, rest, map->capacity, garbage);
  gnn_garbage_add (garbage, entry, map_entry_free);
  return old;
}
