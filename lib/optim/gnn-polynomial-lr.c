/* gnn-polynomial-lr.c: learning rate decayed by a polynomial
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnPolynomialLR:
 *
 * Decays each group's learning rate to 0 over
 * [property@Gnn.PolynomialLR:total-iters] epochs along
 * `(1 - epoch / total_iters) ** power`, like PyTorch 1.13's
 * `torch.optim.lr_scheduler.PolynomialLR` (chainable: the ratio of
 * consecutive epochs' factors).
 *
 * Since: 0.1
 */
struct _GnnPolynomialLR
{
  GnnLRScheduler parent_instance;
};

enum {
  PROP_TOTAL_ITERS,
  PROP_POWER,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnPolynomialLR, gnn_polynomial_lr, GNN_TYPE_LR_SCHEDULER)

#define TOTAL_ITERS(self) gnn_optim_prop_int64 (self, GNN_TYPE_POLYNOMIAL_LR, PROP_TOTAL_ITERS)
#define POWER(self) gnn_optim_prop_double (self, GNN_TYPE_POLYNOMIAL_LR, PROP_POWER)

static gboolean
gnn_polynomial_lr_get_lr (GnnLRScheduler  *self,
                          double          *lrs,
                          GError         **error)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self), total = TOTAL_ITERS (self);
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  double decay = 1;

  (void) error;
  if (epoch != 0 && epoch <= total)
    decay = pow ((1.0 - (double) epoch / (double) total) /
                 (1.0 - (double) (epoch - 1) / (double) total), POWER (self));
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = epoch == 0 || epoch > total ? gnn_optimizer_get_group_lr (opt, g)
                                         : gnn_optimizer_get_group_lr (opt, g) * decay;
  return TRUE;
}

static void
gnn_polynomial_lr_get_closed_form_lr (GnnLRScheduler *self,
                                      double         *lrs)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self), total = TOTAL_ITERS (self);
  const double *base = gnn_lr_scheduler_base_lrs (self);

  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = base[g] * pow (1.0 - (double) MIN (total, epoch) / (double) total, POWER (self));
}

static void
gnn_polynomial_lr_class_init (GnnPolynomialLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->get_lr = gnn_polynomial_lr_get_lr;
  scheduler_class->get_closed_form_lr = gnn_polynomial_lr_get_closed_form_lr;

  /**
   * GnnPolynomialLR:total-iters:
   *
   * The number of epochs the rate decays over.
   *
   * Since: 0.1
   */
  properties[PROP_TOTAL_ITERS] = gnn_optim_int64_property ("total-iters", G_MININT64, G_MAXINT64, 5);
  /**
   * GnnPolynomialLR:power:
   *
   * The power of the polynomial.
   *
   * Since: 0.1
   */
  properties[PROP_POWER] = gnn_optim_double_property ("power", 1.0);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_polynomial_lr_init (GnnPolynomialLR *self)
{
  (void) self;
}

/**
 * gnn_polynomial_lr_new:
 * @optimizer: the optimizer to schedule
 * @total_iters: the epochs to decay over (PyTorch's default: 5)
 * @power: the power of the polynomial (default 1)
 * @error: return location for a #GError
 *
 * Creates a polynomial decay, like `PolynomialLR(optimizer, total_iters,
 * power)`, and takes its initial step.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnPolynomialLR *
gnn_polynomial_lr_new (GnnOptimizer  *optimizer,
                       gint64         total_iters,
                       double         power,
                       GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_POLYNOMIAL_LR, NULL, error, "optimizer", optimizer,
                         "total-iters", total_iters, "power", power, NULL);
}
