/* gnn-lr-scheduler.c: base class of learning-rate schedulers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnLRScheduler:
 *
 * The base class of learning-rate schedulers, like PyTorch 1.13's
 * `torch.optim.lr_scheduler._LRScheduler`: it drives the learning rate of
 * each parameter group of an optimizer ([method@Gnn.Optimizer.get_group_lr]).
 * Creating a scheduler records each group's rate as its base rate
 * (PyTorch's `initial_lr`, kept in the group and shared by every scheduler
 * of that optimizer) and performs the initial step (epoch 0); each
 * [method@Gnn.LRScheduler.step] then advances the epoch and sets the rates
 * the subclass's `get_lr` computes. Call it after [method@Gnn.Optimizer.step],
 * once per epoch (or per batch, for OneCycleLR and CyclicLR).
 *
 * The rates follow PyTorch's formulas to the last bit, including where
 * its chainable form (each rate computed from the current one, so that
 * several schedulers compose) differs from its closed form
 * ([method@Gnn.LRScheduler.step_to_epoch], PyTorch's deprecated
 * `step(epoch)`).
 *
 * Schedulers implement [iface@Gio.Initable]: the settings are checked and
 * the initial step is taken when the object is constructed (subclasses
 * install their settings as construct properties, so they are set by then);
 * a failure is reported by g_initable_init() and by every later step, and
 * leaves the optimizer's rates as they were.
 *
 * [method@Gnn.LRScheduler.state_dict] saves PyTorch's entries as string
 * metadata: `last_epoch`, `_step_count`, `base_lrs` and `_last_lr` (one rate
 * per group, comma-separated), the subclass's settings under PyTorch's
 * names (`step_size`, `gamma`, `t_max`) and its counters.
 *
 * Since: 0.1
 */

typedef struct
{
  GnnOptimizer *optimizer;
  gint64        initial_last_epoch;
  GArray       *base_lrs;     /* double, one per group */
  GArray       *last_lrs;
  gint64        last_epoch;
  gint64        step_count;
  gboolean      initialized;
  GError       *init_error;
} GnnLRSchedulerPrivate;

enum {
  PROP_0,
  PROP_OPTIMIZER,
  PROP_LAST_EPOCH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void gnn_lr_scheduler_initable_iface_init (GInitableIface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnLRScheduler, gnn_lr_scheduler, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (GnnLRScheduler)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_lr_scheduler_initable_iface_init))

#define PRIV(self) ((GnnLRSchedulerPrivate *) gnn_lr_scheduler_get_instance_private (GNN_LR_SCHEDULER (self)))

static void
gnn_lr_scheduler_finalize (GObject *object)
{
  GnnLRSchedulerPrivate *priv = PRIV (object);

  g_clear_object (&priv->optimizer);
  g_clear_error (&priv->init_error);
  g_array_unref (priv->base_lrs);
  g_array_unref (priv->last_lrs);
  G_OBJECT_CLASS (gnn_lr_scheduler_parent_class)->finalize (object);
}

static void
gnn_lr_scheduler_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  GnnLRSchedulerPrivate *priv = PRIV (object);

  switch (prop_id)
    {
    case PROP_OPTIMIZER:
      g_value_set_object (value, priv->optimizer);
      break;
    case PROP_LAST_EPOCH:
      g_value_set_int64 (value, priv->initial_last_epoch);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_lr_scheduler_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  GnnLRSchedulerPrivate *priv = PRIV (object);

  switch (prop_id)
    {
    case PROP_OPTIMIZER:
      g_set_object (&priv->optimizer, g_value_get_object (value));
      break;
    case PROP_LAST_EPOCH:
      priv->initial_last_epoch = g_value_get_int64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* --- internals shared with the subclasses ----------------------------------- */

guint
gnn_lr_scheduler_n_groups (GnnLRScheduler *self)
{
  return PRIV (self)->base_lrs->len;
}

const double *
gnn_lr_scheduler_base_lrs (GnnLRScheduler *self)
{
  return (const double *) (gpointer) PRIV (self)->base_lrs->data;
}

void
gnn_lr_scheduler_set_base_lrs (GnnLRScheduler *self,
                               const double   *lrs,
                               guint           n)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  g_array_set_size (priv->base_lrs, 0);
  g_array_append_vals (priv->base_lrs, lrs, n);
}

void
gnn_lr_scheduler_set_position (GnnLRScheduler *self,
                               gint64          last_epoch,
                               gint64          step_count)
{
  PRIV (self)->last_epoch = last_epoch;
  PRIV (self)->step_count = step_count;
}

gint64
gnn_lr_scheduler_get_initial_last_epoch (GnnLRScheduler *self)
{
  return PRIV (self)->initial_last_epoch;
}

/* Sets each group's rate and records them as the last rates. */
void
gnn_lr_scheduler_apply_lrs (GnnLRScheduler *self,
                            const double   *lrs)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  for (guint g = 0; g < priv->base_lrs->len; g++)
    gnn_optimizer_set_group_lr (priv->optimizer, g, lrs[g]);
  gnn_lr_scheduler_record_last_lrs (self);
}

void
gnn_lr_scheduler_record_last_lrs (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  guint n = gnn_optimizer_get_n_param_groups (priv->optimizer);

  g_array_set_size (priv->last_lrs, n);
  for (guint g = 0; g < n; g++)
    g_array_index (priv->last_lrs, double, g) = gnn_optimizer_get_group_lr (priv->optimizer, g);
}

/* PyTorch's _initial_step: the step count restarts, then one step. */
gboolean
gnn_lr_scheduler_initial_step (GnnLRScheduler  *self,
                               GError         **error)
{
  PRIV (self)->step_count = 0;
  return GNN_LR_SCHEDULER_GET_CLASS (self)->step (self, NULL, error);
}

void
gnn_lr_scheduler_set_optimizer (GnnLRScheduler *self,
                                GnnOptimizer   *optimizer)
{
  g_set_object (&PRIV (self)->optimizer, optimizer);
}

gboolean
gnn_lr_scheduler_per_group (GnnLRScheduler  *self,
                            GVariant        *values,
                            guint            n_groups,
                            const char      *what,
                            double          *out,
                            GError         **error)
{
  gsize n = 0;
  const double *v = values != NULL ? g_variant_get_fixed_array (values, &n, sizeof (double)) : NULL;

  if (n != 1 && n != n_groups)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "expected %u values for %s, got %"
                   G_GSIZE_FORMAT, n_groups, what, n);
      return FALSE;
    }
  for (guint g = 0; g < n_groups; g++)
    out[g] = v[n == 1 ? 0 : g];
  return TRUE;
}

gboolean
gnn_optim_group_number (GnnOptimizer  *optimizer,
                        guint          group,
                        const char    *name,
                        double        *out,
                        GError       **error)
{
  g_autoptr (GVariant) v = gnn_optimizer_get_group_option (optimizer, group, name, error);

  if (v == NULL)
    return FALSE;
  if (!gnn_optim_variant_to_double (v, out))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "option '%s' of parameter group %u is not a number",
                   name, group);
      return FALSE;
    }
  return TRUE;
}

void
gnn_optim_group_set_number (GnnOptimizer *optimizer,
                            guint         group,
                            const char   *name,
                            double        value)
{
  gnn_optimizer_set_group_option (optimizer, group, name, g_variant_new_double (value), NULL);
}

GPtrArray *
gnn_lr_scheduler_children (GListModel  *list,
                           const char  *owner,
                           GError     **error)
{
  g_autoptr (GPtrArray) children = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = list != NULL ? g_list_model_get_n_items (list) : 0;

  for (guint i = 0; i < n; i++)
    {
      GObject *item = g_list_model_get_item (list, i);

      if (!GNN_IS_LR_SCHEDULER (item))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s: schedulers[%u] is %s, not a scheduler",
                       owner, i, item != NULL ? G_OBJECT_TYPE_NAME (item) : "NULL");
          g_clear_object (&item);
          return NULL;
        }
      g_ptr_array_add (children, item);
    }
  return g_steal_pointer (&children);
}

void
gnn_lr_scheduler_save_children (GPtrArray    *children,
                                GnnStateDict *sd)
{
  for (guint i = 0; children != NULL && i < children->len; i++)
    {
      g_autoptr (GnnStateDict) child = gnn_lr_scheduler_state_dict (children->pdata[i]);
      g_auto (GStrv) keys = gnn_state_dict_get_metadata_keys (child);

      for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
        {
          g_autofree char *key = g_strdup_printf ("_schedulers.%u.%s", i, keys[k]);
          gnn_state_dict_set_metadata (sd, key, gnn_state_dict_get_metadata (child, keys[k]));
        }
    }
}

gboolean
gnn_lr_scheduler_load_children (GPtrArray     *children,
                                GnnStateDict  *sd,
                                GError       **error)
{
  g_autoptr (GPtrArray) before = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto (GStrv) keys = gnn_state_dict_get_metadata_keys (sd);

  for (guint i = 0; children != NULL && i < children->len; i++)
    {
      g_autoptr (GnnStateDict) child = gnn_state_dict_new ();
      g_autofree char *prefix = g_strdup_printf ("_schedulers.%u.", i);

      for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
        if (g_str_has_prefix (keys[k], prefix))
          gnn_state_dict_set_metadata (child, keys[k] + strlen (prefix),
                                       gnn_state_dict_get_metadata (sd, keys[k]));
      g_ptr_array_add (before, gnn_lr_scheduler_state_dict (children->pdata[i]));
      if (!gnn_lr_scheduler_load_state_dict (children->pdata[i], child, error))
        {
          /* put back the ones already loaded */
          for (guint j = 0; j < i; j++)
            gnn_lr_scheduler_load_state_dict (children->pdata[j], before->pdata[j], NULL);
          return FALSE;
        }
    }
  return TRUE;
}

/* The optimizer's group count must still cover the base rates. */
static gboolean
check_groups (GnnLRScheduler  *self,
              GError         **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  guint n = gnn_optimizer_get_n_param_groups (priv->optimizer);

  if (n < priv->base_lrs->len)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: the optimizer has %u parameter groups, the scheduler schedules %u",
                   gnn_optim_type_name (self), n, priv->base_lrs->len);
      return FALSE;
    }
  return TRUE;
}

/* --- the default steps ---------------------------------------------------------- */

static gboolean
gnn_lr_scheduler_real_step (GnnLRScheduler  *self,
                            const double    *epoch,
                            GError         **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  GnnLRSchedulerClass *klass = GNN_LR_SCHEDULER_GET_CLASS (self);
  g_autofree double *lrs = NULL;
  gint64 saved_epoch = priv->last_epoch, saved_count = priv->step_count;
  gboolean ok = TRUE;

  if (!check_groups (self, error))
    return FALSE;
  lrs = g_new0 (double, MAX (priv->base_lrs->len, 1));
  priv->step_count++;
  if (epoch == NULL)
    {
      priv->last_epoch++;
      ok = klass->get_lr (self, lrs, error);
    }
  else
    {
      priv->last_epoch = (gint64) floor (*epoch);
      if (klass->get_closed_form_lr != NULL)
        klass->get_closed_form_lr (self, lrs);
      else
        ok = klass->get_lr (self, lrs, error);
    }
  if (!ok)
    {
      priv->last_epoch = saved_epoch;
      priv->step_count = saved_count;
      return FALSE;
    }
  gnn_lr_scheduler_apply_lrs (self, lrs);
  return TRUE;
}

static gboolean
gnn_lr_scheduler_real_initialize (GnnLRScheduler  *self,
                                  GError         **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  guint n = gnn_optimizer_get_n_param_groups (priv->optimizer);
  g_autoptr (GArray) base = g_array_new (FALSE, TRUE, sizeof (double));

  for (guint g = 0; g < n; g++)
    {
      g_autoptr (GVariant) initial = NULL;
      double lr;

      if (priv->initial_last_epoch == -1)
        lr = gnn_optimizer_setdefault_initial_lr (priv->optimizer, g);
      else if ((initial = gnn_optimizer_get_group_option (priv->optimizer, g, "initial_lr", NULL)) == NULL ||
               !gnn_optim_variant_to_double (initial, &lr))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "param 'initial_lr' is not specified in param_groups[%u] when resuming "
                       "an optimizer", g);
          return FALSE;
        }
      g_array_append_val (base, lr);
    }
  gnn_lr_scheduler_set_base_lrs (self, (const double *) (gpointer) base->data, base->len);
  priv->last_epoch = priv->initial_last_epoch;
  return gnn_lr_scheduler_initial_step (self, error);
}

static gboolean
gnn_lr_scheduler_initable_init (GInitable     *initable,
                                GCancellable  *cancellable,
                                GError       **error)
{
  GnnLRScheduler *self = GNN_LR_SCHEDULER (initable);
  GnnLRSchedulerPrivate *priv = PRIV (self);
  GnnLRSchedulerClass *klass = GNN_LR_SCHEDULER_GET_CLASS (self);

  (void) cancellable;
  if (priv->initialized)
    return TRUE;
  if (priv->init_error != NULL)
    {
      g_propagate_error (error, g_error_copy (priv->init_error));
      return FALSE;
    }
  if (priv->optimizer == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s needs an optimizer",
                   gnn_optim_type_name (self));
      return FALSE;
    }
  if (klass->get_lr == NULL && klass->step == gnn_lr_scheduler_real_step)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement get_lr", G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  if (klass->validate != NULL && !klass->validate (self, error))
    return FALSE;
  if (!klass->initialize (self, error))
    return FALSE;
  priv->initialized = TRUE;
  return TRUE;
}

static void
gnn_lr_scheduler_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_lr_scheduler_initable_init;
}

static void
gnn_lr_scheduler_constructed (GObject *object)
{
  G_OBJECT_CLASS (gnn_lr_scheduler_parent_class)->constructed (object);
  /* Like PyTorch's constructor: validate and take the initial step now, so
   * that g_object_new() (and bindings' keyword constructors) give a ready
   * scheduler. A failure is kept and reported by init and step. */
  g_initable_init (G_INITABLE (object), NULL, &PRIV (object)->init_error);
}

static void
gnn_lr_scheduler_class_init (GnnLRSchedulerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_lr_scheduler_finalize;
  object_class->constructed = gnn_lr_scheduler_constructed;
  object_class->get_property = gnn_lr_scheduler_get_property;
  object_class->set_property = gnn_lr_scheduler_set_property;
  klass->initialize = gnn_lr_scheduler_real_initialize;
  klass->step = gnn_lr_scheduler_real_step;

  /**
   * GnnLRScheduler:optimizer:
   *
   * The optimizer whose learning rates are scheduled.
   *
   * Since: 0.1
   */
  properties[PROP_OPTIMIZER] =
    g_param_spec_object ("optimizer", NULL, NULL, GNN_TYPE_OPTIMIZER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnLRScheduler:last-epoch:
   *
   * The epoch to resume from (PyTorch's `last_epoch` argument): -1 starts
   * afresh; another value needs every group's `initial_lr`, from an
   * optimizer state dict. The current epoch is
   * [method@Gnn.LRScheduler.get_last_epoch].
   *
   * Since: 0.1
   */
  properties[PROP_LAST_EPOCH] =
    g_param_spec_int64 ("last-epoch", NULL, NULL, -1, G_MAXINT64 / 4, -1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_lr_scheduler_init (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  priv->initial_last_epoch = -1;
  priv->last_epoch = -1;
  priv->base_lrs = g_array_new (FALSE, TRUE, sizeof (double));
  priv->last_lrs = g_array_new (FALSE, TRUE, sizeof (double));
}

/* --- public API --------------------------------------------------------------- */

/**
 * gnn_lr_scheduler_get_optimizer:
 * @self: a scheduler
 *
 * Gets the optimizer whose learning rates the scheduler sets.
 *
 * Returns: (transfer none) (nullable): the scheduled optimizer
 *
 * Since: 0.1
 */
GnnOptimizer *
gnn_lr_scheduler_get_optimizer (GnnLRScheduler *self)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  return PRIV (self)->optimizer;
}

/**
 * gnn_lr_scheduler_step:
 * @self: a scheduler
 *
 * Advances to the next epoch and sets each group's learning rate to the
 * schedule's value for it, like PyTorch's `scheduler.step()`. On failure
 * (invalid settings, an `lr_lambda` that failed, a OneCycleLR past its
 * total steps) nothing changes.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_lr_scheduler_step (GnnLRScheduler  *self,
                       GError         **error)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), FALSE);

  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return FALSE;
  return GNN_LR_SCHEDULER_GET_CLASS (self)->step (self, NULL, error);
}

/**
 * gnn_lr_scheduler_step_to_epoch:
 * @self: a scheduler
 * @epoch: the epoch to go to
 *
 * PyTorch's `scheduler.step(epoch)`: sets the epoch and the rates of its
 * closed form where the schedule has one (deprecated in PyTorch, except
 * for CosineAnnealingWarmRestarts, whose fractional epochs place a step
 * within an epoch).
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_lr_scheduler_step_to_epoch (GnnLRScheduler  *self,
                                double           epoch,
                                GError         **error)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), FALSE);

  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return FALSE;
  if (!isfinite (epoch) || fabs (epoch) > (double) (G_MAXINT64 / 4))
    {
      g_autofree char *text = gnn_optim_format_float (epoch);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: epoch %s is out of range", gnn_optim_type_name (self), text);
      return FALSE;
    }
  return GNN_LR_SCHEDULER_GET_CLASS (self)->step (self, &epoch, error);
}

/**
 * gnn_lr_scheduler_get_last_lr:
 * @self: a scheduler
 *
 * Gets the learning rate of the first group set by the last step.
 *
 * Returns: PyTorch's `get_last_lr()[0]`
 *
 * Since: 0.1
 */
double
gnn_lr_scheduler_get_last_lr (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), 0.0);
  priv = PRIV (self);
  return priv->last_lrs->len > 0 ? g_array_index (priv->last_lrs, double, 0) : 0.0;
}

/**
 * gnn_lr_scheduler_get_last_lrs:
 * @self: a scheduler
 * @n_lrs: (out): the number of rates
 *
 * Gets the learning rates the last step left in the groups.
 *
 * Returns: (array length=n_lrs) (transfer full): PyTorch's `get_last_lr()`
 *
 * Since: 0.1
 */
double *
gnn_lr_scheduler_get_last_lrs (GnnLRScheduler *self,
                               guint          *n_lrs)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  g_return_val_if_fail (n_lrs != NULL, NULL);
  priv = PRIV (self);
  *n_lrs = priv->last_lrs->len;
  return g_memdup2 (priv->last_lrs->data, MAX (priv->last_lrs->len, 1) * sizeof (double));
}

/**
 * gnn_lr_scheduler_get_base_lr:
 * @self: a scheduler
 *
 * Gets the base learning rate of the first group.
 *
 * Returns: PyTorch's `base_lrs[0]`
 *
 * Since: 0.1
 */
double
gnn_lr_scheduler_get_base_lr (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), 0.0);
  priv = PRIV (self);
  return priv->base_lrs->len > 0 ? g_array_index (priv->base_lrs, double, 0) : 0.0;
}

/**
 * gnn_lr_scheduler_get_base_lrs:
 * @self: a scheduler
 * @n_lrs: (out): the number of rates
 *
 * Gets the base learning rates (each group's `initial_lr` when the
 * scheduler was made).
 *
 * Returns: (array length=n_lrs) (transfer full): PyTorch's `base_lrs`
 *
 * Since: 0.1
 */
double *
gnn_lr_scheduler_get_base_lrs (GnnLRScheduler *self,
                               guint          *n_lrs)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  g_return_val_if_fail (n_lrs != NULL, NULL);
  priv = PRIV (self);
  *n_lrs = priv->base_lrs->len;
  return g_memdup2 (priv->base_lrs->data, MAX (priv->base_lrs->len, 1) * sizeof (double));
}

/**
 * gnn_lr_scheduler_get_last_epoch:
 * @self: a scheduler
 *
 * Gets the index of the last epoch.
 *
 * Returns: PyTorch's `last_epoch` (0 after construction)
 *
 * Since: 0.1
 */
gint64
gnn_lr_scheduler_get_last_epoch (GnnLRScheduler *self)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), -1);
  return PRIV (self)->last_epoch;
}

/**
 * gnn_lr_scheduler_get_step_count:
 * @self: a scheduler
 *
 * Gets the number of steps taken, counting the initial one (PyTorch's
 * `_step_count`), which some schedules consult.
 *
 * Returns: the number of steps
 *
 * Since: 0.1
 */
gint64
gnn_lr_scheduler_get_step_count (GnnLRScheduler *self)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), 0);
  return PRIV (self)->step_count;
}

/* --- state dicts ------------------------------------------------------------- */

static const char * const base_keys[] = { "last_epoch", "_step_count", "base_lrs", "_last_lr", NULL };

/**
 * gnn_lr_scheduler_state_dict:
 * @self: a scheduler
 *
 * Gets the scheduler's state as string metadata (no tensors), under
 * PyTorch's names: `last_epoch`, `_step_count`, `base_lrs`, `_last_lr`, the
 * subclass's settings (such as `step_size` and `gamma`) and counters (such
 * as CosineAnnealingWarmRestarts' `T_cur`). Schedulers made of schedulers
 * nest theirs under `_schedulers.<index>.`.
 *
 * Returns: (transfer full): a new state dict
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_lr_scheduler_state_dict (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;
  GnnLRSchedulerClass *klass;
  GnnStateDict *sd;
  g_autofree char *epoch = NULL, *count = NULL, *base = NULL, *last = NULL;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  priv = PRIV (self);
  klass = GNN_LR_SCHEDULER_GET_CLASS (self);
  sd = gnn_state_dict_new ();
  epoch = g_strdup_printf ("%" G_GINT64_FORMAT, priv->last_epoch);
  count = g_strdup_printf ("%" G_GINT64_FORMAT, priv->step_count);
  base = gnn_optim_doubles_to_text ((const double *) (gpointer) priv->base_lrs->data, priv->base_lrs->len);
  last = gnn_optim_doubles_to_text ((const double *) (gpointer) priv->last_lrs->data, priv->last_lrs->len);
  gnn_state_dict_set_metadata (sd, "last_epoch", epoch);
  gnn_state_dict_set_metadata (sd, "_step_count", count);
  gnn_state_dict_set_metadata (sd, "base_lrs", base);
  gnn_state_dict_set_metadata (sd, "_last_lr", last);
  gnn_optim_props_to_metadata (G_OBJECT (self), "", sd);
  if (klass->save_state != NULL)
    klass->save_state (self, sd);
  return sd;
}

/* The keys the subclass saves beyond the base's and its properties. */
static GStrv
subclass_keys (GnnLRScheduler *self)
{
  GnnLRSchedulerClass *klass = GNN_LR_SCHEDULER_GET_CLASS (self);
  g_autoptr (GnnStateDict) scratch = gnn_state_dict_new ();
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) keys = NULL;

  g_strv_builder_addv (builder, (const char **) base_keys);
  if (klass->save_state != NULL)
    klass->save_state (self, scratch);
  keys = gnn_state_dict_get_metadata_keys (scratch);
  if (keys != NULL)
    g_strv_builder_addv (builder, (const char **) keys);
  return g_strv_builder_end (builder);
}

/**
 * gnn_lr_scheduler_load_state_dict:
 * @self: a scheduler
 * @state_dict: a state dict from [method@Gnn.LRScheduler.state_dict]
 *
 * Restores the scheduler's position, settings and counters (not the
 * optimizer's rates: load the optimizer's own state dict for those). Every
 * key is checked before anything changes.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_lr_scheduler_load_state_dict (GnnLRScheduler  *self,
                                  GnnStateDict    *state_dict,
                                  GError         **error)
{
  GnnLRSchedulerPrivate *priv;
  GnnLRSchedulerClass *klass;
  g_autoptr (GArray) values = NULL;
  g_autoptr (GArray) base = NULL;
  g_autoptr (GArray) last = NULL;
  g_auto (GStrv) allowed = NULL;
  gint64 last_epoch, step_count;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), FALSE);
  g_return_val_if_fail (GNN_IS_STATE_DICT (state_dict), FALSE);
  priv = PRIV (self);
  klass = GNN_LR_SCHEDULER_GET_CLASS (self);

  if (!gnn_optim_parse_int64 (gnn_state_dict_get_metadata (state_dict, "last_epoch"),
                              "last_epoch", &last_epoch, error) ||
      !gnn_optim_parse_int64 (gnn_state_dict_get_metadata (state_dict, "_step_count"),
                              "_step_count", &step_count, error) ||
      (base = gnn_optim_doubles_from_text (gnn_state_dict_get_metadata (state_dict, "base_lrs"),
                                           "base_lrs", error)) == NULL ||
      (last = gnn_optim_doubles_from_text (gnn_state_dict_get_metadata (state_dict, "_last_lr"),
                                           "_last_lr", error)) == NULL)
    return FALSE;
  allowed = subclass_keys (self);
  values = gnn_optim_props_from_metadata (G_OBJECT (self), "", state_dict,
                                          (const char * const *) allowed, error);
  if (values == NULL)
    return FALSE;
  if (klass->load_state != NULL && !klass->load_state (self, state_dict, error))
    return FALSE;

  gnn_optim_props_apply (G_OBJECT (self), values);
  priv->last_epoch = last_epoch;
  priv->step_count = step_count;
  g_array_set_size (priv->base_lrs, 0);
  g_array_append_vals (priv->base_lrs, base->data, base->len);
  g_array_set_size (priv->last_lrs, 0);
  g_array_append_vals (priv->last_lrs, last->data, last->len);
  if (priv->optimizer != NULL)
    {
      /* a restored scheduler continues from the saved epoch */
      priv->initialized = TRUE;
      g_clear_error (&priv->init_error);
    }
  return TRUE;
}
