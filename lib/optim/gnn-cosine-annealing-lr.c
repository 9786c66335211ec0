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
 * Since: 1.0
 */
struct _GnnCosineAnnealingLR
{
  GnnLRScheduler parent_instance;
  gint64         t_max;
  double         eta_min;
};

enum {
  PROP_0,
  PROP_T_MAX,
  PROP_ETA_MIN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnCosineAnnealingLR, gnn_cosine_annealing_lr, GNN_TYPE_LR_SCHEDULER)

static void
gnn_cosine_annealing_lr_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GnnCosineAnnealingLR *self = GNN_COSINE_ANNEALING_LR (object);

  switch (prop_id)
    {
    case PROP_T_MAX:
      g_value_set_int64 (value, self->t_max);
      break;
    case PROP_ETA_MIN:
      g_value_set_double (value, self->eta_min);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_cosine_annealing_lr_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GnnCosineAnnealingLR *self = GNN_COSINE_ANNEALING_LR (object);

  switch (prop_id)
    {
    case PROP_T_MAX:
      self->t_max = g_value_get_int64 (value);
      break;
    case PROP_ETA_MIN:
      self->eta_min = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The GObject range already refuses t_max < 1 on g_object_set; the C
 * constructor checks first so its caller gets a GError, not a warning. */
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
                   G_GINT64_FORMAT,
                   t_max);
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_cosine_annealing_lr_validate (GnnLRScheduler  *scheduler,
                                  GError         **error)
{
  return check_t_max (GNN_COSINE_ANNEALING_LR (scheduler)->t_max, error);
}

/* Python's % (result has the divisor's sign). */
static gint64
py_mod (gint64 a,
        gint64 m)
{
  gint64 r = a % m;

  return r < 0 ? r + m : r;
}

static double
gnn_cosine_annealing_lr_get_lr (GnnLRScheduler *scheduler)
{
  GnnCosineAnnealingLR *self = GNN_COSINE_ANNEALING_LR (scheduler);
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (scheduler);
  double lr = gnn_optimizer_get_lr (gnn_lr_scheduler_get_optimizer (scheduler));
  double base_lr = gnn_lr_scheduler_get_base_lr (scheduler);
  double t_max = (double) self->t_max, eta_min = self->eta_min;

  if (epoch == 0)
    return lr;
  if (gnn_lr_scheduler_get_step_count (scheduler) == 1 && epoch > 0)
    return eta_min + (base_lr - eta_min) * (1 + cos ((double) epoch * G_PI / t_max)) / 2;
  if (py_mod (epoch - 1 - self->t_max, 2 * self->t_max) == 0)
    return lr + (base_lr - eta_min) * (1 - cos (G_PI / t_max)) / 2;
  return (1 + cos (G_PI * (double) epoch / t_max)) /
         (1 + cos (G_PI * (double) (epoch - 1) / t_max)) *
         (lr - eta_min) + eta_min;
}

static void
gnn_cosine_annealing_lr_class_init (GnnCosineAnnealingLRClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnLRSchedulerClass *scheduler_class = GNN_LR_SCHEDULER_CLASS (klass);

  object_class->get_property = gnn_cosine_annealing_lr_get_property;
  object_class->set_property = gnn_cosine_annealing_lr_set_property;
  scheduler_class->validate = gnn_cosine_annealing_lr_validate;
  scheduler_class->get_lr = gnn_cosine_annealing_lr_get_lr;

  /**
   * GnnCosineAnnealingLR:t-max:
   *
   * The number of epochs of a half period (PyTorch's `T_max`, at least 1).
   *
   * Since: 1.0
   */
  properties[PROP_T_MAX] =
    g_param_spec_int64 ("t-max", NULL, NULL, 1, T_MAX_LIMIT, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  /**
   * GnnCosineAnnealingLR:eta-min:
   *
   * The lowest learning rate.
   *
   * Since: 1.0
   */
  properties[PROP_ETA_MIN] =
    g_param_spec_double ("eta-min", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
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
 * Since: 1.0
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
