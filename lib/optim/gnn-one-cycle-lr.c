/* gnn-one-cycle-lr.c: the 1cycle learning rate policy
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnOneCycleLR:
 *
 * The 1cycle policy of PyTorch 1.13's
 * `torch.optim.lr_scheduler.OneCycleLR`, stepped once per batch: each
 * group's rate rises from `max_lr / div_factor` to
 * [property@Gnn.OneCycleLR:max-lr] over the first
 * [property@Gnn.OneCycleLR:pct-start] of
 * [property@Gnn.OneCycleLR:total-steps], then falls to
 * `initial_lr / final_div_factor` (with
 * [property@Gnn.OneCycleLR:three-phase], back to the initial rate first),
 * annealed along a cosine or linearly; the momentum (or Adam's `beta1`)
 * cycles the other way between [property@Gnn.OneCycleLR:base-momentum] and
 * [property@Gnn.OneCycleLR:max-momentum].
 *
 * As in PyTorch, the phase boundaries are read from the groups, where
 * construction writes `initial_lr`, `max_lr`, `min_lr`, `max_momentum` and
 * `base_momentum`: an optimizer state dict carries them. Stepping past the
 * total fails with PyTorch's "Tried to step 11 times. The specified number
 * of total steps is 10" and changes nothing.
 *
 * Since: 0.1
 */
struct _GnnOneCycleLR
{
  GnnLRScheduler parent_instance;
  gboolean       use_beta1;
};

enum {
  PROP_MAX_LR,
  PROP_TOTAL_STEPS,
  PROP_EPOCHS,
  PROP_STEPS_PER_EPOCH,
  PROP_PCT_START,
  PROP_ANNEAL_STRATEGY,
  PROP_CYCLE_MOMENTUM,
  PROP_BASE_MOMENTUM,
  PROP_MAX_MOMENTUM,
  PROP_DIV_FACTOR,
  PROP_FINAL_DIV_FACTOR,
  PROP_THREE_PHASE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnOneCycleLR, gnn_one_cycle_lr, GNN_TYPE_LR_SCHEDULER)

#define INT(s, p) gnn_optim_prop_int64 (s, GNN_TYPE_ONE_CYCLE_LR, p)
#define DBL(s, p) gnn_optim_prop_double (s, GNN_TYPE_ONE_CYCLE_LR, p)
#define BOOL(s, p) gnn_optim_prop_bool (s, GNN_TYPE_ONE_CYCLE_LR, p)

/* total_steps, or epochs * steps_per_epoch; -1 for None */
static gint64
total_steps (GnnLRScheduler *self)
{
  return INT (self, PROP_TOTAL_STEPS) >= 0 ? INT (self, PROP_TOTAL_STEPS)
                                           : INT (self, PROP_EPOCHS) * INT (self, PROP_STEPS_PER_EPOCH);
}

static gboolean
check_positive (gint64       value,
                const char  *name,
                GError     **error)
{
  if (value > 0)
    return TRUE;
  if (value == -1)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "Expected positive integer %s, but got None", name);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "Expected positive integer %s, but got %" G_GINT64_FORMAT, name, value);
  return FALSE;
}

static gboolean
gnn_one_cycle_lr_validate (GnnLRScheduler  *self,
                           GError         **error)
{
  double pct = DBL (self, PROP_PCT_START);
  const char *strategy = gnn_optim_prop_string (self, GNN_TYPE_ONE_CYCLE_LR, PROP_ANNEAL_STRATEGY);

  if (INT (self, PROP_TOTAL_STEPS) == -1 && INT (self, PROP_EPOCHS) == -1 &&
      INT (self, PROP_STEPS_PER_EPOCH) == -1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "You must define either total_steps OR (epochs AND steps_per_epoch)");
      return FALSE;
    }
  if (INT (self, PROP_TOTAL_STEPS) != -1)
    {
      if (!check_positive (INT (self, PROP_TOTAL_STEPS), "total_steps", error))
        return FALSE;
    }
  else if (!check_positive (INT (self, PROP_EPOCHS), "epochs", error) ||
           !check_positive (INT (self, PROP_STEPS_PER_EPOCH), "steps_per_epoch", error))
    return FALSE;
  else if (INT (self, PROP_EPOCHS) > G_MAXINT64 / INT (self, PROP_STEPS_PER_EPOCH))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "epochs * steps_per_epoch overflows");
      return FALSE;
    }
  if (!(pct >= 0 && pct <= 1))
    {
      g_autofree char *text = gnn_optim_format_float (pct);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected float between 0 and 1 pct_start, but got %s", text);
      return FALSE;
    }
  if (g_strcmp0 (strategy, "cos") != 0 && g_strcmp0 (strategy, "linear") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "anneal_strategy must by one of 'cos' or 'linear', instead got %s",
                   strategy != NULL ? strategy : "None");
      return FALSE;
    }
  return TRUE;
}

static gboolean
has_option (GnnOptimizer *optimizer,
            const char   *name)
{
  return gnn_optimizer_option_index (optimizer, name) >= 0;
}

/* PyTorch's constructor body before the base class's: each group gets its
 * phase boundaries, and its momentum starts at the maximum. */
static gboolean
gnn_one_cycle_lr_initialize (GnnLRScheduler  *self,
                             GError         **error)
{
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  guint n = gnn_optimizer_get_n_param_groups (opt);
  g_autofree double *max_lrs = g_new0 (double, MAX (n, 1));
  g_autofree double *max_m = g_new0 (double, MAX (n, 1));
  g_autofree double *base_m = g_new0 (double, MAX (n, 1));
  gboolean resuming = gnn_lr_scheduler_get_initial_last_epoch (self) != -1;
  gboolean cycle = BOOL (self, PROP_CYCLE_MOMENTUM);
  double div = DBL (self, PROP_DIV_FACTOR), final_div = DBL (self, PROP_FINAL_DIV_FACTOR);

  if (!gnn_lr_scheduler_per_group (self, gnn_optim_prop_variant (self, GNN_TYPE_ONE_CYCLE_LR, PROP_MAX_LR),
                                   n, "max_lr", max_lrs, error))
    return FALSE;
  if (cycle)
    {
      if (!has_option (opt, "momentum") && !has_option (opt, "beta1"))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "optimizer must support momentum with `cycle_momentum` option enabled");
          return FALSE;
        }
      if (!gnn_lr_scheduler_per_group (self, gnn_optim_prop_variant (self, GNN_TYPE_ONE_CYCLE_LR, PROP_MAX_MOMENTUM),
                                       n, "max_momentum", max_m, error) ||
          !gnn_lr_scheduler_per_group (self, gnn_optim_prop_variant (self, GNN_TYPE_ONE_CYCLE_LR, PROP_BASE_MOMENTUM),
                                       n, "base_momentum", base_m, error))
        return FALSE;
      ((GnnOneCycleLR *) self)->use_beta1 = has_option (opt, "beta1");
    }
  for (guint g = 0; g < n && !resuming; g++)
    {
      double initial = max_lrs[g] / div;

      gnn_optim_group_set_number (opt, g, "initial_lr", initial);
      gnn_optim_group_set_number (opt, g, "max_lr", max_lrs[g]);
      gnn_optim_group_set_number (opt, g, "min_lr", initial / final_div);
      if (!cycle)
        continue;
      gnn_optim_group_set_number (opt, g, ((GnnOneCycleLR *) self)->use_beta1 ? "beta1" : "momentum",
                                  max_m[g]);
      gnn_optim_group_set_number (opt, g, "max_momentum", max_m[g]);
      gnn_optim_group_set_number (opt, g, "base_momentum", base_m[g]);
    }
  return GNN_LR_SCHEDULER_CLASS (gnn_one_cycle_lr_parent_class)->initialize (self, error);
}

typedef struct
{
  double      end_step;
  const char *start_lr, *end_lr, *start_momentum, *end_momentum;
} Phase;

static double
anneal (gboolean cos_strategy,
        double   start,
        double   end,
        double   pct)
{
  if (cos_strategy)
    return end + (start - end) / 2.0 * (cos (G_PI * pct) + 1);
  return (end - start) * pct + start;
}

static gboolean
gnn_one_cycle_lr_get_lr (GnnLRScheduler  *self,
                         double          *lrs,
                         GError         **error)
{
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  gint64 step = gnn_lr_scheduler_get_last_epoch (self), total = total_steps (self);
  double pct_total = DBL (self, PROP_PCT_START) * (double) total;
  gboolean cos_strategy = g_strcmp0 (gnn_optim_prop_string (self, GNN_TYPE_ONE_CYCLE_LR, PROP_ANNEAL_STRATEGY),
                                     "cos") == 0;
  gboolean cycle = BOOL (self, PROP_CYCLE_MOMENTUM);
  const Phase two[] = {
    { pct_total - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum" },
    { (double) total - 1, "max_lr", "min_lr", "base_momentum", "max_momentum" },
  };
  const Phase three[] = {
    { pct_total - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum" },
    { 2 * pct_total - 2, "max_lr", "initial_lr", "base_momentum", "max_momentum" },
    { (double) total - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum" },
  };
  const Phase *phases = BOOL (self, PROP_THREE_PHASE) ? three : two;
  guint n_phases = BOOL (self, PROP_THREE_PHASE) ? 3 : 2;
  guint n = gnn_lr_scheduler_n_groups (self);
  g_autofree double *momenta = g_new0 (double, MAX (n, 1));

  if (step > total)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Tried to step %" G_GINT64_FORMAT " times. The specified number of total steps is %"
                   G_GINT64_FORMAT, step + 1, total);
      return FALSE;
    }
  /* every value read before any is written: a missing key changes nothing */
  for (guint g = 0; g < n; g++)
    {
      double start_step = 0;

      for (guint i = 0; i < n_phases; i++)
        {
          double end_step = phases[i].end_step, pct, a, b;

          if ((double) step <= end_step || i == n_phases - 1)
            {
              pct = ((double) step - start_step) / (end_step - start_step);
              if (!gnn_optim_group_number (opt, g, phases[i].start_lr, &a, error) ||
                  !gnn_optim_group_number (opt, g, phases[i].end_lr, &b, error))
                return FALSE;
              lrs[g] = anneal (cos_strategy, a, b, pct);
              if (cycle)
                {
                  if (!gnn_optim_group_number (opt, g, phases[i].start_momentum, &a, error) ||
                      !gnn_optim_group_number (opt, g, phases[i].end_momentum, &b, error))
                    return FALSE;
                  momenta[g] = anneal (cos_strategy, a, b, pct);
                }
              break;
            }
          start_step = end_step;
        }
    }
  for (guint g = 0; g < n && cycle; g++)
    gnn_optim_group_set_number (opt, g, ((GnnOneCycleLR *) self)->use_beta1 ? "beta1" : "momentum",
                                momenta[g]);
  return TRUE;
}

static void
gnn_one_cycle_lr_class_init (GnnOneCycleLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->validate = gnn_one_cycle_lr_validate;
  scheduler_class->initialize = gnn_one_cycle_lr_initialize;
  scheduler_class->get_lr = gnn_one_cycle_lr_get_lr;

  /**
   * GnnOneCycleLR:max-lr:
   *
   * The peak learning rate: a variant `ad` with one value, or one per
   * parameter group (required).
   *
   * Since: 0.1
   */
  properties[PROP_MAX_LR] = gnn_optim_doubles_property ("max-lr", NAN);
  /**
   * GnnOneCycleLR:total-steps:
   *
   * The number of steps in the cycle; -1 (PyTorch's None) for
   * `epochs * steps_per_epoch`.
   *
   * Since: 0.1
   */
  properties[PROP_TOTAL_STEPS] = gnn_optim_int64_property ("total-steps", G_MININT64, G_MAXINT64 / 4, -1);
  /**
   * GnnOneCycleLR:epochs:
   *
   * The number of epochs, with [property@Gnn.OneCycleLR:steps-per-epoch]
   * when [property@Gnn.OneCycleLR:total-steps] is -1 (-1: None).
   *
   * Since: 0.1
   */
  properties[PROP_EPOCHS] = gnn_optim_int64_property ("epochs", G_MININT64, G_MAXINT64 / 4, -1);
  /**
   * GnnOneCycleLR:steps-per-epoch:
   *
   * The number of steps per epoch (-1: None).
   *
   * Since: 0.1
   */
  properties[PROP_STEPS_PER_EPOCH] = gnn_optim_int64_property ("steps-per-epoch", G_MININT64, G_MAXINT64 / 4, -1);
  /**
   * GnnOneCycleLR:pct-start:
   *
   * The fraction of the cycle spent raising the rate (between 0 and 1).
   *
   * Since: 0.1
   */
  properties[PROP_PCT_START] = gnn_optim_double_property ("pct-start", 0.3);
  /**
   * GnnOneCycleLR:anneal-strategy:
   *
   * "cos" or "linear".
   *
   * Since: 0.1
   */
  properties[PROP_ANNEAL_STRATEGY] = gnn_optim_string_property ("anneal-strategy", "cos");
  /**
   * GnnOneCycleLR:cycle-momentum:
   *
   * Whether the momentum (or `beta1`) cycles inversely to the rate.
   *
   * Since: 0.1
   */
  properties[PROP_CYCLE_MOMENTUM] = gnn_optim_bool_property ("cycle-momentum", TRUE);
  /**
   * GnnOneCycleLR:base-momentum:
   *
   * The lowest momentum, at the peak rate: a variant `ad` with one value or
   * one per group.
   *
   * Since: 0.1
   */
  properties[PROP_BASE_MOMENTUM] = gnn_optim_doubles_property ("base-momentum", 0.85);
  /**
   * GnnOneCycleLR:max-momentum:
   *
   * The highest momentum: a variant `ad` with one value or one per group.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_MOMENTUM] = gnn_optim_doubles_property ("max-momentum", 0.95);
  /**
   * GnnOneCycleLR:div-factor:
   *
   * The initial rate is `max_lr / div_factor`.
   *
   * Since: 0.1
   */
  properties[PROP_DIV_FACTOR] = gnn_optim_double_property ("div-factor", 25.);
  /**
   * GnnOneCycleLR:final-div-factor:
   *
   * The final rate is `initial_lr / final_div_factor`.
   *
   * Since: 0.1
   */
  properties[PROP_FINAL_DIV_FACTOR] = gnn_optim_double_property ("final-div-factor", 1e4);
  /**
   * GnnOneCycleLR:three-phase:
   *
   * Whether the rate comes back down to the initial one before annealing
   * to the final one.
   *
   * Since: 0.1
   */
  properties[PROP_THREE_PHASE] = gnn_optim_bool_property ("three-phase", FALSE);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_one_cycle_lr_init (GnnOneCycleLR *self)
{
  (void) self;
}

/**
 * gnn_one_cycle_lr_new:
 * @optimizer: the optimizer to schedule
 * @max_lr: the peak learning rate, for every group
 * @total_steps: the number of steps in the cycle
 * @error: return location for a #GError
 *
 * Creates a 1cycle schedule, like `OneCycleLR(optimizer, max_lr,
 * total_steps)`, and takes its initial step; the other settings are
 * properties.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnOneCycleLR *
gnn_one_cycle_lr_new (GnnOptimizer  *optimizer,
                      double         max_lr,
                      gint64         total_steps,
                      GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_ONE_CYCLE_LR, NULL, error, "optimizer", optimizer,
                         "max-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &max_lr, 1,
                                                              sizeof (double)),
                         "total-steps", total_steps, NULL);
}
