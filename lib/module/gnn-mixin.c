/* gnn-mixin.c: mixin interfaces, GInterfaces with a per-instance init that
 * GnnModule's instance init runs once per instance
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "module/gnn-module-private.h"
#include "core/gnn-fork-private.h"

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

G_DEFINE_QUARK (gnn-module-mixin-plan, mixin_plan)

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
 *
 * [func@Gnn.DEFINE_MIXIN] writes the interface type and this registration.
 *
 * Since: 0.1
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

void
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
