/* gnn-module.c: the GnnModule type: instance life cycle and properties
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-private.h"
#include "core/gnn-format-private.h"

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
 * Subclasses implement [vfunc@Gnn.Module.forward] (one tensor in, one out)
 * or [vfunc@Gnn.Module.forward_args] (any arguments, keywords and output,
 * read with [func@Gnn.args_parse]); callers use [method@Gnn.Module.call] or
 * [method@Gnn.Module.call_args], which run the forward hooks.
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_TRAINING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void gnn_module_class_init (GnnModuleClass *klass);
static void gnn_module_init (GnnModule *self,
                             gpointer   g_class);

/* Registered by hand rather than with G_DEFINE_*: the mixin inits must run
 * exactly once per instance, before any subclass init or construct property,
 * and need the instance's final type for that. GnnModule's instance init is
 * the only hook with both properties, and there only its second argument
 * carries the final class: g_type_create_instance() sets instance->g_class
 * to each ancestor's class while that ancestor's init runs, so
 * G_TYPE_FROM_INSTANCE() there yields GnnModule (checked), and G_DEFINE_*
 * declares a one-argument init. `constructed` would be too late (after
 * construct properties) and is skipped by a subclass that does not chain
 * up; a custom `constructor` would take g_object_new() off its fast path. */
static gpointer gnn_module_parent_class;
int gnn_module_private_offset;

static void
gnn_module_class_intern_init (gpointer klass,
                              gpointer class_data)
{
  gnn_module_parent_class = g_type_class_peek_parent (klass);
  g_type_class_adjust_private_offset (klass, &gnn_module_private_offset);
  gnn_module_class_init (klass);
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
      gnn_module_private_offset = g_type_add_instance_private (t, sizeof (GnnModulePrivate));
      g_once_init_leave (&type_id, t);
    }
  return type_id;
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
 *
 * Since: 0.1
 */
const char *
gnn_module_get_name (GnnModule *self)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);

  return gnn_format_type_name (G_OBJECT_CLASS_TYPE (gnn_module_priv (self)->final_class));
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

  /* Drop the children (they may refer back to hooks' data). */
  gnn_module_registry_dispose (GNN_MODULE (object));
  hook_list_retire (&priv->pre_hooks);
  hook_list_retire (&priv->hooks);

  G_OBJECT_CLASS (gnn_module_parent_class)->dispose (object);
}

static void
gnn_module_finalize (GObject *object)
{
  GnnModulePrivate *priv = gnn_module_priv (GNN_MODULE (object));

  for (int k = 0; k < GNN_N_MAPS; k++)
    gnn_ordered_map_clear (&priv->maps[k]);
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
      g_value_set_boolean (value, g_atomic_int_get (&gnn_module_priv (self)->training));
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
      /* atomic: train()/eval() may run in one thread while others read it */
      if (g_atomic_int_exchange (&priv->training, g_value_get_boolean (value)) !=
          g_value_get_boolean (value))
        g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_module_class_init (GnnModuleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

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
   *
   * Since: 0.1
   */
  properties[PROP_TRAINING] =
    g_param_spec_boolean ("training", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gnn_module_registry_class_init (klass);
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
    gnn_ordered_map_init (&priv->maps[k]);
  priv->non_persistent = NULL;   /* created by the first non-persistent buffer */
  priv->training = TRUE;

  gnn_module_wrap_slot_classes (final_type);
  gnn_module_init_mixins (self, final_type);
}
