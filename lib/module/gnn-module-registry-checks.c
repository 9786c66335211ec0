/* gnn-module-registry-checks.c: the checks of a registration (name rules,
 * value and slot types, the map Module.__setattr__ picks, cycles) in
 * PyTorch's order and with its messages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-private.h"

static const char *const kind_words[GNN_N_MAPS] = { "parameter", "buffer", "module" };

/* PyTorch lets a module contain itself and then overflows the stack in
 * state_dict() or repr(); Gnn refuses the cycle up front. The walk uses an
 * explicit stack: the tree may be arbitrarily deep. */
gboolean
gnn_module_registry_check_no_cycle (GnnModule  *self,
                                    const char *name,
                                    GnnModule  *child,
                                    GError    **error)
{
  g_autoptr(GHashTable) visited = NULL;
  g_autoptr(GPtrArray) stack = NULL;

  gboolean ok = TRUE;

  if (child == NULL)
    return TRUE;
  /* Only a module that is some module's child can be below @child; and a
   * leaf (the common case: a layer) reaches only itself. Both keep building
   * a tree bottom-up linear. */
  if (child != self && (g_atomic_int_get (&gnn_module_priv (self)->n_parents) == 0 ||
                        gnn_ordered_map_len (&gnn_module_priv (child)->maps[GNN_MAP_MODULES]) == 0))
    return TRUE;
  gnn_module_use_begin ();
  visited = g_hash_table_new (NULL, NULL);
  stack = g_ptr_array_new ();
  g_ptr_array_add (stack, child);
  while (stack->len > 0)
    {
      GnnModule *module = g_ptr_array_steal_index_fast (stack, stack->len - 1);
      GPtrArray *entries;

      if (module == self)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "cannot assign '%s' as child module '%s': it contains this module "
                       "(a cycle)", G_OBJECT_TYPE_NAME (child), name);
          ok = FALSE;
          break;
        }
      if (!g_hash_table_add (visited, module))
        continue;
      entries = gnn_ordered_map_entries (&gnn_module_priv (module)->maps[GNN_MAP_MODULES]);
      for (guint i = 0, n = gnn_entries_len (entries); i < n; i++)
        {
          GnnMapEntry *entry = gnn_entries_get (entries, i);
          if (entry->value != NULL)
            g_ptr_array_add (stack, entry->value);
        }
    }
  gnn_module_use_end ();
  return ok;
}

/* The name rules of register_parameter / register_buffer / add_module, in
 * PyTorch's order (add_module checks "already exists" first). @current: the
 * map holding @name; @plain_property: a property (not a slot) has that name. */
static gboolean
check_name (const char  *name,
            GnnMapKind   kind,
            GnnMapKind   current,
            gboolean     plain_property,
            GError     **error)
{
  gboolean taken = (current != GNN_MAP_NONE && current != kind) || plain_property;

  if (kind == GNN_MAP_MODULES && taken)
    goto taken;
  if (strchr (name, '.') != NULL)
    {
      if (kind == GNN_MAP_MODULES)
        g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                     "module name can't contain \".\", got: %s", name);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                     "%s name can't contain \".\"", kind_words[kind]);
      return FALSE;
    }
  if (name[0] == '\0')
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                   "%s name can't be empty string \"\"", kind_words[kind]);
      return FALSE;
    }
  if (!taken)
    return TRUE;
taken:
  g_set_error (error, GNN_ERROR, GNN_ERROR_NAME, "attribute '%s' already exists", name);
  return FALSE;
}

/* register_*'s type check: @value (nullable) must be of map @kind's type. */
static gboolean
check_value_type (GObject     *value,
                  GnnMapKind   kind,
                  const char  *name,
                  GError     **error)
{
  if (value == NULL)
    return TRUE;
  if (kind == GNN_MAP_MODULES && !GNN_IS_MODULE (value))
    g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                 "%s is not a Module subclass", G_OBJECT_TYPE_NAME (value));
  else if (kind == GNN_MAP_PARAMETERS && !GNN_IS_PARAMETER (value))
    g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                 "cannot assign '%s' object to parameter '%s' (GnnParameter or NULL required)",
                 G_OBJECT_TYPE_NAME (value), name);
  else if (kind == GNN_MAP_BUFFERS && !GNN_IS_TENSOR (value))
    g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                 "cannot assign '%s' object to buffer '%s' (GnnTensor or NULL required)",
                 G_OBJECT_TYPE_NAME (value), name);
  else
    return TRUE;
  return FALSE;
}

/* @value (nullable) must fit the declared slot @slot (nullable). */
static gboolean
check_slot_type (GnnModule   *self,
                 const char  *name,
                 GObject     *value,
                 GParamSpec  *slot,
                 GError     **error)
{
  if (value == NULL || slot == NULL || g_type_is_a (G_OBJECT_TYPE (value), slot->value_type))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "cannot assign '%s' as child slot '%s' of '%s' (%s or NULL expected)",
               G_OBJECT_TYPE_NAME (value), name, gnn_module_get_name (self),
               g_type_name (slot->value_type));
  return FALSE;
}

/* PyTorch's "cannot assign '<type>' as parameter '<name>' (... or None
 * expected)" for a value of the wrong kind into a registered name. */
static gboolean
wrong_kind_error (GObject    *value,
                  const char *what,
                  const char *name,
                  const char *expected,
                  GError    **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "cannot assign '%s' as %s '%s' (%s or NULL expected)",
               G_OBJECT_TYPE_NAME (value), what, name, expected);
  return FALSE;
}

/* Module.__setattr__'s choice of map for @value (nullable) under a name held
 * by map @current, or GNN_MAP_NONE if it is not a child at all. */
static GnnMapKind
sort_value (GObject    *value,
            GnnMapKind  current,
            GParamSpec *slot)
{
  if (value != NULL && GNN_IS_PARAMETER (value))
    return GNN_MAP_PARAMETERS;
  if (value != NULL && GNN_IS_MODULE (value))
    return GNN_MAP_MODULES;
  if (current != GNN_MAP_NONE)
    return current;
  return slot != NULL ? gnn_module_slot_kind (slot) : GNN_MAP_NONE;
}

/* The one validation of a registration. @request is the map the caller
 * asked for (register_*), or GNN_MAP_NONE for set_child, which sorts @value
 * like Module.__setattr__. On success @kind and @slot say where it goes. */
gboolean
gnn_module_registry_validate (GnnModule   *self,
                              const char  *name,
                              GObject     *value,
                              GnnMapKind   request,
                              GnnMapKind  *kind,
                              GParamSpec **slot,
                              GError     **error)
{
  GnnMapKind current = gnn_module_find_kind (gnn_module_priv (self), name);
  GnnNameProperty property = gnn_module_lookup_property (self, name);

  *slot = property.slot;
  *kind = request;
  if (request == GNN_MAP_NONE)
    {
      /* PyTorch's messages come first where PyTorch has one. */
      if (value != NULL && current == GNN_MAP_PARAMETERS && !GNN_IS_PARAMETER (value))
        return wrong_kind_error (value, "parameter", name, "GnnParameter", error);
      if (value != NULL && current == GNN_MAP_MODULES && !GNN_IS_MODULE (value) &&
          !GNN_IS_PARAMETER (value))   /* torch: a Parameter may replace a module */
        return wrong_kind_error (value, "child module", name, "GnnModule", error);
      if (!check_slot_type (self, name, value, *slot, error))
        return FALSE;
      *kind = sort_value (value, current, *slot);
      if (*kind == GNN_MAP_NONE)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "cannot assign '%s' to new attribute '%s' of '%s': only a GnnParameter "
                       "or a GnnModule registers a new child (use gnn_module_register_buffer() "
                       "for buffers)", value != NULL ? G_OBJECT_TYPE_NAME (value) : "NULL",
                       name, gnn_module_get_name (self));
          return FALSE;
        }
      if (*kind == GNN_MAP_BUFFERS && value != NULL && !GNN_IS_TENSOR (value))
        return wrong_kind_error (value, "buffer", name, "GnnTensor", error);
      /* PyTorch removes a registered name from the other maps before
       * registering it again, so only a new name meets the name rules. */
      if (current == GNN_MAP_NONE && !check_name (name, *kind, current, property.plain, error))
        return FALSE;
    }
  else
    {
      if (request == GNN_MAP_MODULES && !check_value_type (value, request, name, error))
        return FALSE;
      if (!check_name (name, request, current, property.plain, error))
        return FALSE;
      if (request != GNN_MAP_MODULES && !check_value_type (value, request, name, error))
        return FALSE;
      if (!check_slot_type (self, name, value, *slot, error))
        return FALSE;
    }
  return *kind != GNN_MAP_MODULES ||
         gnn_module_registry_check_no_cycle (self, name, (GnnModule *) value, error);
}
