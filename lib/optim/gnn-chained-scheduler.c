/* gnn-chained-scheduler.c: schedulers that all step at once
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnChainedScheduler:
 *
 * PyTorch 1.13's `torch.optim.lr_scheduler.ChainedScheduler`: each step
 * steps every scheduler in [property@Gnn.ChainedScheduler:schedulers], in
 * order, so their chainable rates compose (a warm-up times a decay). The
 * optimizer is theirs; like PyTorch's it takes no initial step of its own.
 * Its state dict nests theirs.
 *
 * Since: 0.1
 */
struct _GnnChainedScheduler
{
  GnnLRScheduler  parent_instance;
  GPtrArray      *children;
};

enum {
  PROP_SCHEDULERS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnChainedScheduler, gnn_chained_scheduler, GNN_TYPE_LR_SCHEDULER)

#define SELF(s) ((GnnChainedScheduler *) (s))

static GListModel *
schedulers (gpointer self)
{
  return gnn_optim_prop_object (self, GNN_TYPE_CHAINED_SCHEDULER, PROP_SCHEDULERS);
}

static void
gnn_chained_scheduler_finalize (GObject *object)
{
  g_clear_pointer (&SELF (object)->children, g_ptr_array_unref);
  G_OBJECT_CLASS (gnn_chained_scheduler_parent_class)->finalize (object);
}

/* The optimizer is the schedulers' (set before the base class initializes). */
static void
gnn_chained_scheduler_constructed (GObject *object)
{
  GListModel *list = schedulers (object);
  GnnLRScheduler *self = GNN_LR_SCHEDULER (object);

  if (gnn_lr_scheduler_get_optimizer (self) == NULL && list != NULL &&
      g_list_model_get_n_items (list) > 0)
    {
      g_autoptr (GObject) first = g_list_model_get_item (list, 0);

      if (GNN_IS_LR_SCHEDULER (first))
        gnn_lr_scheduler_set_optimizer (self, gnn_lr_scheduler_get_optimizer (GNN_LR_SCHEDULER (first)));
    }
  G_OBJECT_CLASS (gnn_chained_scheduler_parent_class)->constructed (object);
}

static gboolean
gnn_chained_scheduler_initialize (GnnLRScheduler  *self,
                                  GError         **error)
{
  g_autoptr (GPtrArray) children = gnn_lr_scheduler_children (schedulers (self), "ChainedScheduler",
                                                              error);

  if (children == NULL)
    return FALSE;
  if (children->len == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "ChainedScheduler needs at least one scheduler");
      return FALSE;
    }
  for (guint i = 0; i < children->len; i++)
    if (gnn_lr_scheduler_get_optimizer (children->pdata[i]) != gnn_lr_scheduler_get_optimizer (self))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "ChainedScheduler expects all schedulers to belong to the same optimizer, but "
                     "got schedulers at index %u and %u to be different", 0, i);
        return FALSE;
      }
  gnn_lr_scheduler_record_last_lrs (self);
  g_clear_pointer (&SELF (self)->children, g_ptr_array_unref);
  SELF (self)->children = g_steal_pointer (&children);
  return TRUE;
}

static gboolean
gnn_chained_scheduler_step (GnnLRScheduler  *self,
                            const double    *epoch,
                            GError         **error)
{
  GPtrArray *children = SELF (self)->children;

  if (epoch != NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "ChainedScheduler.step() takes no epoch");
      return FALSE;
    }
  for (guint i = 0; children != NULL && i < children->len; i++)
    if (!gnn_lr_scheduler_step (children->pdata[i], error))
      return FALSE;
  gnn_lr_scheduler_record_last_lrs (self);
  return TRUE;
}

static void
gnn_chained_scheduler_save_state (GnnLRScheduler *self,
                                  GnnStateDict   *sd)
{
  gnn_lr_scheduler_save_children (SELF (self)->children, sd);
}

static gboolean
gnn_chained_scheduler_load_state (GnnLRScheduler  *self,
                                  GnnStateDict    *sd,
                                  GError         **error)
{
  return gnn_lr_scheduler_load_children (SELF (self)->children, sd, error);
}

static void
gnn_chained_scheduler_class_init (GnnChainedSchedulerClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  G_OBJECT_CLASS (klass)->finalize = gnn_chained_scheduler_finalize;
  G_OBJECT_CLASS (klass)->constructed = gnn_chained_scheduler_constructed;
  scheduler_class->initialize = gnn_chained_scheduler_initialize;
  scheduler_class->step = gnn_chained_scheduler_step;
  scheduler_class->save_state = gnn_chained_scheduler_save_state;
  scheduler_class->load_state = gnn_chained_scheduler_load_state;

  /**
   * GnnChainedScheduler:schedulers:
   *
   * The schedulers, stepped in order: a [iface@Gio.ListModel] of
   * [class@Gnn.LRScheduler]s of one optimizer.
   *
   * Since: 0.1
   */
  properties[PROP_SCHEDULERS] = gnn_optim_object_property ("schedulers", G_TYPE_LIST_MODEL);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_chained_scheduler_init (GnnChainedScheduler *self)
{
  (void) self;
}

/**
 * gnn_chained_scheduler_new:
 * @schedulers: (array length=n_schedulers): the schedulers, of one optimizer
 * @n_schedulers: the number of schedulers
 * @error: return location for a #GError
 *
 * Steps schedulers together, like `ChainedScheduler(schedulers)`.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnChainedScheduler *
gnn_chained_scheduler_new (GnnLRScheduler **schedulers,
                           guint            n_schedulers,
                           GError         **error)
{
  g_autoptr (GListStore) list = g_list_store_new (GNN_TYPE_LR_SCHEDULER);

  for (guint i = 0; i < n_schedulers; i++)
    g_list_store_append (list, schedulers[i]);
  return g_initable_new (GNN_TYPE_CHAINED_SCHEDULER, NULL, error, "schedulers", list, NULL);
}
