/* gnn-reduce-lr-on-plateau.c: learning rate reduced when a metric stops
 * improving
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnReduceLROnPlateau:
 *
 * PyTorch 1.13's `torch.optim.lr_scheduler.ReduceLROnPlateau`: each
 * [method@Gnn.ReduceLROnPlateau.step_with_metric] (PyTorch's
 * `step(metrics)`, after validation) compares the metric with the best so
 * far ([property@Gnn.ReduceLROnPlateau:mode] "min" or "max", by
 * [property@Gnn.ReduceLROnPlateau:threshold], relative or absolute); after
 * more than [property@Gnn.ReduceLROnPlateau:patience] epochs without
 * improvement every group's rate is multiplied by
 * [property@Gnn.ReduceLROnPlateau:factor] (not below
 * [property@Gnn.ReduceLROnPlateau:min-lr], and only by more than
 * [property@Gnn.ReduceLROnPlateau:eps]), then
 * [property@Gnn.ReduceLROnPlateau:cooldown] epochs pass before counting
 * again. Unlike the other schedulers it takes no initial step and leaves
 * `initial_lr` alone; [method@Gnn.LRScheduler.step] without a metric is an
 * error. The state dict keeps `best`, `num_bad_epochs` and
 * `cooldown_counter`.
 *
 * Since: 0.1
 */
struct _GnnReduceLROnPlateau
{
  GnnLRScheduler parent_instance;
  double         best;
  gint64         num_bad_epochs;
  gint64         cooldown_counter;
};

enum {
  PROP_MODE,
  PROP_FACTOR,
  PROP_PATIENCE,
  PROP_THRESHOLD,
  PROP_THRESHOLD_MODE,
  PROP_COOLDOWN,
  PROP_MIN_LR,
  PROP_EPS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnReduceLROnPlateau, gnn_reduce_lr_on_plateau, GNN_TYPE_LR_SCHEDULER)

#define DBL(s, p) gnn_optim_prop_double (s, GNN_TYPE_REDUCE_LR_ON_PLATEAU, p)
#define INT(s, p) gnn_optim_prop_int64 (s, GNN_TYPE_REDUCE_LR_ON_PLATEAU, p)
#define STR(s, p) gnn_optim_prop_string (s, GNN_TYPE_REDUCE_LR_ON_PLATEAU, p)

static gboolean
is_min (GnnReduceLROnPlateau *self)
{
  return g_strcmp0 (STR (self, PROP_MODE), "min") == 0;
}

static gboolean
gnn_reduce_lr_on_plateau_validate (GnnLRScheduler  *self,
                                   GError         **error)
{
  const char *mode = STR (self, PROP_MODE), *threshold_mode = STR (self, PROP_THRESHOLD_MODE);

  if (DBL (self, PROP_FACTOR) >= 1.0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Factor should be < 1.0.");
      return FALSE;
    }
  if (g_strcmp0 (mode, "min") != 0 && g_strcmp0 (mode, "max") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "mode %s is unknown!",
                   mode != NULL ? mode : "None");
      return FALSE;
    }
  if (g_strcmp0 (threshold_mode, "rel") != 0 && g_strcmp0 (threshold_mode, "abs") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "threshold mode %s is unknown!",
                   threshold_mode != NULL ? threshold_mode : "None");
      return FALSE;
    }
  return TRUE;
}

/* min_lr, one per group ("expected 2 min_lrs, got 3") */
static gboolean
min_lrs (GnnReduceLROnPlateau  *self,
         guint                  n,
         double                *out,
         GError               **error)
{
  GVariant *v = gnn_optim_prop_variant (self, GNN_TYPE_REDUCE_LR_ON_PLATEAU, PROP_MIN_LR);
  gsize given = 0;

  if (v != NULL)
    g_variant_get_fixed_array (v, &given, sizeof (double));
  if (given != 1 && given != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "expected %u min_lrs, got %"
                   G_GSIZE_FORMAT, n, given);
      return FALSE;
    }
  return gnn_lr_scheduler_per_group (GNN_LR_SCHEDULER (self), v, n, "min_lr", out, error);
}

/* PyTorch's constructor: no initial step, no initial_lr. */
static gboolean
gnn_reduce_lr_on_plateau_initialize (GnnLRScheduler  *scheduler,
                                     GError         **error)
{
  GnnReduceLROnPlateau *self = GNN_REDUCE_LR_ON_PLATEAU (scheduler);
  guint n = gnn_optimizer_get_n_param_groups (gnn_lr_scheduler_get_optimizer (scheduler));
  g_autofree double *unused = g_new0 (double, MAX (n, 1));

  if (!min_lrs (self, n, unused, error))
    return FALSE;
  self->best = is_min (self) ? INFINITY : -INFINITY;
  self->num_bad_epochs = 0;
  self->cooldown_counter = 0;
  gnn_lr_scheduler_set_position (scheduler, 0, 0);
  gnn_lr_scheduler_record_last_lrs (scheduler);
  return TRUE;
}

static gboolean
gnn_reduce_lr_on_plateau_step (GnnLRScheduler  *self,
                               const double    *epoch,
                               GError         **error)
{
  (void) epoch;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "ReduceLROnPlateau.step() needs the metric: use "
                       "gnn_reduce_lr_on_plateau_step_with_metric()");
  return FALSE;
}

static gboolean
is_better (GnnReduceLROnPlateau *self,
           double                a)
{
  double threshold = DBL (self, PROP_THRESHOLD);
  gboolean rel = g_strcmp0 (STR (self, PROP_THRESHOLD_MODE), "rel") == 0;

  if (is_min (self))
    return rel ? a < self->best * (1. - threshold) : a < self->best - threshold;
  return rel ? a > self->best * (threshold + 1.) : a > self->best + threshold;
}

/**
 * gnn_reduce_lr_on_plateau_step_with_metric:
 * @self: a scheduler
 * @metric: the epoch's value of the watched metric (a validation loss)
 * @error: return location for a #GError
 *
 * PyTorch's `scheduler.step(metrics)`: counts the epoch as good or bad and
 * reduces the rates after too many bad ones.
 *
 * Returns: %TRUE on success, %FALSE with @error set (invalid settings;
 *   nothing changes)
 *
 * Since: 0.1
 */
gboolean
gnn_reduce_lr_on_plateau_step_with_metric (GnnReduceLROnPlateau  *self,
                                           double                 metric,
                                           GError               **error)
{
  GnnLRScheduler *scheduler = GNN_LR_SCHEDULER (self);
  GnnOptimizer *opt;
  g_autofree double *floor_lrs = NULL;
  guint n;

  g_return_val_if_fail (GNN_IS_REDUCE_LR_ON_PLATEAU (self), FALSE);
  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return FALSE;
  opt = gnn_lr_scheduler_get_optimizer (scheduler);
  n = gnn_optimizer_get_n_param_groups (opt);
  floor_lrs = g_new0 (double, MAX (n, 1));
  if (!min_lrs (self, n, floor_lrs, error))
    return FALSE;

  gnn_lr_scheduler_set_position (scheduler, gnn_lr_scheduler_get_last_epoch (scheduler) + 1,
                                 gnn_lr_scheduler_get_step_count (scheduler));
  if (is_better (self, metric))
    {
      self->best = metric;
      self->num_bad_epochs = 0;
    }
  else
    self->num_bad_epochs++;
  if (self->cooldown_counter > 0)
    {
      self->cooldown_counter--;
      self->num_bad_epochs = 0;
    }
  if (self->num_bad_epochs > INT (self, PROP_PATIENCE))
    {
      for (guint g = 0; g < n; g++)
        {
          double old_lr = gnn_optimizer_get_group_lr (opt, g);
          double new_lr = old_lr * DBL (self, PROP_FACTOR);

          if (floor_lrs[g] > new_lr)   /* Python's max() */
            new_lr = floor_lrs[g];
          if (old_lr - new_lr > DBL (self, PROP_EPS))
            gnn_optimizer_set_group_lr (opt, g, new_lr);
        }
      self->cooldown_counter = INT (self, PROP_COOLDOWN);
      self->num_bad_epochs = 0;
    }
  gnn_lr_scheduler_record_last_lrs (scheduler);
  return TRUE;
}

static void
gnn_reduce_lr_on_plateau_save_state (GnnLRScheduler *scheduler,
                                     GnnStateDict   *sd)
{
  GnnReduceLROnPlateau *self = GNN_REDUCE_LR_ON_PLATEAU (scheduler);
  g_autofree char *best = gnn_format_double_shortest (self->best);
  g_autofree char *bad = g_strdup_printf ("%" G_GINT64_FORMAT, self->num_bad_epochs);
  g_autofree char *cooldown = g_strdup_printf ("%" G_GINT64_FORMAT, self->cooldown_counter);

  gnn_state_dict_set_metadata (sd, "best", best);
  gnn_state_dict_set_metadata (sd, "num_bad_epochs", bad);
  gnn_state_dict_set_metadata (sd, "cooldown_counter", cooldown);
}

static gboolean
gnn_reduce_lr_on_plateau_load_state (GnnLRScheduler  *scheduler,
                                     GnnStateDict    *sd,
                                     GError         **error)
{
  GnnReduceLROnPlateau *self = GNN_REDUCE_LR_ON_PLATEAU (scheduler);
  double best;
  gint64 bad, cooldown;

  if (!gnn_optim_parse_double (gnn_state_dict_get_metadata (sd, "best"), "best", &best, error) ||
      !gnn_optim_parse_int64 (gnn_state_dict_get_metadata (sd, "num_bad_epochs"), "num_bad_epochs",
                              &bad, error) ||
      !gnn_optim_parse_int64 (gnn_state_dict_get_metadata (sd, "cooldown_counter"),
                              "cooldown_counter", &cooldown, error))
    return FALSE;
  self->best = best;
  self->num_bad_epochs = bad;
  self->cooldown_counter = cooldown;
  return TRUE;
}

static void
gnn_reduce_lr_on_plateau_class_init (GnnReduceLROnPlateauClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  scheduler_class->validate = gnn_reduce_lr_on_plateau_validate;
  scheduler_class->initialize = gnn_reduce_lr_on_plateau_initialize;
  scheduler_class->step = gnn_reduce_lr_on_plateau_step;
  scheduler_class->save_state = gnn_reduce_lr_on_plateau_save_state;
  scheduler_class->load_state = gnn_reduce_lr_on_plateau_load_state;

  /**
   * GnnReduceLROnPlateau:mode:
   *
   * "min" (the metric should fall) or "max" (it should rise).
   *
   * Since: 0.1
   */
  properties[PROP_MODE] = gnn_optim_string_property ("mode", "min");
  /**
   * GnnReduceLROnPlateau:factor:
   *
   * The factor a reduction applies (below 1).
   *
   * Since: 0.1
   */
  properties[PROP_FACTOR] = gnn_optim_double_property ("factor", 0.1);
  /**
   * GnnReduceLROnPlateau:patience:
   *
   * The number of epochs without improvement tolerated.
   *
   * Since: 0.1
   */
  properties[PROP_PATIENCE] = gnn_optim_int64_property ("patience", G_MININT64, G_MAXINT64, 10);
  /**
   * GnnReduceLROnPlateau:threshold:
   *
   * How much better a metric must be to count as an improvement.
   *
   * Since: 0.1
   */
  properties[PROP_THRESHOLD] = gnn_optim_double_property ("threshold", 1e-4);
  /**
   * GnnReduceLROnPlateau:threshold-mode:
   *
   * "rel" (the threshold is relative to the best) or "abs".
   *
   * Since: 0.1
   */
  properties[PROP_THRESHOLD_MODE] = gnn_optim_string_property ("threshold-mode", "rel");
  /**
   * GnnReduceLROnPlateau:cooldown:
   *
   * The epochs to wait after a reduction before counting again.
   *
   * Since: 0.1
   */
  properties[PROP_COOLDOWN] = gnn_optim_int64_property ("cooldown", G_MININT64, G_MAXINT64, 0);
  /**
   * GnnReduceLROnPlateau:min-lr:
   *
   * The lowest rate: a variant `ad` with one value or one per group.
   *
   * Since: 0.1
   */
  properties[PROP_MIN_LR] = gnn_optim_doubles_property ("min-lr", 0);
  /**
   * GnnReduceLROnPlateau:eps:
   *
   * Reductions smaller than this are skipped.
   *
   * Since: 0.1
   */
  properties[PROP_EPS] = gnn_optim_double_property ("eps", 1e-8);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_reduce_lr_on_plateau_init (GnnReduceLROnPlateau *self)
{
  self->best = INFINITY;
}

/**
 * gnn_reduce_lr_on_plateau_new:
 * @optimizer: the optimizer to schedule
 * @error: return location for a #GError
 *
 * Creates a plateau schedule with PyTorch's defaults, like
 * `ReduceLROnPlateau(optimizer)`; the settings are properties.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnReduceLROnPlateau *
gnn_reduce_lr_on_plateau_new (GnnOptimizer  *optimizer,
                              GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_REDUCE_LR_ON_PLATEAU, NULL, error, "optimizer", optimizer, NULL);
}
