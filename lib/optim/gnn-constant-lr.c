/* gnn-constant-lr.c: learning rate scaled by a constant factor for a number
 * of epochs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnConstantLR:
 *
 * Scales each group's learning rate by [property@Gnn.ConstantLR:factor]
 * until the epoch reaches [property@Gnn.ConstantLR:total-iters], like
 * PyTorch 1.13's `torch.optim.lr_scheduler.ConstantLR` (chainable: the rate
 * is multiplied by `factor` at epoch 0 and by `1 / factor` at
 * `total_iters`).
 *
 * Since: 0.1
 */
struct _GnnConstantLR
{
  GnnLRScheduler parent_instance;
};

enum {
  PROP_FACTOR,
  PROP_TOTAL_ITERS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnConstantLR, gnn_constant_lr, GNN_TYPE_LR_SCHEDULER)

#define FACTOR(self) gnn_optim_prop_double (self, GNN_TYPE_CONSTANT_LR, PROP_FACTOR)
#define TOTAL_ITERS(self) gnn_optim_prop_int64 (self, GNN_TYPE_CONSTANT_LR, PROP_TOTAL_ITERS)

static gboolean
gnn_constant_lr_validate (GnnLRScheduler  *self,
                          GError         **error)
{
  if (FACTOR (self) > 1.0 || FACTOR (self) < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Constant multiplicative factor expected to be between 0 and 1.");
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_constant_lr_get_lr (GnnLRScheduler  *self,
                        double          *lrs,
                        GError         **error)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self), total = TOTAL_ITERS (self);
  double factor = FACTOR (self);
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);

  (void) error;
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    {
      double lr = gnn_optimizer_get_group_lr (opt, g);

      if (epoch == 0)
        lrs[g] = lr * factor;
      else if (epoch != total)
        lrs[g] = lr;
      else
        lrs[g] = lr * (1.0 / factor);
    }
  return TRUE;
}

static void
gnn_constant_lr_get_closed_form_lr (GnnLRScheduler *self,
                                    double         *lrs)
{
  double factor = FACTOR (self);
  double done = gnn_lr_scheduler_get_last_epoch (self) >= TOTAL_ITERS (self);
  const double *base = gnn_lr_scheduler_base_lrs (self);

  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = base[g] * (factor + done * (1 - factor));
}

static void
gnn_constant_lr_class_init (GnnConstantLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->validate = gnn_constant_lr_validate;
  scheduler_class->get_lr = gnn_constant_lr_get_lr;
  scheduler_class->get_closed_form_lr = gnn_constant_lr_get_closed_form_lr;

  /**
   * GnnConstantLR:factor:
   *
   * The factor applied to the rate until [property@Gnn.ConstantLR:total-iters]
   * (between 0 and 1).
   *
   * Since: 0.1
   */
  properties[PROP_FACTOR] = gnn_optim_double_property ("factor", 1.0 / 3);
  /**
   * GnnConstantLR:total-iters:
   *
   * The number of epochs the factor applies for.
   *
   * Since: 0.1
   */
  properties[PROP_TOTAL_ITERS] = gnn_optim_int64_property ("total-iters", G_MININT64, G_MAXINT64, 5);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_constant_lr_init (GnnConstantLR *self)
{
  (void) self;
}

/**
 * gnn_constant_lr_new:
 * @optimizer: the optimizer to schedule
 * @factor: the factor (PyTorch's default: 1/3)
 * @total_iters: the number of epochs it applies for (default 5)
 * @error: return location for a #GError
 *
 * Creates a constant-factor schedule, like `ConstantLR(optimizer, factor,
 * total_iters)`, and takes its initial step; "Constant multiplicative
 * factor expected to be between 0 and 1." otherwise.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnConstantLR *
gnn_constant_lr_new (GnnOptimizer  *optimizer,
                     double         factor,
                     gint64         total_iters,
                     GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_CONSTANT_LR, NULL, error, "optimizer", optimizer,
                         "factor", factor, "total-iters", total_iters, NULL);
}
