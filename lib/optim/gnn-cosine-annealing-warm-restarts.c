/* gnn-cosine-annealing-warm-restarts.c: cosine annealing with warm
 * restarts (SGDR)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnCosineAnnealingWarmRestarts:
 *
 * Anneals each group's learning rate from its base value to
 * [property@Gnn.CosineAnnealingWarmRestarts:eta-min] along a half cosine,
 * restarting every `T_i` epochs, where the first period is
 * [property@Gnn.CosineAnnealingWarmRestarts:t-0] and each next one
 * [property@Gnn.CosineAnnealingWarmRestarts:t-mult] times longer, like
 * PyTorch 1.13's `torch.optim.lr_scheduler.CosineAnnealingWarmRestarts`.
 * [method@Gnn.LRScheduler.step_to_epoch] takes fractional epochs (`epoch +
 * batch / batches`) to anneal within an epoch. The state dict keeps `T_i`
 * and `T_cur`.
 *
 * Since: 0.1
 */
struct _GnnCosineAnnealingWarmRestarts
{
  GnnLRScheduler parent_instance;
  double         t_i;     /* the current period */
  double         t_cur;   /* epochs since the last restart */
};

enum {
  PROP_T_0,
  PROP_T_MULT,
  PROP_ETA_MIN,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnCosineAnnealingWarmRestarts, gnn_cosine_annealing_warm_restarts,
                     GNN_TYPE_LR_SCHEDULER)

#define SELF(s) ((GnnCosineAnnealingWarmRestarts *) (s))
#define T_0(s) gnn_optim_prop_int64 (s, GNN_TYPE_COSINE_ANNEALING_WARM_RESTARTS, PROP_T_0)
#define T_MULT(s) gnn_optim_prop_int64 (s, GNN_TYPE_COSINE_ANNEALING_WARM_RESTARTS, PROP_T_MULT)

static gboolean
gnn_cosine_annealing_warm_restarts_validate (GnnLRScheduler  *self,
                                             GError         **error)
{
  if (T_0 (self) <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected positive integer T_0, but got %" G_GINT64_FORMAT, T_0 (self));
      return FALSE;
    }
  if (T_MULT (self) < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected integer T_mult >= 1, but got %" G_GINT64_FORMAT, T_MULT (self));
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_cosine_annealing_warm_restarts_initialize (GnnLRScheduler  *self,
                                               GError         **error)
{
  SELF (self)->t_i = (double) T_0 (self);
  SELF (self)->t_cur = (double) gnn_lr_scheduler_get_initial_last_epoch (self);
  return GNN_LR_SCHEDULER_CLASS (gnn_cosine_annealing_warm_restarts_parent_class)->initialize (self, error);
}

static gboolean
gnn_cosine_annealing_warm_restarts_step (GnnLRScheduler  *self,
                                         const double    *epoch_arg,
                                         GError         **error)
{
  GnnCosineAnnealingWarmRestarts *s = SELF (self);
  double t_0 = (double) T_0 (self), t_mult = (double) T_MULT (self);
  double eta_min = gnn_optim_prop_double (self, GNN_TYPE_COSINE_ANNEALING_WARM_RESTARTS, PROP_ETA_MIN);
  const double *base = gnn_lr_scheduler_base_lrs (self);
  g_autofree double *lrs = g_new0 (double, MAX (gnn_lr_scheduler_n_groups (self), 1));
  gint64 last_epoch = gnn_lr_scheduler_get_last_epoch (self);
  double epoch;

  if (epoch_arg == NULL && last_epoch >= 0)
    {
      epoch = (double) (last_epoch + 1);
      s->t_cur = s->t_cur + 1;
      if (s->t_cur >= s->t_i)
        {
          s->t_cur = s->t_cur - s->t_i;
          s->t_i = s->t_i * t_mult;
        }
    }
  else
    {
      epoch = epoch_arg != NULL ? *epoch_arg : 0;
      if (epoch < 0)
        {
          g_autofree char *text = gnn_optim_format_float (epoch);
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Expected non-negative epoch, but got %s", text);
          return FALSE;
        }
      if (epoch >= t_0)
        {
          if (t_mult == 1)
            s->t_cur = fmod (epoch, t_0);
          else
            {
              double n = trunc (log (epoch / t_0 * (t_mult - 1) + 1) / log (t_mult));
              s->t_cur = epoch - t_0 * (pow (t_mult, n) - 1) / (t_mult - 1);
              s->t_i = t_0 * pow (t_mult, n);
            }
        }
      else
        {
          s->t_i = t_0;
          s->t_cur = epoch;
        }
    }
  gnn_lr_scheduler_set_position (self, (gint64) floor (epoch), gnn_lr_scheduler_get_step_count (self));
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    lrs[g] = eta_min + (base[g] - eta_min) * (1 + cos (G_PI * s->t_cur / s->t_i)) / 2;
  gnn_lr_scheduler_apply_lrs (self, lrs);
  return TRUE;
}

static void
gnn_cosine_annealing_warm_restarts_save_state (GnnLRScheduler *self,
                                               GnnStateDict   *sd)
{
  g_autofree char *t_i = gnn_format_double_shortest (SELF (self)->t_i);
  g_autofree char *t_cur = gnn_format_double_shortest (SELF (self)->t_cur);

  gnn_state_dict_set_metadata (sd, "T_i", t_i);
  gnn_state_dict_set_metadata (sd, "T_cur", t_cur);
}

static gboolean
gnn_cosine_annealing_warm_restarts_load_state (GnnLRScheduler  *self,
                                               GnnStateDict    *sd,
                                               GError         **error)
{
  double t_i, t_cur;

  if (!gnn_optim_parse_double (gnn_state_dict_get_metadata (sd, "T_i"), "T_i", &t_i, error) ||
      !gnn_optim_parse_double (gnn_state_dict_get_metadata (sd, "T_cur"), "T_cur", &t_cur, error))
    return FALSE;
  SELF (self)->t_i = t_i;
  SELF (self)->t_cur = t_cur;
  return TRUE;
}

static void
gnn_cosine_annealing_warm_restarts_class_init (GnnCosineAnnealingWarmRestartsClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->validate = gnn_cosine_annealing_warm_restarts_validate;
  scheduler_class->initialize = gnn_cosine_annealing_warm_restarts_initialize;
  scheduler_class->step = gnn_cosine_annealing_warm_restarts_step;
  scheduler_class->save_state = gnn_cosine_annealing_warm_restarts_save_state;
  scheduler_class->load_state = gnn_cosine_annealing_warm_restarts_load_state;

  /**
   * GnnCosineAnnealingWarmRestarts:t-0:
   *
   * The length of the first period, in epochs (PyTorch's `T_0`, positive).
   *
   * Since: 0.1
   */
  properties[PROP_T_0] = gnn_optim_int64_property ("t-0", G_MININT64, G_MAXINT32, 1);
  /**
   * GnnCosineAnnealingWarmRestarts:t-mult:
   *
   * The factor by which each period is longer than the last (PyTorch's
   * `T_mult`, at least 1).
   *
   * Since: 0.1
   */
  properties[PROP_T_MULT] = gnn_optim_int64_property ("t-mult", G_MININT64, G_MAXINT32, 1);
  /**
   * GnnCosineAnnealingWarmRestarts:eta-min:
   *
   * The lowest learning rate.
   *
   * Since: 0.1
   */
  properties[PROP_ETA_MIN] = gnn_optim_double_property ("eta-min", 0.0);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_cosine_annealing_warm_restarts_init (GnnCosineAnnealingWarmRestarts *self)
{
  (void) self;
}

/**
 * gnn_cosine_annealing_warm_restarts_new:
 * @optimizer: the optimizer to schedule
 * @t_0: the first period, in epochs
 * @t_mult: the growth of the periods (PyTorch's default: 1)
 * @eta_min: the lowest learning rate (default 0)
 * @error: return location for a #GError
 *
 * Creates a schedule with warm restarts, like
 * `CosineAnnealingWarmRestarts(optimizer, T_0, T_mult, eta_min)`, and takes
 * its initial step.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnCosineAnnealingWarmRestarts *
gnn_cosine_annealing_warm_restarts_new (GnnOptimizer  *optimizer,
                                        gint64         t_0,
                                        gint64         t_mult,
                                        double         eta_min,
                                        GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_COSINE_ANNEALING_WARM_RESTARTS, NULL, error,
                         "optimizer", optimizer, "t-0", t_0, "t-mult", t_mult, "eta-min", eta_min,
                         NULL);
}
