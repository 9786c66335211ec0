/* gnn-cyclic-lr.c: cyclical learning rates (and momentum)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnCyclicLR:
 *
 * Cyclical learning rates of PyTorch 1.13's
 * `torch.optim.lr_scheduler.CyclicLR`, stepped once per batch: each group's
 * rate goes from [property@Gnn.CyclicLR:base-lr] up to
 * [property@Gnn.CyclicLR:max-lr] in [property@Gnn.CyclicLR:step-size-up]
 * steps and back down in [property@Gnn.CyclicLR:step-size-down], the
 * amplitude scaled per cycle ("triangular": constant, "triangular2": halved
 * each cycle) or per step ("exp_range": `gamma ** step`); the momentum
 * cycles inversely between [property@Gnn.CyclicLR:base-momentum] and
 * [property@Gnn.CyclicLR:max-momentum]. PyTorch's custom `scale_fn` is
 * not offered.
 *
 * Since: 0.1
 */
struct _GnnCyclicLR
{
  GnnLRScheduler parent_instance;
  GArray        *base_momentums;   /* double, per group, read from the groups */
};

enum {
  PROP_BASE_LR,
  PROP_MAX_LR,
  PROP_STEP_SIZE_UP,
  PROP_STEP_SIZE_DOWN,
  PROP_MODE,
  PROP_GAMMA,
  PROP_CYCLE_MOMENTUM,
  PROP_BASE_MOMENTUM,
  PROP_MAX_MOMENTUM,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnCyclicLR, gnn_cyclic_lr, GNN_TYPE_LR_SCHEDULER)

#define SELF(s) ((GnnCyclicLR *) (s))
#define DBL(s, p) gnn_optim_prop_double (s, GNN_TYPE_CYCLIC_LR, p)
#define VAR(s, p) gnn_optim_prop_variant (s, GNN_TYPE_CYCLIC_LR, p)
#define MODE(s) gnn_optim_prop_string (s, GNN_TYPE_CYCLIC_LR, PROP_MODE)

static void
gnn_cyclic_lr_finalize (GObject *object)
{
  g_array_unref (SELF (object)->base_momentums);
  G_OBJECT_CLASS (gnn_cyclic_lr_parent_class)->finalize (object);
}

static gboolean
gnn_cyclic_lr_validate (GnnLRScheduler  *self,
                        GError         **error)
{
  static const char * const modes[] = { "triangular", "triangular2", "exp_range", NULL };

  if (MODE (self) == NULL || !g_strv_contains (modes, MODE (self)))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "mode is invalid and scale_fn is None");
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_cyclic_lr_initialize (GnnLRScheduler  *self,
                          GError         **error)
{
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  guint n = gnn_optimizer_get_n_param_groups (opt);
  g_autofree double *base = g_new0 (double, MAX (n, 1));
  g_autofree double *top = g_new0 (double, MAX (n, 1));
  g_autofree double *base_m = g_new0 (double, MAX (n, 1));
  g_autofree double *max_m = g_new0 (double, MAX (n, 1));
  gboolean resuming = gnn_lr_scheduler_get_initial_last_epoch (self) != -1;
  gboolean cycle = gnn_optim_prop_bool (self, GNN_TYPE_CYCLIC_LR, PROP_CYCLE_MOMENTUM);

  /* everything is checked before a group changes */
  if (!gnn_lr_scheduler_per_group (self, VAR (self, PROP_BASE_LR), n, "base_lr", base, error) ||
      !gnn_lr_scheduler_per_group (self, VAR (self, PROP_MAX_LR), n, "max_lr", top, error))
    return FALSE;
  if (cycle)
    {
      if (gnn_optimizer_option_index (opt, "momentum") < 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "optimizer must support momentum with `cycle_momentum` option enabled");
          return FALSE;
        }
      if (!gnn_lr_scheduler_per_group (self, VAR (self, PROP_BASE_MOMENTUM), n, "base_momentum",
                                       base_m, error) ||
          !gnn_lr_scheduler_per_group (self, VAR (self, PROP_MAX_MOMENTUM), n, "max_momentum",
                                       max_m, error))
        return FALSE;
    }
  for (guint g = 0; g < n && !resuming; g++)
    {
      gnn_optimizer_set_group_lr (opt, g, base[g]);
      if (cycle)
        gnn_optim_group_set_number (opt, g, "momentum", base_m[g]);
    }
  g_array_set_size (SELF (self)->base_momentums, 0);
  for (guint g = 0; g < n && cycle; g++)
    {
      double m = 0;

      gnn_optim_group_number (opt, g, "momentum", &m, NULL);
      g_array_append_val (SELF (self)->base_momentums, m);
    }
  /* the initial step runs on the groups' initial_lr; then base_lr rules */
  if (!GNN_LR_SCHEDULER_CLASS (gnn_cyclic_lr_parent_class)->initialize (self, error))
    return FALSE;
  gnn_lr_scheduler_set_base_lrs (self, base, n);
  return TRUE;
}

static double
scale_fn (GnnLRScheduler *self,
          double          x)
{
  if (g_strcmp0 (MODE (self), "triangular2") == 0)
    return 1 / pow (2., x - 1);
  if (g_strcmp0 (MODE (self), "exp_range") == 0)
    return pow (DBL (self, PROP_GAMMA), x);
  return 1.;
}

static gboolean
gnn_cyclic_lr_get_lr (GnnLRScheduler  *self,
                      double          *lrs,
                      GError         **error)
{
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);
  guint n = gnn_lr_scheduler_n_groups (self);
  const double *base = gnn_lr_scheduler_base_lrs (self);
  g_autofree double *top = g_new0 (double, MAX (n, 1));
  g_autofree double *max_m = g_new0 (double, MAX (n, 1));
  double up = DBL (self, PROP_STEP_SIZE_UP), down = DBL (self, PROP_STEP_SIZE_DOWN);
  double total, ratio, cycle, x, factor, scale;
  double epoch = (double) gnn_lr_scheduler_get_last_epoch (self);
  gboolean momentum = gnn_optim_prop_bool (self, GNN_TYPE_CYCLIC_LR, PROP_CYCLE_MOMENTUM) &&
                      SELF (self)->base_momentums->len >= n;

  if (!gnn_lr_scheduler_per_group (self, VAR (self, PROP_MAX_LR), n, "max_lr", top, error) ||
      (momentum && !gnn_lr_scheduler_per_group (self, VAR (self, PROP_MAX_MOMENTUM), n,
                                                "max_momentum", max_m, error)))
    return FALSE;
  if (down < 0)     /* None: as long as the way up */
    down = up;
  total = up + down;
  ratio = up / total;
  cycle = floor (1 + epoch / total);
  x = 1. + epoch / total - cycle;
  factor = x <= ratio ? x / ratio : (x - 1) / (ratio - 1);
  /* triangular modes scale per cycle, exp_range per step */
  scale = scale_fn (self, g_strcmp0 (MODE (self), "exp_range") == 0 ? epoch : cycle);
  for (guint g = 0; g < n; g++)
    {
      lrs[g] = base[g] + (top[g] - base[g]) * factor * scale;
      if (momentum)
        {
          double base_m = g_array_index (SELF (self)->base_momentums, double, g);
          gnn_optim_group_set_number (opt, g, "momentum",
                                      max_m[g] - (max_m[g] - base_m) * factor * scale);
        }
    }
  return TRUE;
}

static void
gnn_cyclic_lr_save_state (GnnLRScheduler *self,
                          GnnStateDict   *sd)
{
  GArray *m = SELF (self)->base_momentums;
  g_autofree char *text = gnn_optim_doubles_to_text ((const double *) (gpointer) m->data, m->len);

  gnn_state_dict_set_metadata (sd, "base_momentums", text);
}

static gboolean
gnn_cyclic_lr_load_state (GnnLRScheduler  *self,
                          GnnStateDict    *sd,
                          GError         **error)
{
  g_autoptr (GArray) m = gnn_optim_doubles_from_text (gnn_state_dict_get_metadata (sd, "base_momentums"),
                                                      "base_momentums", error);

  if (m == NULL)
    return FALSE;
  g_array_unref (SELF (self)->base_momentums);
  SELF (self)->base_momentums = g_steal_pointer (&m);
  return TRUE;
}

static void
gnn_cyclic_lr_class_init (GnnCyclicLRClass *klass)
{
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  G_OBJECT_CLASS (klass)->finalize = gnn_cyclic_lr_finalize;
  scheduler_class->validate = gnn_cyclic_lr_validate;
  scheduler_class->initialize = gnn_cyclic_lr_initialize;
  scheduler_class->get_lr = gnn_cyclic_lr_get_lr;
  scheduler_class->save_state = gnn_cyclic_lr_save_state;
  scheduler_class->load_state = gnn_cyclic_lr_load_state;

  /**
   * GnnCyclicLR:base-lr:
   *
   * The lowest rate of the cycle: a variant `ad` with one value or one per
   * parameter group (required).
   *
   * Since: 0.1
   */
  properties[PROP_BASE_LR] = gnn_optim_doubles_property ("base-lr", NAN);
  /**
   * GnnCyclicLR:max-lr:
   *
   * The highest rate of the cycle (before scaling): a variant `ad` with one
   * value or one per group (required).
   *
   * Since: 0.1
   */
  properties[PROP_MAX_LR] = gnn_optim_doubles_property ("max-lr", NAN);
  /**
   * GnnCyclicLR:step-size-up:
   *
   * The number of steps from the lowest rate to the highest.
   *
   * Since: 0.1
   */
  properties[PROP_STEP_SIZE_UP] = gnn_optim_double_property ("step-size-up", 2000);
  /**
   * GnnCyclicLR:step-size-down:
   *
   * The number of steps back down; -1 (PyTorch's None) for
   * [property@Gnn.CyclicLR:step-size-up].
   *
   * Since: 0.1
   */
  properties[PROP_STEP_SIZE_DOWN] = gnn_optim_double_property ("step-size-down", -1);
  /**
   * GnnCyclicLR:mode:
   *
   * "triangular", "triangular2" or "exp_range".
   *
   * Since: 0.1
   */
  properties[PROP_MODE] = gnn_optim_string_property ("mode", "triangular");
  /**
   * GnnCyclicLR:gamma:
   *
   * The base of the per-step scaling in "exp_range" mode.
   *
   * Since: 0.1
   */
  properties[PROP_GAMMA] = gnn_optim_double_property ("gamma", 1.);
  /**
   * GnnCyclicLR:cycle-momentum:
   *
   * Whether the momentum cycles inversely to the rate (the optimizer needs
   * a `momentum` option).
   *
   * Since: 0.1
   */
  properties[PROP_CYCLE_MOMENTUM] = gnn_optim_bool_property ("cycle-momentum", TRUE);
  /**
   * GnnCyclicLR:base-momentum:
   *
   * The lowest momentum: a variant `ad` with one value or one per group.
   *
   * Since: 0.1
   */
  properties[PROP_BASE_MOMENTUM] = gnn_optim_doubles_property ("base-momentum", 0.8);
  /**
   * GnnCyclicLR:max-momentum:
   *
   * The highest momentum: a variant `ad` with one value or one per group.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_MOMENTUM] = gnn_optim_doubles_property ("max-momentum", 0.9);
  gnn_optim_class_install_properties (G_OBJECT_CLASS (klass), properties, N_PROPS);
}

static void
gnn_cyclic_lr_init (GnnCyclicLR *self)
{
  self->base_momentums = g_array_new (FALSE, TRUE, sizeof (double));
}

/**
 * gnn_cyclic_lr_new:
 * @optimizer: the optimizer to schedule
 * @base_lr: the lowest rate, for every group
 * @max_lr: the highest rate, for every group
 * @error: return location for a #GError
 *
 * Creates a cyclical schedule, like `CyclicLR(optimizer, base_lr, max_lr)`,
 * and takes its initial step; the other settings are properties.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnCyclicLR *
gnn_cyclic_lr_new (GnnOptimizer  *optimizer,
                   double         base_lr,
                   double         max_lr,
                   GError       **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_CYCLIC_LR, NULL, error, "optimizer", optimizer,
                         "base-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &base_lr, 1,
                                                               sizeof (double)),
                         "max-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &max_lr, 1,
                                                              sizeof (double)),
                         NULL);
}
