/* gnn-step-lr.c: learning rate decayed by gamma every step_size epochs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnStepLR:
 *
 * Multiplies each group's learning rate by [property@Gnn.StepLR:gamma]
 * every [property@Gnn.StepLR:step-size] epochs, like PyTorch 1.13's
 * `torch.optim.lr_scheduler.StepLR` (chainable form: the current rate is
 * multiplied, so other changes to the rate are kept; the closed form
 * `base_lr * gamma ** (epoch // step_size)` for
 * [method@Gnn.LRScheduler.step_to_epoch]).
 *
 * Since: 0.1
 */
struct _GnnStepLR
{
  GnnLRScheduler parent_instance;
};

enum {
  PROP_STEP_SIZE,
  PROP_GAMMA,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnStepLR, gnn_step_lr, GNN_TYPE_LR_SCHEDULER)

/* GObject's range already refuses step_size < 1 on g_object_set; the C
 * constructor checks first so its caller gets a GError, not a warning. */
static gboolean
check_step_size (gint64    step_size,
                 GError  **error)
{
  if (step_size < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "StepLR: step_size must be a positive integer, got %" G_GINT64_FORMAT,
                   step_size);
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_step_lr_validate (GnnLRScheduler  *self,
                      GError         **error)
{
  return check_step_size (gnn_optim_prop_int64 (self, GNN_TYPE_STEP_LR, PROP_STEP_SIZE), error);
}

static gboolean
gnn_step_lr_get_lr (GnnLRScheduler  *self,
                    double          *lrs,
                    GError         **error)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self);
  gint64 step_size = gnn_optim_prop_int64 (self, GNN_TYPE_STEP_LR, PROP_STEP_SIZE);
  double gamma = gnn_optim_prop_double (self, GNN_TYPE_STEP_LR, PROP_GAMMA);
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  gboolean decay = epoch != 0 && epoch % step_size == 0;

  (void) error;
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = decay ? gnn_optimizer_get_group_lr (opt, g) * gamma : gnn_optimizer_get_group_lr (opt, g);
  return TRUE;
}

static void
gnn_step_lr_get_closed_form_lr (GnnLRScheduler *self,
                                double         *lrs)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self);
  gint64 step_size = gnn_optim_prop_int64 (self, GNN_TYPE_STEP_LR, PROP_STEP_SIZE);
  double gamma = gnn_optim_prop_double (self, GNN_TYPE_STEP_LR, PROP_GAMMA);
  const double *base = gnn_lr_scheduler_base_lrs (self);

  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = base[g] * pow (gamma, (double) gnn_optim_floor_div (epoch, step_size));
}

static void
gnn_step_lr_class_init (GnnStepLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->validate = gnn_step_lr_validate;
  scheduler_class->get_lr = gnn_step_lr_get_lr;
  scheduler_class->get_closed_form_lr = gnn_step_lr_get_closed_form_lr;

  /**
   * GnnStepLR:step-size:
   *
   * The period of the decay, in epochs (at least 1; GObject refuses smaller
   * values, so a step can never divide by zero).
   *
   * Since: 0.1
   */
  properties[PROP_STEP_SIZE] = gnn_optim_int64_property ("step-size", 1, G_MAXINT64, 1);
  /**
   * GnnStepLR:gamma:
   *
   * The factor applied to the rate every [property@Gnn.StepLR:step-size]
   * epochs.
   *
   * Since: 0.1
   */
  properties[PROP_GAMMA] = gnn_optim_double_property ("gamma", 0.1);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_step_lr_init (GnnStepLR *self)
{
  (void) self;
}

/**
 * gnn_step_lr_new:
 * @optimizer: the optimizer to schedule
 * @step_size: the period of the decay, in epochs
 * @gamma: the decay factor (PyTorch's default: 0.1)
 *
 * Creates a step schedule, like `StepLR(optimizer, step_size, gamma)`, and
 * takes its initial step.
 *
 * Returns: (transfer full): a new scheduler, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnStepLR *
gnn_step_lr_new (GnnOptimizer  *optimizer,
                 gint64         step_size,
                 double         gamma,
                 GError       **error)
{
  g_autoptr (GnnLRScheduler) self = NULL;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  if (!check_step_size (step_size, error))
    return NULL;
  self = g_object_new (GNN_TYPE_STEP_LR, "optimizer", optimizer,
                       "step-size", step_size, "gamma", gamma, NULL);
  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return NULL;
  return GNN_STEP_LR (g_steal_pointer (&self));
}
