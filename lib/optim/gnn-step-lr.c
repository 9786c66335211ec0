/* gnn-step-lr.c: learning rate decayed by gamma every step_size epochs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnStepLR:
 *
 * Multiplies the learning rate by [property@Gnn.StepLR:gamma] every
 * [property@Gnn.StepLR:step-size] epochs, like PyTorch 1.13's
 * `torch.optim.lr_scheduler.StepLR` (recursive form: the current rate is
 * multiplied, so other changes to the rate are kept).
 *
 * Since: 1.0
 */
struct _GnnStepLR
{
  GnnLRScheduler parent_instance;
  gint64         step_size;
  double         gamma;
};

enum {
  PROP_0,
  PROP_STEP_SIZE,
  PROP_GAMMA,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnStepLR, gnn_step_lr, GNN_TYPE_LR_SCHEDULER)

static void
gnn_step_lr_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  GnnStepLR *self = GNN_STEP_LR (object);

  switch (prop_id)
    {
    case PROP_STEP_SIZE:
      g_value_set_int64 (value, self->step_size);
      break;
    case PROP_GAMMA:
      g_value_set_double (value, self->gamma);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_step_lr_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  GnnStepLR *self = GNN_STEP_LR (object);

  switch (prop_id)
    {
    case PROP_STEP_SIZE:
      self->step_size = g_value_get_int64 (value);
      break;
    case PROP_GAMMA:
      self->gamma = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The GObject range already refuses step_size < 1 on g_object_set; the C
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
gnn_step_lr_validate (GnnLRScheduler  *scheduler,
                      GError         **error)
{
  return check_step_size (GNN_STEP_LR (scheduler)->step_size, error);
}

static double
gnn_step_lr_get_lr (GnnLRScheduler *scheduler)
{
  GnnStepLR *self = GNN_STEP_LR (scheduler);
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (scheduler);
  double lr = gnn_optimizer_get_lr (gnn_lr_scheduler_get_optimizer (scheduler));

  if (epoch == 0 || epoch % self->step_size != 0)
    return lr;
  return lr * self->gamma;
}

static void
gnn_step_lr_class_init (GnnStepLRClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);

  object_class->get_property = gnn_step_lr_get_property;
  object_class->set_property = gnn_step_lr_set_property;
  scheduler_class->validate = gnn_step_lr_validate;
  scheduler_class->get_lr = gnn_step_lr_get_lr;

  /**
   * GnnStepLR:step-size:
   *
   * The period of the decay, in epochs (at least 1; GObject refuses smaller
   * values, so a step can never divide by zero).
   *
   * Since: 1.0
   */
  properties[PROP_STEP_SIZE] =
    g_param_spec_int64 ("step-size", NULL, NULL, 1, G_MAXINT64, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  /**
   * GnnStepLR:gamma:
   *
   * The factor applied to the rate every [property@Gnn.StepLR:step-size]
   * epochs.
   *
   * Since: 1.0
   */
  properties[PROP_GAMMA] =
    g_param_spec_double ("gamma", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.1,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_step_lr_init (GnnStepLR *self)
{
  self->gamma = 0.1;
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
 * Since: 1.0
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
