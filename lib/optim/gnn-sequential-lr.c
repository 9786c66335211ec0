/* gnn-sequential-lr.c: schedulers that take turns at milestones
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnSequentialLR:
 *
 * PyTorch 1.13's `torch.optim.lr_scheduler.SequentialLR`: the schedulers
 * in [property@Gnn.SequentialLR:schedulers] take turns, the next one taking
 * over at each of [property@Gnn.SequentialLR:milestones] (restarted with
 * `step_to_epoch (0)`, PyTorch's `step(0)`). Construction resets the groups
 * to their `initial_lr`, moves every scheduler back one epoch and repeats
 * the first one's initial step, as PyTorch does — the schedulers must have
 * been made for the same optimizer just before. Its state dict nests theirs.
 *
 * Since: 0.1
 */
struct _GnnSequentialLR
{
  GnnLRScheduler  parent_instance;
  GPtrArray      *children;
};

enum {
  PROP_SCHEDULERS,
  PROP_MILESTONES,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnSequentialLR, gnn_sequential_lr, GNN_TYPE_LR_SCHEDULER)

#define SELF(s) ((GnnSequentialLR *) (s))

static void
gnn_sequential_lr_finalize (GObject *object)
{
  g_clear_pointer (&SELF (object)->children, g_ptr_array_unref);
  G_OBJECT_CLASS (gnn_sequential_lr_parent_class)->finalize (object);
}

static const gint64 *
milestones (GnnLRScheduler *self,
            gsize          *n)
{
  GVariant *v = gnn_optim_prop_variant (self, GNN_TYPE_SEQUENTIAL_LR, PROP_MILESTONES);

  *n = 0;
  return v != NULL ? g_variant_get_fixed_array (v, n, sizeof (gint64)) : NULL;
}

static gboolean
gnn_sequential_lr_initialize (GnnLRScheduler  *self,
                              GError         **error)
{
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  g_autoptr (GPtrArray) children = NULL;
  g_autofree double *initial = NULL;
  guint n_groups = gnn_optimizer_get_n_param_groups (opt);
  gsize n_milestones;

  children = gnn_lr_scheduler_children (gnn_optim_prop_object (self, GNN_TYPE_SEQUENTIAL_LR,
                                                               PROP_SCHEDULERS),
                                        "SequentialLR", error);
  if (children == NULL)
    return FALSE;
  for (guint i = 0; i < children->len; i++)
    if (gnn_lr_scheduler_get_optimizer (children->pdata[i]) != opt)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "Sequential Schedulers expects all schedulers to belong to the same optimizer, "
                     "but got schedulers at index %u to be different than the optimizer passed in.", i);
        return FALSE;
      }
  milestones (self, &n_milestones);
  if ((gint64) n_milestones != (gint64) children->len - 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Sequential Schedulers expects number of schedulers provided to be one more than "
                   "the number of milestone points, but got number of schedulers %u and the number "
                   "of milestones to be equal to %" G_GSIZE_FORMAT, children->len, n_milestones);
      return FALSE;
    }
  initial = g_new0 (double, MAX (n_groups, 1));
  for (guint g = 0; g < n_groups; g++)
    if (!gnn_optim_group_number (opt, g, "initial_lr", &initial[g], error))
      return FALSE;

  gnn_lr_scheduler_set_position (self, gnn_lr_scheduler_get_initial_last_epoch (self) + 1, 0);
  for (guint g = 0; g < n_groups; g++)
    gnn_optimizer_set_group_lr (opt, g, initial[g]);
  for (guint i = 0; i < children->len; i++)
    gnn_lr_scheduler_set_position (children->pdata[i],
                                   gnn_lr_scheduler_get_last_epoch (children->pdata[i]) - 1,
                                   gnn_lr_scheduler_get_step_count (children->pdata[i]));
  if (!gnn_lr_scheduler_initial_step (children->pdata[0], error))
    return FALSE;
  gnn_lr_scheduler_record_last_lrs (self);
  g_clear_pointer (&SELF (self)->children, g_ptr_array_unref);
  SELF (self)->children = g_steal_pointer (&children);
  return TRUE;
}

/* Python's bisect.bisect_right, probe for probe */
static gsize
bisect_right (const gint64 *a,
              gsize         n,
              gint64        x)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = (lo + hi) / 2;

      if (x < a[mid])
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

static gboolean
gnn_sequential_lr_step (GnnLRScheduler  *self,
                        const double    *epoch,
                        GError         **error)
{
  gint64 last_epoch = gnn_lr_scheduler_get_last_epoch (self) + 1;
  GPtrArray *children = SELF (self)->children;
  GnnLRScheduler *child;
  gsize n, idx;
  const gint64 *m = milestones (self, &n);
  gboolean ok;

  if (epoch != NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "SequentialLR.step() takes no epoch");
      return FALSE;
    }
  idx = bisect_right (m, n, last_epoch);
  if (children == NULL || idx >= children->len)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "SequentialLR: the milestones do not match the schedulers");
      return FALSE;
    }
  child = children->pdata[idx];
  if (idx > 0 && m[idx - 1] == last_epoch)
    ok = gnn_lr_scheduler_step_to_epoch (child, 0, error);
  else
    ok = gnn_lr_scheduler_step (child, error);
  if (!ok)
    return FALSE;
  gnn_lr_scheduler_set_position (self, last_epoch, gnn_lr_scheduler_get_step_count (self));
  gnn_lr_scheduler_record_last_lrs (self);
  return TRUE;
}

static void
gnn_sequential_lr_save_state (GnnLRScheduler *self,
                              GnnStateDict   *sd)
{
  gnn_lr_scheduler_save_children (SELF (self)->children, sd);
}

static gboolean
gnn_sequential_lr_load_state (GnnLRScheduler  *self,
                              GnnStateDict    *sd,
                              GError         **error)
{
  return gnn_lr_scheduler_load_children (SELF (self)->children, sd, error);
}

static void
gnn_sequential_lr_class_init (GnnSequentialLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  G_OBJECT_CLASS (klass)->finalize = gnn_sequential_lr_finalize;
  scheduler_class->initialize = gnn_sequential_lr_initialize;
  scheduler_class->step = gnn_sequential_lr_step;
  scheduler_class->save_state = gnn_sequential_lr_save_state;
  scheduler_class->load_state = gnn_sequential_lr_load_state;

  /**
   * GnnSequentialLR:schedulers:
   *
   * The schedulers, in order: a [iface@Gio.ListModel] of
   * [class@Gnn.LRScheduler]s made for the same optimizer.
   *
   * Since: 0.1
   */
  properties[PROP_SCHEDULERS] = gnn_optim_object_property ("schedulers", G_TYPE_LIST_MODEL);
  /**
   * GnnSequentialLR:milestones:
   *
   * The epochs at which the next scheduler takes over, a variant `ax` (one
   * fewer than the schedulers).
   *
   * Since: 0.1
   */
  properties[PROP_MILESTONES] = gnn_optim_variant_property ("milestones", "ax", NULL);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_sequential_lr_init (GnnSequentialLR *self)
{
  (void) self;
}

/**
 * gnn_sequential_lr_new:
 * @optimizer: the optimizer the schedulers schedule
 * @schedulers: (array length=n_schedulers): the schedulers, in order
 * @n_schedulers: the number of schedulers
 * @milestones: (array length=n_milestones): where each next one takes over
 * @n_milestones: the number of milestones (@n_schedulers - 1)
 * @error: return location for a #GError
 *
 * Chains schedulers in time, like `SequentialLR(optimizer, schedulers,
 * milestones)`.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnSequentialLR *
gnn_sequential_lr_new (GnnOptimizer    *optimizer,
                       GnnLRScheduler **schedulers,
                       guint            n_schedulers,
                       const gint64    *milestones,
                       gsize            n_milestones,
                       GError         **error)
{
  g_autoptr (GListStore) list = g_list_store_new (GNN_TYPE_LR_SCHEDULER);

  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  for (guint i = 0; i < n_schedulers; i++)
    g_list_store_append (list, schedulers[i]);
  return g_initable_new (GNN_TYPE_SEQUENTIAL_LR, NULL, error, "optimizer", optimizer,
                         "schedulers", list,
                         "milestones", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, milestones,
                                                                  n_milestones, sizeof (gint64)),
                         NULL);
}
