/* gnn-module.c: GnnModule, its registry, child slots and mixins
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-private.h"
#include "core/gnn-fork-private.h"

/**
 * GnnModule:
 *
 * The base of every layer and model, like `torch.nn.Module`.
 *
 * A module owns a registry of three insertion-ordered maps — parameters,
 * buffers and child modules — created in its instance init and never
 * re-created. A name lives in at most one map. The generic setter
 * [method@Gnn.Module.set_child] sorts a value into the right map exactly as
 * PyTorch's `Module.__setattr__` does, and the `register_*` functions follow
 * `register_parameter`, `register_buffer` and `add_module`. Errors carry
 * PyTorch's words in the %GNN_ERROR domain (%GNN_ERROR_NAME for bad or taken
 * names, %GNN_ERROR_TYPE for values of the wrong kind, %GNN_ERROR_KEY for
 * missing names).
 *
 * Where PyTorch prints a class name, Gnn prints [method@Gnn.Module.get_name]:
 * the GType name (`GnnLinear`), or for a type derived from a Python or JS
 * class `Net` (GType names `__main__+Net`, `Gjs_Net`) just `Net`, which is
 * what PyTorch would print.
 *
 * Classes may declare child slots as GObject properties with
 * [method@Gnn.ModuleClass.install_child_slot]; their values live only in the
 * registry. Mixin interfaces registered with [func@Gnn.mixin_register] are
 * initialized once per instance, prerequisites first.
 *
 * Subclasses implement [vfunc@Gnn.Module.forward]; callers use
 * [method@Gnn.Module.call], which runs the forward hooks.
 */

enum {
  PROP_0,
  PROP_TRAINING,
  N_PROPS
};

enum {
  SIGNAL_CHILD_ADDED,
  SIGNAL_CHILD_REMOVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void gnn_module_init_mixins (GnnModule *self,
                                    GType      final_type);
static void gnn_module_wrap_slot_classes (GType final_type);

static void gnn_module_class_init (GnnModuleClass *klass);
static void gnn_module_init (GnnModule *self,
                             gpointer   g_class);

/* Registered by hand rather than with G_DEFINE_*: the instance init needs
 * its second argument, the final class, to run the mixin inits. */
static gpointer gnn_module_parent_class;
static int GnnModule_private_offset;

static void
gnn_module_class_intern_init (gpointer klass,
                              gpointer class_data)
{
  gnn_module_parent_class = g_type_class_peek_parent (klass);
  g_type_class_adjust_private_offset (klass, &GnnModule_private_offset);
  gnn_module_class_init (klass);
}

static inline gpointer
gnn_module_get_instance_private (GnnModule *self)
{
  return G_STRUCT_MEMBER_P (self, GnnModule_private_offset);
}

GType
gnn_module_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      GType t = g_type_register_static_simple (G_TYPE_OBJECT,
                                               g_intern_static_string ("GnnModule"),
                                               sizeof (GnnModuleClass),
                                               (GClassInitFunc) gnn_module_class_intern_init,
                                               sizeof (GnnModule),
                                               (GInstanceInitFunc) gnn_module_init,
                                               G_TYPE_FLAG_ABSTRACT);
      GnnModule_private_offset = g_type_add_instance_private (t, sizeof (GnnModulePrivate));
      g_once_init_leave (&type_id, t);
    }
  return type_id;
}

GnnModulePrivate *
gnn_module_priv (GnnModule *self)
{
  return gnn_module_get_instance_private (self);
}

/* --- ordered maps -------------------------------------------------------- */

static void
map_entry_free (gpointer data)
{
  GnnMapEntry *entry = data;

  g_free (entry->name);
  g_clear_object (&entry->value);
  g_free (entry);
}

/* Most maps hold a handful of names (Linear: weight, bias), where a scan
 * beats hashing and a hash table per map per module is most of the cost of
 * creating one; the index is built once a map reaches this size. */
#define ORDERED_MAP_INDEX_MIN 8

static void
ordered_map_init (GnnOrderedMap *map)
{
  map->entries = g_ptr_array_new_with_free_func (map_entry_free);
  map->index = NULL;
}

static void
ordered_map_clear (GnnOrderedMap *map)
{
  g_clear_pointer (&map->index, g_hash_table_unref);
  g_clear_pointer (&map->entries, g_ptr_array_unref);
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

/* Appends a new entry (@name is not in @map). */
static void
ordered_map_append (GnnOrderedMap *map,
                    GnnMapEntry   *entry)
{
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
}

/* Removes @name; returns its old value (transfer full, may be NULL). */
static GObject *
ordered_map_steal (GnnOrderedMap *map,
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
    g_hash_table_remove (map->index, name);
  g_ptr_array_remove (map->entries, entry);
  return old;
}

/* --- child slots (declared as GObject properties) ------------------------ */

/* Per class that installed slots: the class's own property functions, which
 * the dispatcher calls for every pspec that is not a slot. */
typedef struct
{
  GObjectSetPropertyFunc own_set;
  GObjectGetPropertyFunc own_get;
  gint                   wrapped;   /* atomic: own functions re-checked */
} SlotClassInfo;

GNN_FORK_SAFE_MUTEX (slot_lock);
static guint next_slot_id = 1u << 20;

/* Quarks interned once in gnn_module_class_init(), which runs before any
 * subclass class_init and any instance (g_quark_from_static_string() takes a
 * global lock, and these are looked up on every registration). */
static GQuark quark_slot_class_info;
static GQuark quark_slot_name;
static GQuark quark_mixin_plan;

static inline GQuark
slot_class_info_quark (void)
{
  return quark_slot_class_info;
}

static inline GQuark
slot_name_quark (void)
{
  return quark_slot_name;
}

static void
slot_dispatch_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  const char *slot = g_param_spec_get_qdata (pspec, slot_name_quark ());
  SlotClassInfo *info;

  if (slot != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!gnn_module_set_child (GNN_MODULE (object), slot,
                                 g_value_get_object (value), &error))
        g_warning ("%s", error->message);
      return;
    }
  info = g_type_get_qdata (pspec->owner_type, slot_class_info_quark ());
  if (info != NULL && info->own_set != NULL)
    info->own_set (object, prop_id, value, pspec);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
slot_dispatch_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  const char *slot = g_param_spec_get_qdata (pspec, slot_name_quark ());
  SlotClassInfo *info;

  if (slot != NULL)
    {
      GnnModulePrivate *priv = gnn_module_priv (GNN_MODULE (object));

      for (int k = 0; k < GNN_N_MAPS; k++)
        {
          GnnMapEntry *entry = gnn_ordered_map_lookup (&priv->maps[k], slot);
          if (entry != NULL)
            {
              g_value_set_object (value, entry->value);
              return;
            }
        }
      g_value_set_object (value, NULL);
      return;
    }
  info = g_type_get_qdata (pspec->owner_type, slot_class_info_quark ());
  if (info != NULL && info->own_get != NULL)
    info->own_get (object, prop_id, value, pspec);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* Takes over the class's property functions, remembering its own ones.
 * Called with slot_lock held. */
static void
slot_class_take_over (GObjectClass  *object_class,
                      SlotClassInfo *info)
{
  if (object_class->set_property != slot_dispatch_set_property)
    {
      info->own_set = object_class->set_property;
      object_class->set_property = slot_dispatch_set_property;
    }
  if (object_class->get_property != slot_dispatch_get_property)
    {
      info->own_get = object_class->get_property;
      object_class->get_property = slot_dispatch_get_property;
    }
}

/**
 * gnn_module_class_install_child_slot:
 * @klass: the class being initialized
 * @name: the child's name, a valid GObject property name
 * @child_type: the slot's value type: a [class@Gnn.Module] type, a
 *   [class@Gnn.Parameter] type, or a [class@Gnn.Tensor] type (a buffer)
 *
 * Declares a child slot as a read-write object property of @klass, to call
 * once per slot in class_init (like
 * `gtk_widget_class_bind_template_child()`).
 *
 * `g_object_set (net, "fc1", linear, NULL)` registers the value through
 * [method@Gnn.Module.set_child] (a tensor into a tensor slot becomes a
 * persistent buffer; %NULL keeps an empty slot), `g_object_get` reads the
 * registry, `notify::fc1` is emitted whenever the registered value changes
 * (by whatever means), and the slot is listed by
 * g_object_class_list_properties(). Nothing is stored in the instance
 * struct. The class keeps its own `set_property`/`get_property` for its
 * other properties and may assign them before or after this call. A value
 * the registry rejects through a property set is reported with g_warning();
 * use [method@Gnn.Module.set_child] to get a #GError instead.
 */
void
gnn_module_class_install_child_slot (GnnModuleClass *klass,
                                     const char     *name,
                                     GType           child_type)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GType class_type = G_OBJECT_CLASS_TYPE (klass);
  SlotClassInfo *info;
  GParamSpec *pspec;
  guint prop_id;

  g_return_if_fail (GNN_IS_MODULE_CLASS (klass));
  g_return_if_fail (name != NULL && g_param_spec_is_valid_name (name));
  g_return_if_fail (g_type_is_a (child_type, GNN_TYPE_MODULE) ||
                    g_type_is_a (child_type, GNN_TYPE_TENSOR));

  g_mutex_lock (&slot_lock);
  info = g_type_get_qdata (class_type, slot_class_info_quark ());
  if (info == NULL)
    {
      info = g_new0 (SlotClassInfo, 1);   /* lives as long as the type */
      g_type_set_qdata (class_type, slot_class_info_quark (), info);
    }
  slot_class_take_over (object_class, info);
  prop_id = next_slot_id++;
  g_mutex_unlock (&slot_lock);

  pspec = g_param_spec_object (name, NULL, NULL, child_type,
                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                               G_PARAM_STATIC_NICK | G_PARAM_STATIC_BLURB);
  g_param_spec_set_qdata_full (pspec, slot_name_quark (), g_strdup (name), g_free);
  g_object_class_install_property (object_class, prop_id, pspec);
}

/* At the first instance of each class: a class may have assigned its own
 * set_property/get_property after installing slots, so take over again. */
static void
gnn_module_wrap_slot_classes (GType final_type)
{
  for (GType t = final_type; t != GNN_TYPE_MODULE && t != 0; t = g_type_parent (t))
    {
      SlotClassInfo *info = g_type_get_qdata (t, slot_class_info_quark ());

      if (info == NULL || g_atomic_int_get (&info->wrapped))
        continue;
      g_mutex_lock (&slot_lock);
      if (!info->wrapped)
        {
          slot_class_take_over (g_type_class_peek (t), info);
          g_atomic_int_set (&info->wrapped, TRUE);
        }
      g_mutex_unlock (&slot_lock);
    }
}

/* The GObject property of @self named @name, or NULL. A registration looks
 * it up once and derives both answers below from it. */
static GParamSpec *
find_property (GnnModule  *self,
               const char *name)
{
  if (!g_ascii_isalpha (name[0]))
    return NULL;
  return g_object_class_find_property (gnn_module_priv (self)->final_class, name);
}

/* @pspec (the property named @name, nullable) if it is a child slot. */
static GParamSpec *
property_as_slot (GParamSpec *pspec,
                  const char *name)
{
  const char *slot;

  if (pspec == NULL)
    return NULL;
  slot = g_param_spec_get_qdata (pspec, slot_name_quark ());
  return slot != NULL && strcmp (slot, name) == 0 ? pspec : NULL;
}

/* TRUE if @pspec (nullable) is a property that is not a child slot: for
 * the property named @name, PyTorch's `hasattr (self, name)` for a name
 * outside the registry. */
static gboolean
property_is_plain (GParamSpec *pspec)
{
  return pspec != NULL && g_param_spec_get_qdata (pspec, slot_name_quark ()) == NULL;
}

/* The slot pspec named @name, or NULL. */
static GParamSpec *
find_slot (GnnModule  *self,
           const char *name)
{
  return property_as_slot (find_property (self, name), name);
}

/* --- registry core ------------------------------------------------------- */

static GnnMapKind
find_kind (GnnModulePrivate *priv,
           const char       *name)
{
  for (int k = 0; k < GNN_N_MAPS; k++)
    if (gnn_ordered_map_lookup (&priv->maps[k], name) != NULL)
      return k;
  return GNN_MAP_NONE;
}

static const char *
value_type_name (GObject *value)
{
  return value != NULL ? G_OBJECT_TYPE_NAME (value) : "NULL";
}

/* The one place that changes the registry: puts @value (nullable) under
 * @name in map @kind, removing @name from the other maps, then emits
 * child-removed / child-added and the notify of @slot, the child slot named
 * @name (find_slot(), which the caller already knows; NULL if none). */
static void
registry_put_slot (GnnModule  *self,
                   GnnMapKind  kind,
                   const char *name,
                   GObject    *value,
                   GParamSpec *slot)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  g_autoptr(GObject) old = NULL;
  g_autofree char *key = g_strdup (name);   /* @name may be an entry's own */
  GnnMapEntry *entry;

  /* A name lives in at most one map, so at most one steal finds it. */
  for (int k = 0; k < GNN_N_MAPS; k++)
    {
      gboolean found;
      GObject *stolen;

      if (k == (int) kind)
        continue;
      stolen = ordered_map_steal (&priv->maps[k], key, &found);
      if (found)
        {
          g_assert (old == NULL);
          old = stolen;
        }
    }
  if (kind != GNN_MAP_BUFFERS && priv->non_persistent != NULL)
    g_hash_table_remove (priv->non_persistent, key);

  entry = gnn_ordered_map_lookup (&priv->maps[kind], key);
  if (entry != NULL)
    {
      g_assert (old == NULL);
      old = g_steal_pointer (&entry->value);
      entry->value = value != NULL ? g_object_ref (value) : NULL;
    }
  else
    {
      entry = g_new0 (GnnMapEntry, 1);
      entry->name = g_strdup (key);
      entry->value = value != NULL ? g_object_ref (value) : NULL;
      ordered_map_append (&priv->maps[kind], entry);
    }

  if (old == value)
    return;
  if (old != NULL)
    g_signal_emit (self, signals[SIGNAL_CHILD_REMOVED], 0, key, old);
  if (value != NULL)
    g_signal_emit (self, signals[SIGNAL_CHILD_ADDED], 0, key, value);
  if (slot != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), slot);
}

/* TRUE if @target is @module or below it. */
static gboolean
reaches (GnnModule  *module,
         GnnModule  *target,
         GHashTable *visited)
{
  GnnOrderedMap *map;

  if (module == target)
    return TRUE;
  if (!g_hash_table_add (visited, module))
    return FALSE;
  map = &gnn_module_priv (module)->maps[GNN_MAP_MODULES];
  for (guint i = 0; i < map->entries->len; i++)
    {
      GnnMapEntry *entry = g_ptr_array_index (map->entries, i);
      if (entry->value != NULL && reaches (GNN_MODULE (entry->value), target, visited))
        return TRUE;
    }
  return FALSE;
}

/* PyTorch lets a module contain itself and then overflows the stack in
 * state_dict() or repr(); Gnn refuses the cycle up front. */
static gboolean
check_no_cycle (GnnModule  *self,
                const char *name,
                GnnModule  *child,
                GError    **error)
{
  g_autoptr(GHashTable) visited = NULL;

  if (child == NULL)
    return TRUE;
  /* A leaf (the common case: a layer) reaches only itself. */
  if (child != self && gnn_module_priv (child)->maps[GNN_MAP_MODULES].entries->len == 0)
    return TRUE;
  visited = g_hash_table_new (NULL, NULL);
  if (!reaches (child, self, visited))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "cannot assign '%s' as child module '%s': it contains this module (a cycle)",
               G_OBJECT_TYPE_NAME (child), name);
  return FALSE;
}

/* @slot: find_slot (self, name) */
static gboolean
check_slot_type_of (GnnModule  *self,
                    const char *name,
                    GObject    *value,
                    GParamSpec *slot,
                    GError    **error)
{
  if (value == NULL)
    return TRUE;
  if (slot == NULL || g_type_is_a (G_OBJECT_TYPE (value), slot->value_type))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "cannot assign '%s' as child slot '%s' of '%s' (%s or NULL expected)",
               G_OBJECT_TYPE_NAME (value), name, gnn_module_get_name (self),
               g_type_name (slot->value_type));
  return FALSE;
}

/* register_parameter / register_buffer name rules, in PyTorch's order.
 * @property: find_property (self, name) */
static gboolean
check_tensor_name (GnnModule  *self,
                   const char *what,
                   const char *name,
                   GnnMapKind  kind,
                   GParamSpec *property,
                   GError    **error)
{
  GnnMapKind current = find_kind (gnn_module_priv (self), name);

  if (strchr (name, '.') != NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                   "%s name can't contain \".\"", what);
      return FALSE;
    }
  if (name[0] == '\0')
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                   "%s name can't be empty string \"\"", what);
      return FALSE;
    }
  if ((current != GNN_MAP_NONE && current != kind) || property_is_plain (property))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                   "attribute '%s' already exists", name);
      return FALSE;
    }
  return TRUE;
}

/* add_module name rules, in PyTorch's order (after the type check).
 * @property: find_property (self, name) */
static gboolean
check_module_name (GnnModule  *self,
                   const char *name,
                   GParamSpec *property,
                   GError    **error)
{
  GnnMapKind current = find_kind (gnn_module_priv (self), name);

  if ((current != GNN_MAP_NONE && current != GNN_MAP_MODULES) || property_is_plain (property))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                   "attribute '%s' already exists", name);
      return FALSE;
    }
  if (strchr (name, '.') != NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                   "module name can't contain \".\", got: %s", name);
      return FALSE;
    }
  if (name[0] == '\0')
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NAME,
                   "module name can't be empty string \"\"");
      return FALSE;
    }
  return TRUE;
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
 */
gboolean
gnn_module_register_parameter (GnnModule    *self,
                               const char   *name,
                               GnnParameter *parameter,
                               GError      **error)
{
  GParamSpec *property, *slot;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (parameter == NULL || G_IS_OBJECT (parameter), FALSE);
  property = find_property (self, name);
  slot = property_as_slot (property, name);

  if (!check_tensor_name (self, "parameter", name, GNN_MAP_PARAMETERS, property, error))
    return FALSE;
  if (parameter != NULL && !GNN_IS_PARAMETER (parameter))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "cannot assign '%s' object to parameter '%s' (GnnParameter or NULL required)",
                   G_OBJECT_TYPE_NAME (parameter), name);
      return FALSE;
    }
  if (!check_slot_type_of (self, name, (GObject *) parameter, slot, error))
    return FALSE;
  registry_put_slot (self, GNN_MAP_PARAMETERS, name, (GObject *) parameter, slot);
  return TRUE;
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
 */
gboolean
gnn_module_register_buffer (GnnModule  *self,
                            const char *name,
                            GnnTensor  *tensor,
                            gboolean    persistent,
                            GError    **error)
{
  GnnModulePrivate *priv;
  GParamSpec *property, *slot;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (tensor == NULL || G_IS_OBJECT (tensor), FALSE);
  priv = gnn_module_priv (self);
  property = find_property (self, name);
  slot = property_as_slot (property, name);

  if (!check_tensor_name (self, "buffer", name, GNN_MAP_BUFFERS, property, error))
    return FALSE;
  if (tensor != NULL && !GNN_IS_TENSOR (tensor))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "cannot assign '%s' object to buffer '%s' (GnnTensor or NULL required)",
                   G_OBJECT_TYPE_NAME (tensor), name);
      return FALSE;
    }
  if (!check_slot_type_of (self, name, (GObject *) tensor, slot, error))
    return FALSE;
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
  registry_put_slot (self, GNN_MAP_BUFFERS, name, (GObject *) tensor, slot);
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
 */
gboolean
gnn_module_register_module (GnnModule  *self,
                            const char *name,
                            GnnModule  *module,
                            GError    **error)
{
  GParamSpec *property, *slot;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (module == NULL || G_IS_OBJECT (module), FALSE);

  if (module != NULL && !GNN_IS_MODULE (module))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s is not a Module subclass", G_OBJECT_TYPE_NAME (module));
      return FALSE;
    }
  property = find_property (self, name);
  slot = property_as_slot (property, name);
  if (!check_module_name (self, name, property, error))
    return FALSE;
  if (!check_slot_type_of (self, name, (GObject *) module, slot, error))
    return FALSE;
  if (!check_no_cycle (self, name, module, error))
    return FALSE;
  registry_put_slot (self, GNN_MAP_MODULES, name, (GObject *) module, slot);
  return TRUE;
}

static GnnMapKind
slot_kind (GParamSpec *slot)
{
  if (g_type_is_a (slot->value_type, GNN_TYPE_MODULE))
    return GNN_MAP_MODULES;
  if (g_type_is_a (slot->value_type, GNN_TYPE_PARAMETER))
    return GNN_MAP_PARAMETERS;
  return GNN_MAP_BUFFERS;
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
 */
gboolean
gnn_module_set_child (GnnModule  *self,
                      const char *name,
                      GObject    *value,
                      GError    **error)
{
  GnnModulePrivate *priv;
  GnnMapKind current;
  GParamSpec *property, *slot;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value == NULL || G_IS_OBJECT (value), FALSE);
  priv = gnn_module_priv (self);
  current = find_kind (priv, name);
  property = find_property (self, name);
  slot = property_as_slot (property, name);

  /* PyTorch's messages come first where PyTorch has one. */
  if (value != NULL && current == GNN_MAP_PARAMETERS && !GNN_IS_PARAMETER (value))
    return wrong_kind_error (value, "parameter", name, "GnnParameter", error);
  if (value != NULL && current == GNN_MAP_MODULES && !GNN_IS_MODULE (value) &&
      !GNN_IS_PARAMETER (value))   /* torch: a Parameter may replace a module */
    return wrong_kind_error (value, "child module", name, "GnnModule", error);
  if (!check_slot_type_of (self, name, value, slot, error))
    return FALSE;

  if (value != NULL && GNN_IS_PARAMETER (value))
    {
      /* PyTorch removes the name from the other maps first, then
       * registers: only the name itself and properties can still fail. */
      if (current != GNN_MAP_NONE && current != GNN_MAP_PARAMETERS &&
          strchr (name, '.') == NULL && name[0] != '\0' && !property_is_plain (property))
        {
          registry_put_slot (self, GNN_MAP_PARAMETERS, name, value, slot);
          return TRUE;
        }
      return gnn_module_register_parameter (self, name, GNN_PARAMETER (value), error);
    }
  if (current == GNN_MAP_PARAMETERS)
    {
      /* value is NULL here: a non-parameter was refused above */
      registry_put_slot (self, GNN_MAP_PARAMETERS, name, NULL, slot);
      return TRUE;
    }
  if (value != NULL && GNN_IS_MODULE (value))
    {
      if (current != GNN_MAP_NONE && current != GNN_MAP_MODULES)
        {
          if (strchr (name, '.') == NULL && name[0] != '\0')
            {
              if (!check_no_cycle (self, name, GNN_MODULE (value), error))
                return FALSE;
              registry_put_slot (self, GNN_MAP_MODULES, name, value, slot);
              return TRUE;
            }
        }
      return gnn_module_register_module (self, name, GNN_MODULE (value), error);
    }
  if (current == GNN_MAP_MODULES)
    {
      /* value is NULL here: a non-module was refused above */
      registry_put_slot (self, GNN_MAP_MODULES, name, NULL, slot);
      return TRUE;
    }
  if (current == GNN_MAP_BUFFERS)
    {
      if (value != NULL && !GNN_IS_TENSOR (value))
        return wrong_kind_error (value, "buffer", name, "GnnTensor", error);
      registry_put_slot (self, GNN_MAP_BUFFERS, name, value, slot);
      return TRUE;
    }
  if (slot != NULL)
    {
      /* An unregistered declared slot: value is NULL or a plain tensor that
       * fits a tensor slot (check_slot_type passed). */
      registry_put_slot (self, slot_kind (slot), name, value, slot);
      return TRUE;
    }

  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "cannot assign '%s' to new attribute '%s' of '%s': only a GnnParameter or "
               "a GnnModule registers a new child (use gnn_module_register_buffer() for buffers)",
               value_type_name (value), name, gnn_module_get_name (self));
  return FALSE;
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
 * modules (PyTorch's `Module.__getattr__`).
 *
 * Returns: (transfer none) (nullable): the child, or %NULL for an empty
 *   slot; %NULL with @error set (%GNN_ERROR_KEY, "'GnnNet' object has no
 *   attribute 'x'") if @name is not registered
 */
GObject *
gnn_module_get_child (GnnModule  *self,
                      const char *name,
                      GError    **error)
{
  GnnModulePrivate *priv;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  priv = gnn_module_priv (self);

  for (int k = 0; k < GNN_N_MAPS; k++)
    {
      GnnMapEntry *entry = gnn_ordered_map_lookup (&priv->maps[k], name);
      if (entry != NULL)
        return entry->value;
    }
  set_no_attribute_error (self, name, error);
  return NULL;
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
 */
gboolean
gnn_module_has_child (GnnModule  *self,
                      const char *name)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  return find_kind (gnn_module_priv (self), name) != GNN_MAP_NONE;
}

/**
 * gnn_module_delete_child:
 * @self: a module
 * @name: the child's name
 * @error: return location for a #GError
 *
 * Removes @name from whichever map holds it (PyTorch's `del self.name`).
 * Emits [signal@Gnn.Module::child-removed] if it held a value.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_KEY) if @name is not
 *   registered
 */
gboolean
gnn_module_delete_child (GnnModule  *self,
                         const char *name,
                         GError    **error)
{
  GnnModulePrivate *priv;
  g_autoptr(GObject) old = NULL;
  g_autofree char *key = NULL;
  GnnMapKind kind;
  GParamSpec *slot;
  gboolean found;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  priv = gnn_module_priv (self);

  kind = find_kind (priv, name);
  if (kind == GNN_MAP_NONE)
    {
      set_no_attribute_error (self, name, error);
      return FALSE;
    }
  key = g_strdup (name);
  old = ordered_map_steal (&priv->maps[kind], key, &found);
  if (priv->non_persistent != NULL)
    g_hash_table_remove (priv->non_persistent, key);
  if (old != NULL)
    g_signal_emit (self, signals[SIGNAL_CHILD_REMOVED], 0, key, old);
  slot = find_slot (self, key);
  if (slot != NULL && old != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), slot);
  return TRUE;
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
 */
gboolean
gnn_module_is_buffer_persistent (GnnModule  *self,
                                 const char *name)
{
  GnnModulePrivate *priv;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  priv = gnn_module_priv (self);

  return gnn_ordered_map_lookup (&priv->maps[GNN_MAP_BUFFERS], name) != NULL &&
         (priv->non_persistent == NULL || !g_hash_table_contains (priv->non_persistent, name));
}

/**
 * gnn_module_get_name:
 * @self: a module
 *
 * Returns the name Gnn prints where PyTorch prints the class name
 * (`_get_name()`): the GType name, except for types derived in a binding
 * from a class `Net`: PyGObject names them `__main__+Net` (Gnn prints the
 * part after the last `+`), GJS `Gjs_Net` by default (Gnn drops `Gjs_`);
 * and for Gnn's own types, which print as PyTorch's (`GnnLinear` prints
 * `Linear`, so a model's repr reads the same in both).
 *
 * Returns: (transfer none): the module's type name
 */
const char *
gnn_module_get_name (GnnModule *self)
{
  const char *name, *plus;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  name = g_type_name (G_OBJECT_CLASS_TYPE (gnn_module_priv (self)->final_class));
  plus = strrchr (name, '+');
  if (plus != NULL && plus[1] != '\0')
    return plus + 1;
  if (g_str_has_prefix (name, "Gjs_") && name[4] != '\0')
    return name + 4;
  if (g_str_has_prefix (name, "Gnn") && g_ascii_isupper (name[3]))
    return name + 3;
  return name;
}

/* --- dotted lookups ------------------------------------------------------ */

/* get_submodule's walk; @path_len bytes of @path. */
static GnnModule *
lookup_submodule (GnnModule  *self,
                  const char *path,
                  gsize       path_len,
                  GError    **error)
{
  g_autofree char *copy = g_strndup (path, path_len);
  g_auto(GStrv) atoms = NULL;
  GnnModule *mod = self;

  if (path_len == 0)
    return self;
  atoms = g_strsplit (copy, ".", -1);
  for (guint i = 0; atoms[i] != NULL; i++)
    {
      GnnModulePrivate *priv = gnn_module_priv (mod);
      GObject *child;

      if (find_kind (priv, atoms[i]) == GNN_MAP_NONE)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "%s has no attribute `%s`", gnn_module_get_name (mod), atoms[i]);
          return NULL;
        }
      child = gnn_module_get_child (mod, atoms[i], NULL);
      if (child == NULL || !GNN_IS_MODULE (child))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "`%s` is not an nn.Module", atoms[i]);
          return NULL;
        }
      mod = GNN_MODULE (child);
    }
  return mod;
}

/**
 * gnn_module_get_submodule:
 * @self: a module
 * @path: a dotted path such as `"encoder.layers.0"`; `""` is @self
 * @error: return location for a #GError
 *
 * Finds the module at @path, like `get_submodule`.
 *
 * Returns: (transfer none): the module, or %NULL with @error set
 *   ("GnnNet has no attribute `x`", "`x` is not an nn.Module")
 */
GnnModule *
gnn_module_get_submodule (GnnModule  *self,
                          const char *path,
                          GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  return lookup_submodule (self, path, strlen (path), error);
}

/* Splits @path at its last dot into the owning module and the last atom. */
static GnnModule *
lookup_owner (GnnModule   *self,
              const char  *path,
              const char **last,
              GError     **error)
{
  const char *dot = strrchr (path, '.');
  GnnModule *mod;

  mod = lookup_submodule (self, path, dot != NULL ? (gsize) (dot - path) : 0, error);
  *last = dot != NULL ? dot + 1 : path;
  if (mod != NULL && find_kind (gnn_module_priv (mod), *last) == GNN_MAP_NONE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                   "%s has no attribute `%s`", gnn_module_get_name (mod), *last);
      return NULL;
    }
  return mod;
}

/**
 * gnn_module_get_parameter:
 * @self: a module
 * @path: a dotted path such as `"encoder.fc.weight"`
 * @error: return location for a #GError
 *
 * Finds the parameter at @path, like `get_parameter`.
 *
 * Returns: (transfer none): the parameter, or %NULL with @error set
 *   ("`x` is not an nn.Parameter" if @path names something else or an empty
 *   slot)
 */
GnnParameter *
gnn_module_get_parameter (GnnModule  *self,
                          const char *path,
                          GError    **error)
{
  const char *last;
  GnnModule *mod;
  GObject *child;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  mod = lookup_owner (self, path, &last, error);
  if (mod == NULL)
    return NULL;
  child = gnn_module_get_child (mod, last, NULL);
  if (child == NULL || !GNN_IS_PARAMETER (child))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "`%s` is not an nn.Parameter", last);
      return NULL;
    }
  return GNN_PARAMETER (child);
}

/**
 * gnn_module_get_buffer:
 * @self: a module
 * @path: a dotted path such as `"bn.running_mean"`
 * @error: return location for a #GError
 *
 * Finds the buffer at @path, like `get_buffer`.
 *
 * Returns: (transfer none) (nullable): the buffer (%NULL for an empty
 *   buffer slot), or %NULL with @error set ("`x` is not a buffer")
 */
GnnTensor *
gnn_module_get_buffer (GnnModule  *self,
                       const char *path,
                       GError    **error)
{
  const char *last;
  GnnModule *mod;
  GnnMapEntry *entry;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  mod = lookup_owner (self, path, &last, error);
  if (mod == NULL)
    return NULL;
  entry = gnn_ordered_map_lookup (&gnn_module_priv (mod)->maps[GNN_MAP_BUFFERS], last);
  if (entry == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "`%s` is not a buffer", last);
      return NULL;
    }
  return (GnnTensor *) entry->value;
}

/* --- mixins -------------------------------------------------------------- */

typedef struct
{
  GType            iface_type;
  GnnMixinInitFunc init;
  gpointer         user_data;
  GDestroyNotify   destroy;   /* kept for the binding; mixins live forever */
} MixinRegistration;

/* Per final type: the registrations to run, in order, for one generation of
 * the mixin table. */
typedef struct
{
  guint      generation;
  GPtrArray *inits;   /* MixinRegistration* (never freed) */
} MixinPlan;

GNN_FORK_SAFE_MUTEX (mixin_lock);
static GHashTable *mixin_table;   /* GType → MixinRegistration* */
static guint mixin_generation;

static inline GQuark
mixin_plan_quark (void)
{
  return quark_mixin_plan;
}

/**
 * gnn_mixin_register:
 * @iface_type: a GInterface type whose prerequisite is [class@Gnn.Module]
 * @init: (scope notified) (closure user_data) (destroy destroy): the
 *   per-instance init of the mixin
 * @user_data: data for @init
 * @destroy: (nullable): never called: a mixin stays registered for the
 *   life of the process
 *
 * Registers the per-instance init of a mixin interface, typically from the
 * interface's default_init. Every module whose type implements
 * @iface_type runs @init exactly once, from [class@Gnn.Module]'s instance
 * init, after the registry exists.
 *
 * Order: the interfaces of each class of the hierarchy, from
 * [class@Gnn.Module] down to the final type; within a class by interface
 * name; each interface after its prerequisites; each once, even when it is
 * reached through several paths (a diamond). There is no public re-init.
 */
void
gnn_mixin_register (GType            iface_type,
                    GnnMixinInitFunc init,
                    gpointer         user_data,
                    GDestroyNotify   destroy)
{
  MixinRegistration *reg;

  g_return_if_fail (G_TYPE_IS_INTERFACE (iface_type));
  g_return_if_fail (init != NULL);

  g_mutex_lock (&mixin_lock);
  if (mixin_table == NULL)
    mixin_table = g_hash_table_new (NULL, NULL);
  if (g_hash_table_contains (mixin_table, GSIZE_TO_POINTER (iface_type)))
    {
      g_mutex_unlock (&mixin_lock);
      g_critical ("mixin %s is already registered", g_type_name (iface_type));
      return;
    }
  reg = g_new0 (MixinRegistration, 1);
  reg->iface_type = iface_type;
  reg->init = init;
  reg->user_data = user_data;
  reg->destroy = destroy;
  g_hash_table_insert (mixin_table, GSIZE_TO_POINTER (iface_type), reg);
  mixin_generation++;
  g_mutex_unlock (&mixin_lock);
}

static int
compare_type_names (gconstpointer a,
                    gconstpointer b)
{
  return strcmp (g_type_name (*(const GType *) a), g_type_name (*(const GType *) b));
}

static void
plan_visit (GType       iface,
            GHashTable *visited,
            GPtrArray  *inits)
{
  g_autofree GType *prereqs = NULL;
  MixinRegistration *reg;
  guint n = 0;

  if (!g_hash_table_add (visited, GSIZE_TO_POINTER (iface)))
    return;
  prereqs = g_type_interface_prerequisites (iface, &n);
  qsort (prereqs, n, sizeof (GType), compare_type_names);
  for (guint i = 0; i < n; i++)
    if (G_TYPE_IS_INTERFACE (prereqs[i]))
      plan_visit (prereqs[i], visited, inits);
  reg = g_hash_table_lookup (mixin_table, GSIZE_TO_POINTER (iface));
  if (reg != NULL)
    g_ptr_array_add (inits, reg);
}

/* Called with mixin_lock held. */
static GPtrArray *
plan_build (GType final_type)
{
  g_autoptr(GHashTable) visited = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (GType));
  GPtrArray *inits = g_ptr_array_new ();

  for (GType t = final_type; t != 0; t = g_type_parent (t))
    {
      g_array_prepend_val (chain, t);
      if (t == GNN_TYPE_MODULE)
        break;
    }
  for (guint c = 0; c < chain->len; c++)
    {
      guint n = 0;
      g_autofree GType *ifaces = g_type_interfaces (g_array_index (chain, GType, c), &n);

      qsort (ifaces, n, sizeof (GType), compare_type_names);
      for (guint i = 0; i < n; i++)
        plan_visit (ifaces[i], visited, inits);
    }
  return inits;
}

static void
gnn_module_init_mixins (GnnModule *self,
                        GType      final_type)
{
  g_autoptr(GPtrArray) inits = NULL;
  MixinPlan *plan;

  g_mutex_lock (&mixin_lock);
  if (mixin_table == NULL)
    {
      g_mutex_unlock (&mixin_lock);
      return;
    }
  plan = g_type_get_qdata (final_type, mixin_plan_quark ());
  if (plan == NULL)
    {
      plan = g_new0 (MixinPlan, 1);   /* lives as long as the type */
      g_type_set_qdata (final_type, mixin_plan_quark (), plan);
    }
  if (plan->inits == NULL || plan->generation != mixin_generation)
    {
      g_clear_pointer (&plan->inits, g_ptr_array_unref);
      plan->inits = plan_build (final_type);
      plan->generation = mixin_generation;
    }
  inits = g_ptr_array_ref (plan->inits);
  g_mutex_unlock (&mixin_lock);

  /* Outside the lock: an init may create other modules. */
  for (guint i = 0; i < inits->len; i++)
    {
      MixinRegistration *reg = g_ptr_array_index (inits, i);
      reg->init (self, reg->user_data);
    }
}

/* --- GObject ------------------------------------------------------------- */

/* Handles that outlive the module report its hooks as inactive. */
static void
hook_list_retire (GPtrArray **list)
{
  if (*list == NULL)
    return;
  for (guint i = 0; i < (*list)->len; i++)
    ((GnnHook *) g_ptr_array_index (*list, i))->removed = TRUE;
  g_clear_pointer (list, g_ptr_array_unref);
}

static void
gnn_module_dispose (GObject *object)
{
  GnnModulePrivate *priv = gnn_module_priv (GNN_MODULE (object));

  /* Drop the children (they may refer back to hooks' data) but keep the
   * maps so a late access after dispose still finds a registry. */
  for (int k = 0; k < GNN_N_MAPS; k++)
    if (priv->maps[k].entries != NULL)
      {
        if (priv->maps[k].index != NULL)
          g_hash_table_remove_all (priv->maps[k].index);
        g_ptr_array_set_size (priv->maps[k].entries, 0);
      }
  hook_list_retire (&priv->pre_hooks);
  hook_list_retire (&priv->hooks);

  G_OBJECT_CLASS (gnn_module_parent_class)->dispose (object);
}

static void
gnn_module_finalize (GObject *object)
{
  GnnModulePrivate *priv = gnn_module_priv (GNN_MODULE (object));

  for (int k = 0; k < GNN_N_MAPS; k++)
    ordered_map_clear (&priv->maps[k]);
  g_clear_pointer (&priv->non_persistent, g_hash_table_unref);

  G_OBJECT_CLASS (gnn_module_parent_class)->finalize (object);
}

static void
gnn_module_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  GnnModule *self = GNN_MODULE (object);

  switch (prop_id)
    {
    case PROP_TRAINING:
      g_value_set_boolean (value, gnn_module_priv (self)->training);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_module_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  GnnModule *self = GNN_MODULE (object);
  GnnModulePrivate *priv = gnn_module_priv (self);

  switch (prop_id)
    {
    case PROP_TRAINING:
      if (priv->training != g_value_get_boolean (value))
        {
          priv->training = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_module_class_init (GnnModuleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  quark_slot_class_info = g_quark_from_static_string ("gnn-module-slot-class-info");
  quark_slot_name = g_quark_from_static_string ("gnn-module-slot-name");
  quark_mixin_plan = g_quark_from_static_string ("gnn-module-mixin-plan");

  object_class->dispose = gnn_module_dispose;
  object_class->finalize = gnn_module_finalize;
  object_class->get_property = gnn_module_get_property;
  object_class->set_property = gnn_module_set_property;

  /**
   * GnnModule:training:
   *
   * Whether the module is in training mode (PyTorch's `self.training`).
   * Setting the property changes only this module;
   * [method@Gnn.Module.train] and [method@Gnn.Module.eval] change the whole
   * tree.
   */
  properties[PROP_TRAINING] =
    g_param_spec_boolean ("training", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnModule::child-added:
   * @self: the module
   * @name: the child's name
   * @child: the parameter, buffer or module now registered under @name
   *
   * Emitted after a value is registered (a new name, or a new value for an
   * existing name). Not emitted for empty (%NULL) slots.
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
   */
  signals[SIGNAL_CHILD_REMOVED] =
    g_signal_new ("child-removed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_FIRST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_OBJECT);
}

/* The only place the registry is created: before any subclass init, mixin
 * init or construct property can touch it. */
static void
gnn_module_init (GnnModule *self,
                 gpointer   g_class)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  GType final_type = G_TYPE_FROM_CLASS (g_class);

  priv->final_class = g_class;
  for (int k = 0; k < GNN_N_MAPS; k++)
    ordered_map_init (&priv->maps[k]);
  priv->non_persistent = NULL;   /* created by the first non-persistent buffer */
  priv->training = TRUE;

  gnn_module_wrap_slot_classes (final_type);
  gnn_module_init_mixins (self, final_type);
}
