/* gnn-exponential-lr.c: learning rate decayed by gamma every epoch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnExponentialLR:
 *
 * Multiplies each group's learning rate by [property@Gnn.ExponentialLR:gamma]
 * every epoch, like PyTorch 1.13's `torch.optim.lr_scheduler.ExponentialLR`
 * (closed form `base_lr * gamma ** epoch`).
 *
 * Since: 0.1
 */
struct _GnnExponentialLR
{
  GnnLRScheduler parent_instance;
};

enum {
  PROP_GAMMA,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnExponentialLR, gnn_exponential_lr, GNN_TYPE_LR_SCHEDULER)

static gboolean
gnn_exponential_lr_get_lr (GnnLRScheduler  *self,
                           double          *lrs,
                           GError         **error)
{
  double gamma = gnn_optim_prop_double (self, GNN_TYPE_EXPONENTIAL_LR, PROP_GAMMA);
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);

  (void) error;
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = gnn_lr_scheduler_get_last_epoch (self) == 0 ? gnn_optimizer_get_group_lr (opt, g)
                                                         : gnn_optimizer_get_group_lr (opt, g) * gamma;
  return TRUE;
}

static void
gnn_exponential_lr_get_closed_form_lr (GnnLRScheduler *self,
                                       double         *lrs)
{
  double gamma = gnn_optim_prop_double (self, GNN_TYPE_EXPONENTIAL_LR, PROP_GAMMA);
  double epoch = (double) gnn_lr_scheduler_get_last_epoch (self);
  const double *base = gnn_lr_scheduler_base_lrs (self);

  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = base[g] * pow (gamma, epoch);
}

static void
gnn_exponential_lr_class_init (GnnExponentialLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->get_lr = gnn_exponential_lr_get_lr;
  scheduler_class->get_closed_form_lr = gnn_exponential_lr_get_closed_form_lr;

  /**
   * GnnExponentialLR:gamma:
   *
   * The factor applied every epoch (required in PyTorch; 0.1 here).
   *
   * Since: 0.1
   */
  properties[PROP_GAMMA] = gnn_optim_double_property ("gamma", 0.1);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_exponential_lr_init (GnnExponentialLR *self)
{
  (void) self;
}

/**
 * gnn_exponential_lr_new:
 * @optimizer: the optimizer to schedule
 * @gamma: the decay factor
 * @error: return location for a #GError
 *
 * Creates an exponential schedule, like `ExponentialLR(optimizer, gamma)`,
 * and takes its initial step.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnExponentialLR *
gnn_exponential_lr_new (GnnOptimizer  *optimizer,
                        double         gamma,
                        GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_EXPONENTIAL_LR, NULL, error, "optimizer", optimizer,
                         "gamma", gamma, NULL);
}
