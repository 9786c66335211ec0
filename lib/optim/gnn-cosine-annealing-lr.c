/* gnn-cosine-annealing-lr.c: cosine-annealed learning rate
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnCosineAnnealingLR:
 *
 * Anneals the learning rate from its base value to
 * [property@Gnn.CosineAnnealingLR:eta-min] along a half cosine over
 * [property@Gnn.CosineAnnealingLR:t-max] epochs, then back up (a period of
 * `2 * t_max`), with the recursive formula of PyTorch 1.13's
 * `torch.optim.lr_scheduler.CosineAnnealingLR.get_lr`, so the rates equal
 * PyTorch's to the last bits.
 *
 * Since: 0.1
 */
struct _GnnCosineAnnealingLR
{
  GnnLRScheduler parent_instance;
};

enum {
  PROP_T_MAX,
  PROP_ETA_MIN,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnCosineAnnealingLR, gnn_cosine_annealing_lr, GNN_TYPE_LR_SCHEDULER)

/* The schedule works modulo 2 * t_max: keep that far from overflow. */
#define T_MAX_LIMIT (G_MAXINT64 / 4)

static gboolean
check_t_max (gint64    t_max,
             GError  **error)
{
  if (t_max < 1 || t_max > T_MAX_LIMIT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "CosineAnnealingLR: T_max must be a positive integer below 2**61, got %"
                   G_GINT64_FORMAT, t_max);
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_cosine_annealing_lr_validate (GnnLRScheduler  *self,
                                  GError         **error)
{
  return check_t_max (gnn_optim_prop_int64 (self, GNN_TYPE_COSINE_ANNEALING_LR, PROP_T_MAX), error);
}

static gboolean
gnn_cosine_annealing_lr_get_lr (GnnLRScheduler  *self,
                                double          *lrs,
                                GError         **error)
{
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self);
  gint64 t_max_i = gnn_optim_prop_int64 (self, GNN_TYPE_COSINE_ANNEALING_LR, PROP_T_MAX);
  double t_max = (double) t_max_i;
  double eta_min = gnn_optim_prop_double (self, GNN_TYPE_COSINE_ANNEALING_LR, PROP_ETA_MIN);
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  const double *base = gnn_lr_scheduler_base_lrs (self);

  (void) error;
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    {
      double lr = gnn_optimizer_get_group_lr (opt, g);

      if (epoch == 0)
        lrs[g] = lr;
      else if (gnn_lr_scheduler_get_step_count (self) == 1 && epoch > 0)
        lrs[g] = eta_min + (base[g] - eta_min) * (1 + cos ((double) epoch * G_PI / t_max)) / 2;
      else if (gnn_optim_py_mod (epoch - 1 - t_max_i, 2 * t_max_i) == 0)
        lrs[g] = lr + (base[g] - eta_min) * (1 - cos (G_PI / t_max)) / 2;
      else
        lrs[g] = (1 + cos (G_PI * (double) epoch / t_max)) /
                 (1 + cos (G_PI * (double) (epoch - 1) / t_max)) * (lr - eta_min) + eta_min;
    }
  return TRUE;
}

static void
gnn_cosine_annealing_lr_get_closed_form_lr (GnnLRScheduler *self,
                                            double         *lrs)
{
  double epoch = (double) gnn_lr_scheduler_get_last_epoch (self);
  double t_max = (double) gnn_optim_prop_int64 (self, GNN_TYPE_COSINE_ANNEALING_LR, PROP_T_MAX);
  double eta_min = gnn_optim_prop_double (self, GNN_TYPE_COSINE_ANNEALING_LR, PROP_ETA_MIN);
  const double *base = gnn_lr_scheduler_base_lrs (self);

  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = eta_min + (base[g] - eta_min) * (1 + cos (G_PI * epoch / t_max)) / 2;
}

static void
gnn_cosine_annealing_lr_class_init (GnnCosineAnnealingLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->validate = gnn_cosine_annealing_lr_validate;
  scheduler_class->get_lr = gnn_cosine_annealing_lr_get_lr;
  scheduler_class->get_closed_form_lr = gnn_cosine_annealing_lr_get_closed_form_lr;

  /**
   * GnnCosineAnnealingLR:t-max:
   *
   * The number of epochs of a half period (PyTorch's `T_max`, at least 1).
   *
   * Since: 0.1
   */
  properties[PROP_T_MAX] = gnn_optim_int64_property ("t-max", 1, T_MAX_LIMIT, 1);
  /**
   * GnnCosineAnnealingLR:eta-min:
   *
   * The lowest learning rate.
   *
   * Since: 0.1
   */
  properties[PROP_ETA_MIN] = gnn_optim_double_property ("eta-min", 0.0);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_cosine_annealing_lr_init (GnnCosineAnnealingLR *self)
{
  (void) self;
}

/**
 * gnn_cosine_annealing_lr_new:
 * @optimizer: the optimizer to schedule
 * @t_max: the number of epochs of a half period
 * @eta_min: the lowest learning rate (PyTorch's default: 0)
 *
 * Creates a cosine schedule, like `CosineAnnealingLR(optimizer, T_max,
 * eta_min)`, and takes its initial step.
 *
 * Returns: (transfer full): a new scheduler,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
GnnCosineAnnealingLR *
gnn_cosine_annealing_lr_new (GnnOptimizer  *optimizer,
                             gint64         t_max,
                             double         eta_min,
                             GError       **error)
{
  g_autoptr (GnnLRScheduler) self = NULL;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  if (!check_t_max (t_max, error))
    return NULL;
  self = g_object_new (GNN_TYPE_COSINE_ANNEALING_LR, "optimizer", optimizer,
                       "t-max", t_max, "eta-min", eta_min, NULL);
  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return NULL;
  return GNN_COSINE_ANNEALING_LR (g_steal_pointer (&self));
}
