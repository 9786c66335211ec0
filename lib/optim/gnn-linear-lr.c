/* gnn-linear-lr.c: learning rate scaled by a linearly changing factor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnLinearLR:
 *
 * Scales each group's learning rate by a factor that moves linearly from
 * [property@Gnn.LinearLR:start-factor] to [property@Gnn.LinearLR:end-factor]
 * over [property@Gnn.LinearLR:total-iters] epochs (a warm-up), like PyTorch
 * 1.13's `torch.optim.lr_scheduler.LinearLR`, whose chainable form divides
 * each epoch's factor by the previous one.
 *
 * Since: 0.1
 */
struct _GnnLinearLR
{
  GnnLRScheduler parent_instance;
};

enum {
  PROP_START_FACTOR,
  PROP_END_FACTOR,
  PROP_TOTAL_ITERS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnLinearLR, gnn_linear_lr, GNN_TYPE_LR_SCHEDULER)

#define START(self) gnn_optim_prop_double (self, GNN_TYPE_LINEAR_LR, PROP_START_FACTOR)
#define END(self) gnn_optim_prop_double (self, GNN_TYPE_LINEAR_LR, PROP_END_FACTOR)
#define TOTAL_ITERS(self) gnn_optim_prop_int64 (self, GNN_TYPE_LINEAR_LR, PROP_TOTAL_ITERS)

static gboolean
gnn_linear_lr_validate (GnnLRScheduler  *self,
                        GError         **error)
{
  if (START (self) > 1.0 || START (self) < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Starting multiplicative factor expected to be between 0 and 1.");
      return FALSE;
    }
  if (END (self) > 1.0 || END (self) < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Ending multiplicative factor expected to be between 0 and 1.");
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_linear_lr_get_lr (GnnLRScheduler  *self,
                      double          *lrs,
                      GError         **error)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self), total = TOTAL_ITERS (self);
  double start = START (self), end = END (self);
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);

  (void) error;
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    {
      double lr = gnn_optimizer_get_group_lr (opt, g);

      if (epoch == 0)
        lrs[g] = lr * start;
      else if (epoch > total)
        lrs[g] = lr;
      else
        lrs[g] = lr * (1. + (end - start) /
                       ((double) total * start + (double) (epoch - 1) * (end - start)));
    }
  return TRUE;
}

static void
gnn_linear_lr_get_closed_form_lr (GnnLRScheduler *self,
                                  double         *lrs)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self), total = TOTAL_ITERS (self);
  double start = START (self), end = END (self);
  const double *base = gnn_lr_scheduler_base_lrs (self);

  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = base[g] * (start + (end - start) * (double) MIN (total, epoch) / (double) total);
}

static void
gnn_linear_lr_class_init (GnnLinearLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->validate = gnn_linear_lr_validate;
  scheduler_class->get_lr = gnn_linear_lr_get_lr;
  scheduler_class->get_closed_form_lr = gnn_linear_lr_get_closed_form_lr;

  /**
   * GnnLinearLR:start-factor:
   *
   * The factor at epoch 0 (between 0 and 1).
   *
   * Since: 0.1
   */
  properties[PROP_START_FACTOR] = gnn_optim_double_property ("start-factor", 1.0 / 3);
  /**
   * GnnLinearLR:end-factor:
   *
   * The factor from [property@Gnn.LinearLR:total-iters] on (between 0 and 1).
   *
   * Since: 0.1
   */
  properties[PROP_END_FACTOR] = gnn_optim_double_property ("end-factor", 1.0);
  /**
   * GnnLinearLR:total-iters:
   *
   * The number of epochs the factor takes to reach its end.
   *
   * Since: 0.1
   */
  properties[PROP_TOTAL_ITERS] = gnn_optim_int64_property ("total-iters", G_MININT64, G_MAXINT64, 5);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_linear_lr_init (GnnLinearLR *self)
{
  (void) self;
}

/**
 * gnn_linear_lr_new:
 * @optimizer: the optimizer to schedule
 * @start_factor: the factor at epoch 0 (PyTorch's default: 1/3)
 * @end_factor: the final factor (default 1)
 * @total_iters: the epochs to reach it (default 5)
 * @error: return location for a #GError
 *
 * Creates a linear warm-up schedule, like `LinearLR(optimizer,
 * start_factor, end_factor, total_iters)`, and takes its initial step.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnLinearLR *
gnn_linear_lr_new (GnnOptimizer  *optimizer,
                   double         start_factor,
                   double         end_factor,
                   gint64         total_iters,
                   GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_LINEAR_LR, NULL, error, "optimizer", optimizer,
                         "start-factor", start_factor, "end-factor", end_factor,
                         "total-iters", total_iters, NULL);
}
