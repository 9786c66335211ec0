/* gnn-multi-step-lr.c: learning rate decayed by gamma at each milestone
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnMultiStepLR:
 *
 * Multiplies each group's learning rate by [property@Gnn.MultiStepLR:gamma]
 * when the epoch reaches one of [property@Gnn.MultiStepLR:milestones] (by
 * `gamma ** k` for a milestone listed k times), like PyTorch 1.13's
 * `torch.optim.lr_scheduler.MultiStepLR`; the closed form
 * `base_lr * gamma ** bisect_right(sorted(milestones), epoch)` serves
 * [method@Gnn.LRScheduler.step_to_epoch].
 *
 * Since: 0.1
 */
struct _GnnMultiStepLR
{
  GnnLRScheduler parent_instance;
};

enum {
  PROP_MILESTONES,
  PROP_GAMMA,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnMultiStepLR, gnn_multi_step_lr, GNN_TYPE_LR_SCHEDULER)

static const gint64 *
milestones (GnnLRScheduler *self,
            gsize          *n)
{
  GVariant *v = gnn_optim_prop_variant (self, GNN_TYPE_MULTI_STEP_LR, PROP_MILESTONES);

  *n = 0;
  return v != NULL ? g_variant_get_fixed_array (v, n, sizeof (gint64)) : NULL;
}

static gboolean
gnn_multi_step_lr_get_lr (GnnLRScheduler  *self,
                          double          *lrs,
                          GError         **error)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self);
  double gamma = gnn_optim_prop_double (self, GNN_TYPE_MULTI_STEP_LR, PROP_GAMMA);
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  gsize n;
  const gint64 *m = milestones (self, &n);
  gint64 count = 0;

  (void) error;
  for (gsize i = 0; i < n; i++)
    count += m[i] == epoch;
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = count == 0 ? gnn_optimizer_get_group_lr (opt, g)
                        : gnn_optimizer_get_group_lr (opt, g) * pow (gamma, (double) count);
  return TRUE;
}

static void
gnn_multi_step_lr_get_closed_form_lr (GnnLRScheduler *self,
                                      double         *lrs)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self);
  double gamma = gnn_optim_prop_double (self, GNN_TYPE_MULTI_STEP_LR, PROP_GAMMA);
  const double *base = gnn_lr_scheduler_base_lrs (self);
  gsize n;
  const gint64 *m = milestones (self, &n);
  gint64 passed = 0;

  /* bisect_right over the sorted milestones: how many are <= epoch */
  for (gsize i = 0; i < n; i++)
    passed += m[i] <= epoch;
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = base[g] * pow (gamma, (double) passed);
}

static void
gnn_multi_step_lr_class_init (GnnMultiStepLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->get_lr = gnn_multi_step_lr_get_lr;
  scheduler_class->get_closed_form_lr = gnn_multi_step_lr_get_closed_form_lr;

  /**
   * GnnMultiStepLR:milestones:
   *
   * The epochs at which the rate decays, a variant of type `ax` (PyTorch
   * counts them: an epoch listed twice decays twice).
   *
   * Since: 0.1
   */
  properties[PROP_MILESTONES] = gnn_optim_variant_property ("milestones", "ax", NULL);
  /**
   * GnnMultiStepLR:gamma:
   *
   * The factor applied at each milestone.
   *
   * Since: 0.1
   */
  properties[PROP_GAMMA] = gnn_optim_double_property ("gamma", 0.1);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_multi_step_lr_init (GnnMultiStepLR *self)
{
  (void) self;
}

/**
 * gnn_multi_step_lr_new:
 * @optimizer: the optimizer to schedule
 * @milestones: (array length=n_milestones): the epochs at which to decay
 * @n_milestones: the number of milestones
 * @gamma: the decay factor (PyTorch's default: 0.1)
 * @error: return location for a #GError
 *
 * Creates a multi-step schedule, like `MultiStepLR(optimizer, milestones,
 * gamma)`, and takes its initial step.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnMultiStepLR *
gnn_multi_step_lr_new (GnnOptimizer  *optimizer,
                       const gint64  *milestones,
                       gsize          n_milestones,
                       double         gamma,
                       GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_MULTI_STEP_LR, NULL, error, "optimizer", optimizer,
                         "milestones", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, milestones,
                                                                  n_milestones, sizeof (gint64)),
                         "gamma", gamma, NULL);
}
