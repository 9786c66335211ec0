/* gnn-module-slots.c: child slots, GObject properties whose values live in
 * the module registry
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A class that installs slots has its set_property/get_property taken over
 * by a dispatcher: slot pspecs (marked with qdata) go to the registry, every
 * other pspec to the class's own functions, remembered per class.
 *
 * A class written in JavaScript declares its slots as ordinary GJS
 * `Properties` (object properties of a module, parameter or tensor type).
 * GJS gives each one JavaScript accessors that keep the value in the JS
 * object and call notify(), which C never sees; so at the class's first
 * instance these pspecs become "foreign" slots: C reads and writes the
 * registry as for any slot, a JS assignment reaches the registry through
 * its notify (dispatch_properties_changed), and a registry change is
 * written back into the JS object through GJS's own set_property.
 */
#include <string.h>

#include "module/gnn-module-private.h"
#include "core/gnn-bindings-private.h"
#include "core/gnn-fork-private.h"

/* Per class that installed slots. */
typedef struct
{
  GObjectSetPropertyFunc own_set;
  GObjectGetPropertyFunc own_get;
  gboolean               foreign;   /* a JavaScript class (adopt_foreign_slots) */
  /* JavaScript classes: the dispatch_properties_changed it had */
  void                 (*own_dispatch) (GObject *object, guint n_pspecs, GParamSpec **pspecs);
  guint                  n_slots;   /* slot property ids are per class */
  gint                   wrapped;   /* atomic: own functions re-checked */
} SlotClassInfo;

/* Slot ids start high so they never meet a class's own PROP_* ids (the
 * dispatcher routes by pspec, so ids only need to be distinct per class). */
#define SLOT_ID_BASE (1u << 20)

GNN_FORK_SAFE_MUTEX (slot_lock);

G_DEFINE_QUARK (gnn-module-slot-class-info, slot_class_info)
G_DEFINE_QUARK (gnn-module-slot-name, slot_name)

/* Slot pspecs also carry this user flag, so the frequent question "is this
 * pspec a slot?" (every property set of a slot class, every registration)
 * is a bit test instead of a qdata lookup. */
#define SLOT_PARAM_FLAG (1u << G_PARAM_USER_SHIFT)
/* ...and a foreign slot (declared by a JavaScript class) this one too. */
#define SLOT_FOREIGN_FLAG (1u << (G_PARAM_USER_SHIFT + 1))

static inline const char *
slot_name_of (GParamSpec *pspec)
{
  if ((pspec->flags & SLOT_PARAM_FLAG) == 0)
    return NULL;
  return g_param_spec_get_qdata (pspec, slot_name_quark ());
}

/* The SlotClassInfo of @type, cached per thread: construction sets several
 * properties of the same class in a row. Infos are never freed. */
static SlotClassInfo *
slot_class_info (GType type)
{
  static _Thread_local GType cached_type;
  static _Thread_local SlotClassInfo *cached_info;

  if (type != cached_type || cached_info == NULL)
    {
      cached_info = g_type_get_qdata (type, slot_class_info_quark ());
      cached_type = type;
    }
  return cached_info;
}

static void
slot_dispatch_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  const char *slot = slot_name_of (pspec);
  SlotClassInfo *info;

  if (slot != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!gnn_module_set_child (GNN_MODULE (object), slot,
                                 g_value_get_object (value), &error))
        g_warning ("%s", error->message);
      return;
    }
  info = slot_class_info (pspec->owner_type);
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
  const char *slot = slot_name_of (pspec);
  SlotClassInfo *info;

  if (slot != NULL)
    {
      GnnModule *self = GNN_MODULE (object);

      g_value_set_object (value, gnn_module_has_child (self, slot)
                                 ? gnn_module_get_child (self, slot, NULL) : NULL);
      return;
    }
  info = slot_class_info (pspec->owner_type);
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
 *
 * Since: 0.1
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
  prop_id = SLOT_ID_BASE + info->n_slots++;
  g_mutex_unlock (&slot_lock);

  pspec = g_param_spec_object (name, NULL, NULL, child_type,
                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                               G_PARAM_STATIC_NICK | G_PARAM_STATIC_BLURB | SLOT_PARAM_FLAG);
  g_param_spec_set_qdata_full (pspec, slot_name_quark (), g_strdup (name), g_free);
  g_object_class_install_property (object_class, prop_id, pspec);
}

static void foreign_slots_dispatch (GObject *object, guint n_pspecs, GParamSpec **pspecs);

/* Whether @pspec, owned by a JavaScript class, is a child slot: a
 * read-write object property of a module, parameter or tensor type. */
static gboolean
is_foreign_slot_candidate (GParamSpec *pspec,
                           GType       owner)
{
  GParamFlags rw = G_PARAM_READABLE | G_PARAM_WRITABLE;

  return pspec->owner_type == owner && (pspec->flags & rw) == rw &&
         !(pspec->flags & (G_PARAM_CONSTRUCT_ONLY | SLOT_PARAM_FLAG)) &&
         G_IS_PARAM_SPEC_OBJECT (pspec) &&
         (g_type_is_a (pspec->value_type, GNN_TYPE_MODULE) ||
          g_type_is_a (pspec->value_type, GNN_TYPE_TENSOR));
}

/* Marks the slot properties GJS installed on @type as foreign slots and
 * takes over the class's property functions when there are any. Called
 * with slot_lock held, once per JavaScript class. */
static SlotClassInfo *
adopt_foreign_slots (GType type)
{
  GObjectClass *klass = g_type_class_peek (type);
  g_autofree GParamSpec **pspecs = NULL;
  SlotClassInfo *info = g_new0 (SlotClassInfo, 1);   /* lives as long as the type */
  guint n_pspecs = 0;

  pspecs = g_object_class_list_properties (klass, &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    {
      GParamSpec *pspec = pspecs[i];
      char *name;

      if (!is_foreign_slot_candidate (pspec, type))
        continue;
      /* registry names are torch's: "my_fc" for the property "my-fc" */
      name = g_strdelimit (g_strdup (pspec->name), "-", '_');
      g_param_spec_set_qdata_full (pspec, slot_name_quark (), name, g_free);
      pspec->flags |= SLOT_PARAM_FLAG | SLOT_FOREIGN_FLAG;
      info->n_slots++;
    }
  if (info->n_slots > 0)
    slot_class_take_over (klass, info);
  info->wrapped = TRUE;
  info->foreign = TRUE;
  g_type_set_qdata (type, slot_class_info_quark (), info);
  return info;
}

/* Notifications reach dispatch_properties_changed of the instance's own
 * class: a JavaScript class with foreign slots of its own or inherited
 * gets foreign_slots_dispatch there. Called with slot_lock held. */
static void
take_over_dispatch (GType final_type)
{
  GObjectClass *klass = g_type_class_peek (final_type);
  SlotClassInfo *info = g_type_get_qdata (final_type, slot_class_info_quark ());

  if (klass->dispatch_properties_changed == foreign_slots_dispatch)
    return;
  if (info == NULL)   /* a class derived from a JavaScript one without slots of its own */
    {
      info = g_new0 (SlotClassInfo, 1);   /* lives as long as the type */
      info->wrapped = TRUE;
      g_type_set_qdata (final_type, slot_class_info_quark (), info);
    }
  info->own_dispatch = klass->dispatch_properties_changed;
  klass->dispatch_properties_changed = foreign_slots_dispatch;
}

/* A class may have assigned its own set_property/get_property after
 * installing slots, so take over again at its first instance; a
 * JavaScript class's slot properties become foreign slots then. */
void
gnn_module_wrap_slot_classes (GType final_type)
{
  gboolean foreign = FALSE;

  for (GType t = final_type; t != GNN_TYPE_MODULE && t != 0; t = g_type_parent (t))
    {
      SlotClassInfo *info = g_type_get_qdata (t, slot_class_info_quark ());

      if (info == NULL && gnn_type_is_own_javascript (t))
        {
          g_mutex_lock (&slot_lock);
          info = g_type_get_qdata (t, slot_class_info_quark ());
          if (info == NULL)
            info = adopt_foreign_slots (t);
          g_mutex_unlock (&slot_lock);
        }
      if (info != NULL && info->foreign)
        foreign |= info->n_slots > 0;
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
  if (foreign && G_OBJECT_CLASS (g_type_class_peek (final_type))->dispatch_properties_changed !=
                 foreign_slots_dispatch)
    {
      g_mutex_lock (&slot_lock);
      take_over_dispatch (final_type);
      g_mutex_unlock (&slot_lock);
    }
}

/* The registered value of @slot changed: notify, or for a foreign slot
 * write it into the JavaScript object (whose setter notifies when the
 * value is new to it). */
void
gnn_module_slot_changed (GnnModule  *self,
                         GParamSpec *slot)
{
  SlotClassInfo *info;
  GValue value = G_VALUE_INIT;
  const char *name;

  info = (slot->flags & SLOT_FOREIGN_FLAG) ? slot_class_info (slot->owner_type) : NULL;
  if (info == NULL || info->own_set == NULL)
    {
      g_object_notify_by_pspec (G_OBJECT (self), slot);
      return;
    }
  name = slot_name_of (slot);
  g_value_init (&value, slot->value_type);
  g_value_set_object (&value, gnn_module_has_child (self, name)
                              ? gnn_module_get_child (self, name, NULL) : NULL);
  info->own_set (G_OBJECT (self), slot->param_id, &value, slot);
  g_value_unset (&value);
}

/* The dispatch_properties_changed of a JavaScript class with slots: a
 * foreign slot notified by its JavaScript setter brings the value it now
 * holds into the registry. A value the registry rejects is reported with
 * g_warning() (as a rejected slot property set is) and the JavaScript
 * object gets the registered value back. */
static void
foreign_slots_dispatch (GObject     *object,
                        guint        n_pspecs,
                        GParamSpec **pspecs)
{
  GnnModule *self = GNN_MODULE (object);
  SlotClassInfo *own = NULL;

  /* the class that took over (a subclass may have copied the function) */
  for (GType t = G_OBJECT_TYPE (object); own == NULL; t = g_type_parent (t))
    {
      own = g_type_get_qdata (t, slot_class_info_quark ());
      if (own != NULL && own->own_dispatch == NULL)
        own = NULL;
    }

  for (guint i = 0; i < n_pspecs; i++)
    {
      GParamSpec *slot = pspecs[i];
      g_autoptr(GError) error = NULL;
      GValue value = G_VALUE_INIT;
      const char *name;
      GObject *held, *registered;

      if (!(slot->flags & SLOT_FOREIGN_FLAG))
        continue;
      name = slot_name_of (slot);
      registered = gnn_module_has_child (self, name) ? gnn_module_get_child (self, name, NULL) : NULL;
      /* GJS leaves the value as it is when the JavaScript one does not
       * convert (a Linear in a Parameter property, a number: GJS warns),
       * so that case reads as "unchanged" and the registered value is
       * written back over the JavaScript one */
      g_value_init (&value, slot->value_type);
      g_value_set_object (&value, registered);
      slot_class_info (slot->owner_type)->own_get (G_OBJECT (self), slot->param_id, &value, slot);
      held = g_value_get_object (&value);
      if (held == registered)
        gnn_module_slot_changed (self, slot);   /* a no-op when the copy agrees */
      else if (!gnn_module_set_child (self, name, held, &error))
        {
          g_warning ("%s", error->message);
          gnn_module_slot_changed (self, slot);
        }
      g_value_unset (&value);
    }
  own->own_dispatch (object, n_pspecs, pspecs);
}

/* Every registration asks whether its name is a property of the module's
 * class: g_object_class_find_property() is a locked hash lookup per
 * ancestor (GObject's pointer fast path needs the pspec's own name
 * pointer) and a slot's name a qdata lookup. The answers are kept per
 * thread, a few per class: a class's properties are all installed before
 * its first instance (Gnn's types and PyGObject's are static, never
 * unloaded). */
#define PROPERTY_CACHE_SIZE 32

typedef struct
{
  GObjectClass   *klass;
  GnnNameProperty answer;
  char            name[24];
} PropertyCacheEntry;

/* On the heap: the library's thread-locals must stay small (some are
 * initial-exec, so all of them take static TLS, scarce when Python
 * dlopens the library). */
static GPrivate property_cache_key = G_PRIVATE_INIT (g_free);

static GnnNameProperty
lookup_property (GObjectClass *klass,
                 const char   *name)
{
  GParamSpec *pspec = g_object_class_find_property (klass, name);
  const char *slot = pspec != NULL ? slot_name_of (pspec) : NULL;
  GnnNameProperty answer = { NULL, pspec != NULL && slot == NULL };

  if (slot != NULL && strcmp (slot, name) == 0)
    answer.slot = pspec;
  return answer;
}

GnnNameProperty
gnn_module_lookup_property (GnnModule  *self,
                            const char *name)
{
  static const GnnNameProperty none = { NULL, FALSE };
  PropertyCacheEntry *cache, *e;
  GObjectClass *klass;
  gsize len;

  if (!g_ascii_isalpha (name[0]))   /* no property name starts otherwise ("0", "_x") */
    return none;
  klass = gnn_module_priv (self)->final_class;
  len = strlen (name);
  if (len >= sizeof e->name)
    return lookup_property (klass, name);
  cache = g_private_get (&property_cache_key);
  if (cache == NULL)
    {
      cache = g_new0 (PropertyCacheEntry, PROPERTY_CACHE_SIZE);
      g_private_set (&property_cache_key, cache);
    }
  e = &cache[(((guintptr) klass >> 4) ^ (guchar) name[0] ^ ((guchar) name[len - 1] << 3) ^ len) %
             PROPERTY_CACHE_SIZE];
  if (e->klass != klass || memcmp (e->name, name, len + 1) != 0)
    {
      e->answer = lookup_property (klass, name);
      e->klass = klass;
      memcpy (e->name, name, len + 1);
    }
  return e->answer;
}

GnnMapKind
gnn_module_slot_kind (GParamSpec *slot)
{
  if (g_type_is_a (slot->value_type, GNN_TYPE_MODULE))
    return GNN_MAP_MODULES;
  if (g_type_is_a (slot->value_type, GNN_TYPE_PARAMETER))
    return GNN_MAP_PARAMETERS;
  return GNN_MAP_BUFFERS;
}
