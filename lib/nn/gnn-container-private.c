/* gnn-container-private.c: the child-slot logic shared by the container
 * modules (Sequential, ModuleList, ParameterList, ModuleDict, ParameterDict)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-container-private.h"
#include "nn/gnn-nn-private.h"

/* Every function here reads the registry inside a use window (see
 * gnn-module-registry-private.h): another thread may change the container
 * meanwhile; what is returned borrowed stays valid while the container
 * holds it. */

guint
gnn_container_get_length (GnnModule  *self,
                          GnnMapKind  kind)
{
  guint n;

  gnn_module_use_begin ();
  n = gnn_entries_len (gnn_module_registry_entries (self, kind));
  gnn_module_use_end ();
  return n;
}

char **
gnn_container_get_keys (GnnModule  *self,
                        GnnMapKind  kind)
{
  GPtrArray *entries;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  gnn_module_use_begin ();
  entries = gnn_module_registry_entries (self, kind);
  for (guint i = 0, n = gnn_entries_len (entries); i < n; i++)
    g_strv_builder_add (builder, ((GnnMapEntry *) gnn_entries_get (entries, i))->name);
  gnn_module_use_end ();
  return g_strv_builder_end (builder);
}

gboolean
gnn_container_register (GnnModule   *self,
                        GnnMapKind   kind,
                        const char  *key,
                        GObject     *value,
                        GError     **error)
{
  return gnn_module_registry_insert (self, kind, key, value, error);
}

GnnMapEntry *
gnn_container_entry_at (GnnModule   *self,
                        GnnMapKind   kind,
                        gint64       index,
                        guint       *position,
                        GError     **error)
{
  GPtrArray *entries = gnn_module_registry_entries (self, kind);
  guint i;

  if (!gnn_nn_normalize_index (index, gnn_entries_len (entries), &i, error))
    return NULL;
  if (position != NULL)
    *position = i;
  return gnn_entries_get (entries, i);
}

GObject *
gnn_container_get_at (GnnModule   *self,
                      GnnMapKind   kind,
                      gint64       index,
                      GError     **error)
{
  GnnMapEntry *entry;
  GObject *value;

  gnn_module_use_begin ();
  entry = gnn_container_entry_at (self, kind, index, NULL, error);
  value = entry != NULL ? entry->value : NULL;
  gnn_module_use_end ();
  return value;
}

gboolean
gnn_container_set_module_at (GnnModule  *self,
                             gint64      index,
                             GnnModule  *module,
                             GError    **error)
{
  GnnMapEntry *entry;
  g_autofree char *key = NULL;

  gnn_module_use_begin ();
  entry = gnn_container_entry_at (self, GNN_MAP_MODULES, index, NULL, error);
  key = entry != NULL ? g_strdup (entry->name) : NULL;   /* the entry may be replaced */
  gnn_module_use_end ();
  return key != NULL && gnn_module_set_child (self, key, G_OBJECT (module), error);
}

/* "%u" of @index into @key (at least 11 bytes), without printf's cost:
 * building a Sequential of 1,000 layers formats 1,000 keys. */
static void
index_key (char  *key,
           guint  index)
{
  char digits[10];
  int n = 0;

  do
    digits[n++] = (char) ('0' + index % 10);
  while ((index /= 10) != 0);
  while (n > 0)
    *key++ = digits[--n];
  *key = '\0';
}

gboolean
gnn_container_append (GnnModule   *self,
                      GnnMapKind   kind,
                      GObject     *value,
                      GError     **error)
{
  char key[24];

  index_key (key, gnn_container_get_length (self, kind));
  return gnn_container_register (self, kind, key, value, error);
}

gboolean
gnn_container_extend_modules (GnnModule   *self,
                              GnnModule  **modules,
                              guint        n_modules,
                              GError     **error)
{
  guint old_len = gnn_container_get_length (self, GNN_MAP_MODULES);

  for (guint i = 0; i < n_modules; i++)
    if (!gnn_container_append (self, GNN_MAP_MODULES, G_OBJECT (modules[i]), error))
      {
        /* All or nothing: drop what this call appended. */
        while (gnn_container_get_length (self, GNN_MAP_MODULES) > old_len)
          {
            GPtrArray *entries;
            g_autofree char *key = NULL;

            gnn_module_use_begin ();
            entries = gnn_module_registry_entries (self, GNN_MAP_MODULES);
            key = g_strdup (((GnnMapEntry *) gnn_entries_get (entries,
                                                              gnn_entries_len (entries) - 1))->name);
            gnn_module_use_end ();
            gnn_module_registry_remove (self, key, NULL, NULL);
          }
        return FALSE;
      }
  return TRUE;
}

gboolean
gnn_container_insert_module (GnnModule  *self,
                             gint64      index,
                             GnnModule  *module,
                             GError    **error)
{
  char key[24];

  /* Checked before the later children move, so a cycle changes nothing. */
  g_snprintf (key, sizeof key, "%" G_GINT64_FORMAT, index);
  return gnn_module_registry_check_no_cycle (self, key, module, error) &&
         gnn_nn_insert_module (self, index, module, error);
}

/* Takes the entry out of the map, returning a reference to its value. */
static gboolean
take_entry (GnnModule    *self,
            GnnMapEntry  *entry,
            GObject     **value,
            GError      **error)
{
  g_autofree char *key = g_strdup (entry->name);   /* entry dies with the removal */

  return gnn_module_registry_remove (self, key, value, error);
}

GObject *
gnn_container_pop_module (GnnModule  *self,
                          gint64      index,
                          GError    **error)
{
  GnnMapEntry *entry;
  g_autoptr(GObject) value = NULL;
  gboolean ok;

  gnn_module_use_begin ();
  entry = gnn_container_entry_at (self, GNN_MAP_MODULES, index, NULL, error);
  ok = entry != NULL && take_entry (self, entry, &value, error);
  gnn_module_use_end ();
  if (!ok || !gnn_nn_renumber_modules (self, error))
    return NULL;
  return g_steal_pointer (&value);
}

GnnModule *
gnn_container_slice_modules (GnnModule  *self,
                             gint64      start,
                             gint64      stop,
                             gint64      step,
                             gboolean    renumber,
                             GError    **error)
{
  GPtrArray *entries;
  g_autoptr(GArray) positions = NULL;
  g_autoptr(GnnModule) result = NULL;
  gboolean ok = TRUE;

  gnn_module_use_begin ();
  entries = gnn_nn_module_entries (self);
  positions = gnn_nn_slice_positions (gnn_entries_len (entries), start, stop, step, error);
  if (positions != NULL)
    result = g_object_new (G_OBJECT_TYPE (self), NULL);
  for (guint i = 0; positions != NULL && ok && i < positions->len; i++)
    {
      GnnMapEntry *entry = gnn_entries_get (entries, g_array_index (positions, guint, i));
      char key[24];

      index_key (key, i);
      ok = gnn_module_registry_insert (result, GNN_MAP_MODULES, renumber ? key : entry->name,
                                       entry->value, error);
    }
  gnn_module_use_end ();
  return positions != NULL && ok ? g_steal_pointer (&result) : NULL;
}

GnnMapEntry *
gnn_container_entry_for (GnnModule   *self,
                         GnnMapKind   kind,
                         const char  *key,
                         GError     **error)
{
  GnnMapEntry *entry = gnn_module_registry_lookup (self, kind, key);

  if (entry == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_KEY, "'%s' is not a key of %s",
                 key, gnn_module_get_name (self));
  return entry;
}

GObject *
gnn_container_get_for (GnnModule   *self,
                       GnnMapKind   kind,
                       const char  *key,
                       GError     **error)
{
  GnnMapEntry *entry;
  GObject *value;

  gnn_module_use_begin ();
  entry = gnn_container_entry_for (self, kind, key, error);
  value = entry != NULL ? entry->value : NULL;
  gnn_module_use_end ();
  return value;
}

GObject *
gnn_container_pop_key (GnnModule   *self,
                       GnnMapKind   kind,
                       const char  *key,
                       GError     **error)
{
  GnnMapEntry *entry = gnn_container_entry_for (self, kind, key, error);
  g_autoptr(GObject) value = NULL;

  if (entry == NULL || !take_entry (self, entry, &value, error))
    return NULL;
  return g_steal_pointer (&value);
}

void
gnn_container_clear (GnnModule  *self,
                     GnnMapKind  kind)
{
  g_auto(GStrv) keys = gnn_container_get_keys (self, kind);

  for (guint i = 0; keys[i] != NULL; i++)
    gnn_module_registry_remove (self, keys[i], NULL, NULL);
}
