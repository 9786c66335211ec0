/* gnn-module-registry.c: the registry of GnnModule — three ordered maps
 * (parameters, buffers, child modules) and the one way into them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every registration goes through gnn_module_registry_validate()
 * (gnn-module-registry-checks.c), which decides the map and runs the name,
 * kind, slot and cycle checks once, in PyTorch's order, and then
 * registry_put(), the unchecked insert that emits the signals.
 *
 * Threads: changes are serialized by one registry lock; reads take none
 * (see gnn-ordered-map-private.h) but happen inside use windows, and what a
 * change takes out waits in the graveyard until no thread is inside one.
 * So a thread may append to or delete from a Sequential while others run
 * its forward, walk named_parameters or build a state_dict: each of those
 * sees the children as they were when it reached them. The lock, the
 * windows and the graveyard are gnn-module-use-windows.c.
 */
#include <string.h>

#include "module/gnn-module-private.h"

enum {
  SIGNAL_CHILD_ADDED,
  SIGNAL_CHILD_REMOVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The entry under @name in @map, for a reader inside a window. */
static GnnMapEntry *
reader_lookup (GnnOrderedMap *map,
               const char    *name)
{
  GnnMapEntry *entry;

  if (G_LIKELY (!gnn_ordered_map_has_index (map)))
    return gnn_ordered_map_lookup (map, name);
  /* a large map: its hash index changes under the lock */
  gnn_module_registry_lock ();
  entry = gnn_ordered_map_lookup (map, name);
  gnn_module_registry_unlock (NULL);
  return entry;
}

static GnnMapKind
find_kind (GnnModulePrivate *priv,
           const char       *name,
           gboolean          locked)
{
  for (int k = 0; k < GNN_N_MAPS; k++)
    if ((locked ? gnn_ordered_map_lookup (&priv->maps[k], name)
                : reader_lookup (&priv->maps[k], name)) != NULL)
      return k;
  return GNN_MAP_NONE;
}

/* Inside a use window. */
GnnMapKind
gnn_module_find_kind (GnnModulePrivate *priv,
                      const char       *name)
{
  return find_kind (priv, name, FALSE);
}

/* The unchecked insert, the one place that changes the registry: puts
 * @value (nullable) under @name in map @kind, removing @name from the other
 * maps, then emits child-removed / child-added and the notify of @slot (the
 * child slot named @name, or NULL). */
static void
registry_put (GnnModule  *self,
              GnnMapKind  kind,
              const char *name,
              GObject    *value,
              GParamSpec *slot)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  g_autoptr(GObject) old = NULL;
  /* @name may be an entry's own, freed by the steal below: copy it (on the
   * stack when short, as nearly all names are). */
  char key_buf[64];
  g_autofree char *key_heap = NULL;
  gsize key_len = strlen (name) + 1;
  const char *key = key_len <= sizeof key_buf ? memcpy (key_buf, name, key_len)
                                              : (key_heap = g_strdup (name));
  GnnMapKind old_kind = kind;
  GObject *replaced;
  GnnGarbage garbage = GNN_GARBAGE_INIT;

  gnn_module_registry_lock ();
  /* A name lives in at most one map, so at most one steal finds it. */
  for (int k = 0; k < GNN_N_MAPS; k++)
    {
      gboolean found;
      GObject *stolen;

      if (k == (int) kind || priv->maps[k].entries->len == 0)
        continue;
      stolen = gnn_ordered_map_steal (&priv->maps[k], key, &found, &garbage);
      if (found)
        {
          g_assert (old == NULL);
          old = stolen;
          old_kind = k;
        }
    }
  if (kind != GNN_MAP_BUFFERS && priv->non_persistent != NULL)
    g_hash_table_remove (priv->non_persistent, key);
  if (kind == GNN_MAP_MODULES && value != NULL)
    g_atomic_int_inc (&gnn_module_priv (GNN_MODULE (value))->n_parents);
  replaced = gnn_ordered_map_put (&priv->maps[kind], key, value, &garbage);
  if (replaced != NULL)
    {
      g_assert (old == NULL);
      old = replaced;
    }
  if (old_kind == GNN_MAP_MODULES && old != NULL)
    g_atomic_int_add (&gnn_module_priv (GNN_MODULE (old))->n_parents, -1);
  gnn_module_registry_unlock (&garbage);

  if (old == value)
    return;
  if (old != NULL)
    g_signal_emit (self, signals[SIGNAL_CHILD_REMOVED], 0, key, old);
  if (value != NULL)
    g_signal_emit (self, signals[SIGNAL_CHILD_ADDED], 0, key, value);
  if (slot != NULL)
    gnn_module_slot_changed (self, slot);
}

gboolean
gnn_module_registry_insert (GnnModule   *self,
                            GnnMapKind   kind,
                            const char  *name,
                            GObject     *value,
                            GError     **error)
{
  GParamSpec *slot;
  gboolean ok;

  gnn_module_use_begin ();
  ok = gnn_module_registry_validate (self, name, value, kind, &kind, &slot, error);
  if (ok)
    registry_put (self, kind, name, value, slot);
  gnn_module_use_end ();
  return ok;
}

/**
 * gnn_module_register_parameter:
 * @self: a module
 * @name: the parameter's name
 * @parameter: (nullable): the parameter, or %NULL for an empty slot
 * @error: return location for a #GError
 *
 * Registers @parameter under @name, like `register_parameter`. Replaces a
 * parameter of the same name (keeping its position).
 *
 * Fails with %GNN_ERROR_NAME if @name contains a dot ("parameter name can't
 * contain "."") or is empty, or if it is already a buffer, a child module or
 * a (non-slot) property ("attribute 'x' already exists"); with
 * %GNN_ERROR_TYPE if @parameter is not a [class@Gnn.Parameter] or does not
 * fit a declared slot of that name.
 *
 * Returns: %TRUE on success; on failure nothing changes
 *
 * Since: 0.1
 */
gboolean
gnn_module_register_parameter (GnnModule    *self,
                               const char   *name,
                               GnnParameter *parameter,
                               GError      **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (parameter == NULL || G_IS_OBJECT (parameter), FALSE);

  return gnn_module_registry_insert (self, GNN_MAP_PARAMETERS, name, (GObject *) parameter, error);
}

/**
 * gnn_module_register_buffer:
 * @self: a module
 * @name: the buffer's name
 * @tensor: (nullable): the tensor, or %NULL for an empty slot
 * @persistent: whether the buffer is part of [method@Gnn.Module.state_dict]
 * @error: return location for a #GError
 *
 * Registers @tensor as a buffer (state that is not trained, such as running
 * statistics), like `register_buffer`. Replaces a buffer of the same name
 * (keeping its position) and sets its persistence.
 *
 * Fails like [method@Gnn.Module.register_parameter] ("buffer name can't
 * contain "."", "buffer name can't be empty string """, "attribute 'x'
 * already exists").
 *
 * Returns: %TRUE on success; on failure nothing changes
 *
 * Since: 0.1
 */
gboolean
gnn_module_register_buffer (GnnModule  *self,
                            const char *name,
                            GnnTensor  *tensor,
                            gboolean    persistent,
                            GError    **error)
{
  GnnModulePrivate *priv;
  GParamSpec *slot;
  GnnMapKind kind;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (tensor == NULL || G_IS_OBJECT (tensor), FALSE);
  priv = gnn_module_priv (self);

  gnn_module_use_begin ();
  if (!gnn_module_registry_validate (self, name, (GObject *) tensor, GNN_MAP_BUFFERS, &kind, &slot,
                                     error))
    {
      gnn_module_use_end ();
      return FALSE;
    }
  gnn_module_registry_lock ();
  if (persistent)
    {
      if (priv->non_persistent != NULL)
        g_hash_table_remove (priv->non_persistent, name);
    }
  else
    {
      if (priv->non_persistent == NULL)
        priv->non_persistent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_add (priv->non_persistent, g_strdup (name));
    }
  gnn_module_registry_unlock (NULL);
  registry_put (self, kind, name, (GObject *) tensor, slot);
  gnn_module_use_end ();
  return TRUE;
}

/**
 * gnn_module_register_module:
 * @self: a module
 * @name: the child's name
 * @module: (nullable): the child, or %NULL for an empty slot
 * @error: return location for a #GError
 *
 * Registers @module as a child, like `add_module`. Replaces a child of the
 * same name (keeping its position). A module may be the child of several
 * parents; traversals visit it once.
 *
 * Fails with %GNN_ERROR_TYPE if @module is not a [class@Gnn.Module] ("X is
 * not a Module subclass") or does not fit a declared slot of that name; with
 * %GNN_ERROR_NAME if @name is already a parameter, buffer or property,
 * contains a dot or is empty; with %GNN_ERROR_INVALID_ARGUMENT if @module
 * is @self or contains it (PyTorch accepts such a cycle and then overflows
 * the stack in `state_dict()`).
 *
 * Returns: %TRUE on success; on failure nothing changes
 *
 * Since: 0.1
 */
gboolean
gnn_module_register_module (GnnModule  *self,
                            const char *name,
                            GnnModule  *module,
                            GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (module == NULL || G_IS_OBJECT (module), FALSE);

  return gnn_module_registry_insert (self, GNN_MAP_MODULES, name, (GObject *) module, error);
}

/**
 * gnn_module_set_child:
 * @self: a module
 * @name: the child's name
 * @value: (nullable): a [class@Gnn.Module], a [class@Gnn.Tensor] or %NULL
 * @error: return location for a #GError
 *
 * Assigns @value to @name, sorting it like PyTorch's `Module.__setattr__`
 * (Python's `self.name = value`):
 *
 * - a [class@Gnn.Parameter] becomes a parameter, a [class@Gnn.Module] a child
 *   module; @name is removed from the other maps;
 * - into an existing parameter or module slot, anything but a value of that
 *   kind or %NULL fails ("cannot assign 'GnnTensor' as parameter 'w'
 *   (GnnParameter or NULL expected)") and changes nothing;
 * - into an existing buffer, a tensor or %NULL replaces the value and keeps
 *   its persistence;
 * - %NULL keeps the slot, empty (PyTorch's `None`);
 * - into a declared child slot (see
 *   [method@Gnn.ModuleClass.install_child_slot]) the value must fit the
 *   slot's type; a tensor or %NULL goes to the slot's kind of map (a tensor
 *   slot is a persistent buffer).
 *
 * PyTorch stores anything else (a plain tensor or `None` under a new name)
 * as an ordinary instance attribute, which is not a child. A C object has no
 * instance dictionary, so here that is a %GNN_ERROR_TYPE error; register a
 * new buffer with [method@Gnn.Module.register_buffer]. (The Python override
 * keeps such values in the Python object's `__dict__`, as PyTorch does.)
 *
 * Returns: %TRUE on success; on failure nothing changes
 *
 * Since: 0.1
 */
gboolean
gnn_module_set_child (GnnModule  *self,
                      const char *name,
                      GObject    *value,
                      GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value == NULL || G_IS_OBJECT (value), FALSE);

  return gnn_module_registry_insert (self, GNN_MAP_NONE, name, value, error);
}

static void
set_no_attribute_error (GnnModule  *self,
                        const char *name,
                        GError    **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
               "'%s' object has no attribute '%s'", gnn_module_get_name (self), name);
}

/**
 * gnn_module_get_child:
 * @self: a module
 * @name: the child's name
 * @error: return location for a #GError
 *
 * Looks @name up in the parameters, then the buffers, then the child
 * modules (PyTorch's `Module.__getattr__`), then the plain tensor
 * attributes ([method@Gnn.Module.set_tensor_attribute]).
 *
 * Returns: (transfer none) (nullable): the child, or %NULL for an empty
 *   slot; %NULL with @error set (%GNN_ERROR_KEY, "'GnnNet' object has no
 *   attribute 'x'") if @name is not registered
 *
 * Since: 0.1
 */
GObject *
gnn_module_get_child (GnnModule  *self,
                      const char *name,
                      GError    **error)
{
  GnnModulePrivate *priv;
  GObject *value = NULL;
  gboolean found = FALSE;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  priv = gnn_module_priv (self);

  /* (inside a forward the caller's window keeps the value alive) */
  gnn_module_use_begin ();
  for (int k = 0; k < GNN_N_MAPS && !found; k++)
    {
      GnnMapEntry *entry = reader_lookup (&priv->maps[k], name);

      if (entry != NULL)
        {
          value = entry->value;
          found = TRUE;
        }
    }
  gnn_module_use_end ();
  if (found)
    return value;
  /* then torch's instance __dict__ (gnn-module-attributes.c) */
  value = G_OBJECT (gnn_module_get_tensor_attribute (self, name));
  if (value == NULL)
    set_no_attribute_error (self, name, error);
  return value;
}

/**
 * gnn_module_get_registered_names:
 * @self: a module
 * @kind: which registry
 *
 * Lists every name registered in one of the module's registries, in
 * registration order — PyTorch's `_parameters.keys()`, `_buffers.keys()`
 * or `_modules.keys()`: empty slots included, and a module registered under
 * two names listed under both (unlike [method@Gnn.Module.named_children]).
 * [method@Gnn.Module.get_child] gives each value.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names
 *
 * Since: 0.1
 */
char **
gnn_module_get_registered_names (GnnModule    *self,
                                 GnnChildKind  kind)
{
  G_STATIC_ASSERT ((int) GNN_CHILD_PARAMETER == (int) GNN_MAP_PARAMETERS);
  G_STATIC_ASSERT ((int) GNN_CHILD_BUFFER == (int) GNN_MAP_BUFFERS);
  G_STATIC_ASSERT ((int) GNN_CHILD_MODULE == (int) GNN_MAP_MODULES);
  GPtrArray *entries;
  char **names;
  guint n;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (kind <= GNN_CHILD_MODULE, NULL);

  gnn_module_use_begin ();
  entries = gnn_ordered_map_entries (&gnn_module_priv (self)->maps[kind]);
  n = gnn_entries_len (entries);
  names = g_new (char *, n + 1);
  for (guint i = 0; i < n; i++)
    names[i] = g_strdup (gnn_entries_get (entries, i)->name);
  names[n] = NULL;
  gnn_module_use_end ();
  return names;
}

/**
 * gnn_module_has_child:
 * @self: a module
 * @name: a name
 *
 * Tells whether @name is registered (as a parameter, buffer or child
 * module), even as an empty slot.
 *
 * Returns: %TRUE if @name is registered
 *
 * Since: 0.1
 */
gboolean
gnn_module_has_child (GnnModule  *self,
                      const char *name)
{
  gboolean has;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  gnn_module_use_begin ();
  has = gnn_module_find_kind (gnn_module_priv (self), name) != GNN_MAP_NONE;
  gnn_module_use_end ();
  return has;
}

gboolean
gnn_module_registry_remove (GnnModule  *self,
                            const char *name,
                            GObject   **value,
                            GError    **error)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  g_autoptr(GObject) old = NULL;
  g_autofree char *key = g_strdup (name);   /* @name may be the entry's own */
  GnnGarbage garbage = GNN_GARBAGE_INIT;
  GnnMapKind kind;
  GParamSpec *slot;
  gboolean found;

  gnn_module_registry_lock ();
  kind = find_kind (priv, key, TRUE);
  if (kind != GNN_MAP_NONE)
    {
      old = gnn_ordered_map_steal (&priv->maps[kind], key, &found, &garbage);
      if (kind == GNN_MAP_MODULES && old != NULL)
        g_atomic_int_add (&gnn_module_priv (GNN_MODULE (old))->n_parents, -1);
      if (priv->non_persistent != NULL)
        g_hash_table_remove (priv->non_persistent, key);
    }
  gnn_module_registry_unlock (&garbage);
  if (kind == GNN_MAP_NONE)
    {
      set_no_attribute_error (self, key, error);
      return FALSE;
    }
  if (old != NULL)
    g_signal_emit (self, signals[SIGNAL_CHILD_REMOVED], 0, key, old);
  slot = gnn_module_lookup_property (self, key).slot;
  if (slot != NULL && old != NULL)
    gnn_module_slot_changed (self, slot);
  if (value != NULL)
    *value = g_steal_pointer (&old);
  return TRUE;
}

/**
 * gnn_module_delete_child:
 * @self: a module
 * @name: the child's name
 * @error: return location for a #GError
 *
 * Removes @name from whichever map holds it, or the plain tensor attribute
 * @name (PyTorch's `del self.name`).
 * Emits [signal@Gnn.Module::child-removed] if it held a value.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_KEY) if @name is not
 *   registered
 *
 * Since: 0.1
 */
gboolean
gnn_module_delete_child (GnnModule  *self,
                         const char *name,
                         GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (gnn_module_remove_tensor_attribute (self, name))
    return TRUE;
  return gnn_module_registry_remove (self, name, NULL, error);
}

/**
 * gnn_module_is_buffer_persistent:
 * @self: a module
 * @name: a buffer name
 *
 * Tells whether the buffer @name is part of the state dict.
 *
 * Returns: %TRUE if @name is a persistent buffer, %FALSE if it is not a
 *   buffer or not persistent
 *
 * Since: 0.1
 */
gboolean
gnn_module_is_buffer_persistent (GnnModule  *self,
                                 const char *name)
{
  GnnModulePrivate *priv;
  gboolean persistent;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  priv = gnn_module_priv (self);

  gnn_module_registry_lock ();
  persistent = gnn_ordered_map_lookup (&priv->maps[GNN_MAP_BUFFERS], name) != NULL &&
               (priv->non_persistent == NULL || !g_hash_table_contains (priv->non_persistent, name));
  gnn_module_registry_unlock (NULL);
  return persistent;
}

GPtrArray *
gnn_module_registry_entries (GnnModule  *self,
                             GnnMapKind  kind)
{
  return gnn_ordered_map_entries (&gnn_module_priv (self)->maps[kind]);
}

GnnMapEntry *
gnn_module_registry_lookup (GnnModule  *self,
                            GnnMapKind  kind,
                            const char *name)
{
  return reader_lookup (&gnn_module_priv (self)->maps[kind], name);
}

/* Values released by a dispose on this thread, or NULL outside one: the
 * outermost dispose drops them one by one, so a child's dispose adds its own
 * children here instead of recursing (a 100,000-deep chain finalizes in a
 * loop). */
#if defined(__GNUC__) && defined(__ELF__)
static _Thread_local GPtrArray *release_queue __attribute__ ((tls_model ("initial-exec")));
#else
static _Thread_local GPtrArray *release_queue;
#endif

void
gnn_module_registry_dispose (GnnModule *self)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  GnnOrderedMap old[GNN_N_MAPS];
  GPtrArray *modules;
  gboolean outermost;

  /* Keep the maps so a late access after dispose still finds a registry.
   * A module being disposed has no reference left, so no reader can be
   * inside its maps: what they held is freed here (after the lock: a
   * tensor's finalize may take locks of its own), not through the
   * graveyard. Tensors go first: they hold no modules. */
  gnn_module_registry_lock ();
  for (int k = 0; k < GNN_N_MAPS; k++)
    {
      old[k] = priv->maps[k];
      gnn_ordered_map_init (&priv->maps[k]);
    }
  gnn_module_registry_unlock (NULL);
  gnn_ordered_map_clear (&old[GNN_MAP_PARAMETERS]);
  gnn_ordered_map_clear (&old[GNN_MAP_BUFFERS]);
  modules = old[GNN_MAP_MODULES].entries;
  if (modules == NULL || modules->len == 0)
    {
      gnn_ordered_map_clear (&old[GNN_MAP_MODULES]);
      return;
    }
  outermost = release_queue == NULL;
  if (outermost)
    release_queue = g_ptr_array_new ();
  for (guint i = 0; i < modules->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (modules, i);

      if (entry->value == NULL)
        continue;
      g_atomic_int_add (&gnn_module_priv (GNN_MODULE (entry->value))->n_parents, -1);
      g_ptr_array_add (release_queue, g_steal_pointer (&entry->value));
    }
  gnn_ordered_map_clear (&old[GNN_MAP_MODULES]);
  if (!outermost)
    return;
  /* The queue grows while it drains: a released child queues its own. */
  for (guint i = 0; i < release_queue->len; i++)
    g_object_unref (g_ptr_array_index (release_queue, i));
  g_clear_pointer (&release_queue, g_ptr_array_unref);
}

void
gnn_module_registry_class_init (GnnModuleClass *klass)
{
  /**
   * GnnModule::child-added:
   * @self: the module
   * @name: the child's name
   * @child: the parameter, buffer or module now registered under @name
   *
   * Emitted after a value is registered (a new name, or a new value for an
   * existing name). Not emitted for empty (%NULL) slots.
   *
   * Since: 0.1
   */
  signals[SIGNAL_CHILD_ADDED] =
    g_signal_new ("child-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_FIRST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_OBJECT);

  /**
   * GnnModule::child-removed:
   * @self: the module
   * @name: the child's name
   * @child: the value that was registered under @name
   *
   * Emitted after a value leaves the registry (deleted, replaced, or moved
   * out by a value of another kind).
   *
   * Since: 0.1
   */
  signals[SIGNAL_CHILD_REMOVED] =
    g_signal_new ("child-removed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_FIRST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_OBJECT);
}
