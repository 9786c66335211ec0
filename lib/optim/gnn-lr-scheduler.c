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
 * The base class of learning-rate schedulers, like PyTorch's
 * `torch.optim.lr_scheduler._LRScheduler`: it drives the
 * [property@Gnn.Optimizer:lr] of an optimizer. Creating a scheduler records
 * the optimizer's rate as its base rate (PyTorch's `initial_lr`, shared by
 * every scheduler of that optimizer) and performs the initial step (epoch
 * 0); each [method@Gnn.LRScheduler.step] then advances
 * [property@Gnn.LRScheduler:last-epoch] and sets the rate that the
 * subclass's `get_lr` computes. Call it after [method@Gnn.Optimizer.step],
 * once per epoch.
 *
 * Schedulers implement [iface@Gio.Initable]: the settings are checked and
 * the initial step is taken when the object is constructed (subclasses
 * therefore install their settings with %G_PARAM_CONSTRUCT, so they are set
 * by then); a failure is reported by g_initable_init() and by every later
 * step.
 *
 * [method@Gnn.LRScheduler.state_dict] saves `last_epoch`, `step_count`,
 * `base_lr`, `last_lr` and the subclass's settings as string metadata.
 *
 * Since: 1.0
 */

typedef struct
{
  GnnOptimizer *optimizer;
  double        base_lr;
  double        last_lr;
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

static void
gnn_lr_scheduler_finalize (GObject *object)
{
  GnnLRSchedulerPrivate *priv = gnn_lr_scheduler_get_instance_private (GNN_LR_SCHEDULER (object));

  g_clear_object (&priv->optimizer);
  g_clear_error (&priv->init_error);
  G_OBJECT_CLASS (gnn_lr_scheduler_parent_class)->finalize (object);
}

static void
gnn_lr_scheduler_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  GnnLRSchedulerPrivate *priv = gnn_lr_scheduler_get_instance_private (GNN_LR_SCHEDULER (object));

  switch (prop_id)
    {
    case PROP_OPTIMIZER:
      g_value_set_object (value, priv->optimizer);
      break;
    case PROP_LAST_EPOCH:
      g_value_set_int64 (value, priv->last_epoch);
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
  GnnLRSchedulerPrivate *priv = gnn_lr_scheduler_get_instance_private (GNN_LR_SCHEDULER (object));

  switch (prop_id)
    {
    case PROP_OPTIMIZER:
      g_set_object (&priv->optimizer, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
advance (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv = gnn_lr_scheduler_get_instance_private (self);
  double lr;

  priv->step_count++;
  priv->last_epoch++;
  lr = GNN_LR_SCHEDULER_GET_CLASS (self)->get_lr (self);
  gnn_optimizer_set_lr (priv->optimizer, lr);
  priv->last_lr = lr;
}

static gboolean
gnn_lr_scheduler_initable_init (GInitable     *initable,
                                GCancellable  *cancellable,
                                GError       **error)
{
  GnnLRScheduler *self = GNN_LR_SCHEDULER (initable);
  GnnLRSchedulerPrivate *priv = gnn_lr_scheduler_get_instance_private (self);
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
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s needs an optimizer", G_OBJECT_TYPE_NAME (self) + 3);
      return FALSE;
    }
  if (klass->get_lr == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement get_lr", G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  if (klass->validate != NULL && !klass->validate (self, error))
    return FALSE;

  priv->base_lr = gnn_optimizer_setdefault_initial_lr (priv->optimizer);
  priv->last_epoch = -1;
  priv->step_count = 0;
  priv->initialized = TRUE;
  advance (self);
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
  GnnLRSchedulerPrivate *priv = gnn_lr_scheduler_get_instance_private (GNN_LR_SCHEDULER (object));

  G_OBJECT_CLASS (gnn_lr_scheduler_parent_class)->constructed (object);
  /* Like PyTorch's constructor: validate and take the initial step now, so
   * that g_object_new() (and bindings' keyword constructors) give a ready
   * scheduler. A failure is kept and reported by init and step. */
  g_initable_init (G_INITABLE (object), NULL, &priv->init_error);
}

static void
gnn_lr_scheduler_class_init (GnnLRSchedulerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_lr_scheduler_finalize;
  object_class->constructed = gnn_lr_scheduler_constructed;
  object_class->get_property = gnn_lr_scheduler_get_property;
  object_class->set_property = gnn_lr_scheduler_set_property;

  /**
   * GnnLRScheduler:optimizer:
   *
   * The optimizer whose learning rate is scheduled.
   *
   * Since: 1.0
   */
  properties[PROP_OPTIMIZER] =
    g_param_spec_object ("optimizer", NULL, NULL, GNN_TYPE_OPTIMIZER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnLRScheduler:last-epoch:
   *
   * The index of the last epoch (0 after construction).
   *
   * Since: 1.0
   */
  properties[PROP_LAST_EPOCH] =
    g_param_spec_int64 ("last-epoch", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_lr_scheduler_init (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv = gnn_lr_scheduler_get_instance_private (self);

  priv->last_epoch = -1;
}

/**
 * gnn_lr_scheduler_get_optimizer:
 * @self: a scheduler
 *
 * Gets the optimizer whose learning rate the scheduler sets.
 *
 * Returns: (transfer none) (nullable): the scheduled optimizer
 *
 * Since: 1.0
 */
GnnOptimizer *
gnn_lr_scheduler_get_optimizer (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  priv = gnn_lr_scheduler_get_instance_private (self);
  return priv->optimizer;
}

/**
 * gnn_lr_scheduler_step:
 * @self: a scheduler
 *
 * Advances to the next epoch and sets the optimizer's learning rate to the
 * schedule's value for it, like PyTorch's `scheduler.step()`.
 *
 * Returns: %TRUE on success, %FALSE with @error set (the scheduler's
 *   settings were invalid)
 *
 * Since: 1.0
 */
gboolean
gnn_lr_scheduler_step (GnnLRScheduler  *self,
                       GError         **error)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), FALSE);

  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return FALSE;
  advance (self);
  return TRUE;
}

/**
 * gnn_lr_scheduler_get_last_lr:
 * @self: a scheduler
 *
 * Gets the learning rate set by the last step.
 *
 * Returns: the learning rate the last step set (PyTorch's
 *   `get_last_lr()[0]`)
 *
 * Since: 1.0
 */
double
gnn_lr_scheduler_get_last_lr (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), 0.0);
  priv = gnn_lr_scheduler_get_instance_private (self);
  return priv->last_lr;
}

/**
 * gnn_lr_scheduler_get_base_lr:
 * @self: a scheduler
 *
 * Gets the learning rate the optimizer started with.
 *
 * Returns: the optimizer's initial learning rate (PyTorch's `base_lrs[0]`)
 *
 * Since: 1.0
 */
double
gnn_lr_scheduler_get_base_lr (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), 0.0);
  priv = gnn_lr_scheduler_get_instance_private (self);
  return priv->base_lr;
}

/**
 * gnn_lr_scheduler_get_last_epoch:
 * @self: a scheduler
 *
 * Gets the index of the last epoch.
 *
 * Returns: [property@Gnn.LRScheduler:last-epoch]
 *
 * Since: 1.0
 */
gint64
gnn_lr_scheduler_get_last_epoch (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), -1);
  priv = gnn_lr_scheduler_get_instance_private (self);
  return priv->last_epoch;
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
 * Since: 1.0
 */
gint64
gnn_lr_scheduler_get_step_count (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), 0);
  priv = gnn_lr_scheduler_get_instance_private (self);
  return priv->step_count;
}

/**
 * gnn_lr_scheduler_state_dict:
 * @self: a scheduler
 *
 * Gets the scheduler's state as string metadata (no tensors): `last_epoch`,
 * `step_count`, `base_lr`, `last_lr` and the subclass's settings (such as
 * `step_size` and `gamma`).
 *
 * Returns: (transfer full): a new state dict
 *
 * Since: 1.0
 */
GnnStateDict *
gnn_lr_scheduler_state_dict (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv;
  GnnStateDict *sd;
  g_autofree char *base = NULL, *last = NULL, *epoch = NULL, *count = NULL;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  priv = gnn_lr_scheduler_get_instance_private (self);
  sd = gnn_state_dict_new ();
  epoch = g_strdup_printf ("%" G_GINT64_FORMAT, priv->last_epoch);
  count = g_strdup_printf ("%" G_GINT64_FORMAT, priv->step_count);
  base = gnn_format_double_shortest (priv->base_lr);
  last = gnn_format_double_shortest (priv->last_lr);
  gnn_state_dict_set_metadata (sd, "last_epoch", epoch);
  gnn_state_dict_set_metadata (sd, "step_count", count);
  gnn_state_dict_set_metadata (sd, "base_lr", base);
  gnn_state_dict_set_metadata (sd, "last_lr", last);
  gnn_optim_props_to_metadata (G_OBJECT (self), GNN_TYPE_LR_SCHEDULER, "", sd);
  return sd;
}

/**
 * gnn_lr_scheduler_load_state_dict:
 * @self: a scheduler
 * @state_dict: a state dict from [method@Gnn.LRScheduler.state_dict]
 *
 * Restores the scheduler's position and settings (not the optimizer's
 * rate: load the optimizer's own state dict for that). Every key is
 * checked before anything changes.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 1.0
 */
gboolean
gnn_lr_scheduler_load_state_dict (GnnLRScheduler  *self,
                                  GnnStateDict    *state_dict,
                                  GError         **error)
{
  static const char * const extra_keys[] = { "last_epoch", "step_count", "base_lr", "last_lr", NULL };
  GnnLRSchedulerPrivate *priv;
  g_autoptr (GArray) staged = NULL;
  gint64 last_epoch, step_count;
  double base_lr, last_lr;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), FALSE);
  g_return_val_if_fail (GNN_IS_STATE_DICT (state_dict), FALSE);
  priv = gnn_lr_scheduler_get_instance_private (self);

  for (guint i = 0; extra_keys[i] != NULL; i++)
    if (gnn_state_dict_get_metadata (state_dict, extra_keys[i]) == NULL)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                     "missing key in state dict: '%s'", extra_keys[i]);
        return FALSE;
      }
  if (!gnn_optim_parse_int64 (gnn_state_dict_get_metadata (state_dict, "last_epoch"),
                              "last_epoch", &last_epoch, error) ||
      !gnn_optim_parse_int64 (gnn_state_dict_get_metadata (state_dict, "step_count"),
                              "step_count", &step_count, error) ||
      !gnn_optim_parse_double (gnn_state_dict_get_metadata (state_dict, "base_lr"),
                               "base_lr", &base_lr, error) ||
      !gnn_optim_parse_double (gnn_state_dict_get_metadata (state_dict, "last_lr"),
                               "last_lr", &last_lr, error))
    return FALSE;
  staged = gnn_optim_props_from_metadata (G_OBJECT (self), GNN_TYPE_LR_SCHEDULER, "",
                                          state_dict, extra_keys, error);
  if (staged == NULL)
    return FALSE;

  gnn_optim_props_apply (G_OBJECT (self), staged);
  priv->last_epoch = last_epoch;
  priv->step_count = step_count;
  priv->base_lr = base_lr;
  priv->last_lr = last_lr;
  if (priv->optimizer != NULL)
    {
      /* a restored scheduler continues from the saved epoch */
      priv->initialized = TRUE;
      g_clear_error (&priv->init_error);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_EPOCH]);
  return TRUE;
}
