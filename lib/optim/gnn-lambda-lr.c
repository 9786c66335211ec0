/* gnn-lambda-lr.c: LambdaLR and MultiplicativeLR, learning rates from a
 * function of the epoch (one implementation, the two formulas)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "optim/gnn-optim-private.h"

/**
 * GnnLambdaLR:
 *
 * PyTorch 1.13's `torch.optim.lr_scheduler.LambdaLR`: each group's rate is
 * its base rate times `lr_lambda (epoch)`, a [callback@Gnn.LRLambdaFunc]
 * given to [ctor@Gnn.LambdaLR.new] (a Python or JavaScript function through
 * the bindings). A function is no property: an object made with
 * g_object_new() has none, and its steps fail saying so.
 *
 * Since: 0.1
 */

/**
 * GnnMultiplicativeLR:
 *
 * PyTorch 1.13's `torch.optim.lr_scheduler.MultiplicativeLR`: from epoch 1
 * on, each step multiplies each group's current rate by `lr_lambda (epoch)`,
 * a [callback@Gnn.LRLambdaFunc] given to [ctor@Gnn.MultiplicativeLR.new].
 *
 * Since: 0.1
 */

typedef struct
{
  GnnLRLambdaFunc func;
  gpointer        data;
  GDestroyNotify  destroy;
} Lambda;

struct _GnnLambdaLR
{
  GnnLRScheduler parent_instance;
  Lambda         lambda;
};

struct _GnnMultiplicativeLR
{
  GnnLRScheduler parent_instance;
  Lambda         lambda;
};

G_DEFINE_FINAL_TYPE (GnnLambdaLR, gnn_lambda_lr, GNN_TYPE_LR_SCHEDULER)
G_DEFINE_FINAL_TYPE (GnnMultiplicativeLR, gnn_multiplicative_lr, GNN_TYPE_LR_SCHEDULER)

G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnLambdaLR, lambda) == G_STRUCT_OFFSET (GnnMultiplicativeLR, lambda));

#define LAMBDA(s) (&((GnnLambdaLR *) (s))->lambda)

/* A function is no property: the constructor hands it to the instance it
 * creates, whose init takes it, so the initial step (run at construction)
 * already has it. */
static GPrivate pending;

static void
take_pending (gpointer self)
{
  Lambda *given = g_private_get (&pending);

  if (given != NULL)
    {
      *LAMBDA (self) = *given;
      g_private_set (&pending, NULL);
    }
}

static void
lambda_finalize (GObject *object)
{
  Lambda *l = LAMBDA (object);

  if (l->destroy != NULL)
    l->destroy (l->data);
}

static gboolean
get_lr (GnnLRScheduler  *self,
        double          *lrs,
        GError         **error)
{
  Lambda *l = LAMBDA (self);
  gboolean multiplicative = GNN_IS_MULTIPLICATIVE_LR (self);
  gint64 epoch = gnn_lr_scheduler_get_last_epoch (self);
  const double *base = gnn_lr_scheduler_base_lrs (self);
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (self);

  if (l->func == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s needs an lr_lambda (given to gnn_%s_new)", gnn_optim_type_name (self),
                   multiplicative ? "multiplicative_lr" : "lambda_lr");
      return FALSE;
    }
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (self); g++)
    {
      g_autoptr (GError) local = NULL;
      double factor = 1;

      if (multiplicative && epoch <= 0)
        {
          lrs[g] = gnn_optimizer_get_group_lr (opt, g);
          continue;
        }
      l->func (epoch, g, &factor, l->data, &local);
      if (local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      lrs[g] = multiplicative ? gnn_optimizer_get_group_lr (opt, g) * factor : base[g] * factor;
    }
  return TRUE;
}

static void
gnn_lambda_lr_finalize (GObject *object)
{
  lambda_finalize (object);
  G_OBJECT_CLASS (gnn_lambda_lr_parent_class)->finalize (object);
}

static void
gnn_multiplicative_lr_finalize (GObject *object)
{
  lambda_finalize (object);
  G_OBJECT_CLASS (gnn_multiplicative_lr_parent_class)->finalize (object);
}

static void
gnn_lambda_lr_class_init (GnnLambdaLRClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_lambda_lr_finalize;
  GNN_LR_SCHEDULER_CLASS (klass)->get_lr = get_lr;
}

static void
gnn_multiplicative_lr_class_init (GnnMultiplicativeLRClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_multiplicative_lr_finalize;
  GNN_LR_SCHEDULER_CLASS (klass)->get_lr = get_lr;
}

static void
gnn_lambda_lr_init (GnnLambdaLR *self)
{
  take_pending (self);
}

static void
gnn_multiplicative_lr_init (GnnMultiplicativeLR *self)
{
  take_pending (self);
}

static gpointer
lambda_new (GType            type,
            GnnOptimizer    *optimizer,
            GnnLRLambdaFunc  lr_lambda,
            gpointer         user_data,
            GDestroyNotify   destroy,
            gint64           last_epoch,
            GError         **error)
{
  Lambda given = { lr_lambda, user_data, destroy };

  if (last_epoch < -1)
    {
      if (destroy != NULL)
        destroy (user_data);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "last_epoch must be -1 or an epoch, got %" G_GINT64_FORMAT, last_epoch);
      return NULL;
    }
  g_private_set (&pending, &given);
  /* the new instance owns the function from its init on, failed or not */
  return g_initable_new (type, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch, NULL);
}

/**
 * gnn_lambda_lr_new:
 * @optimizer: the optimizer to schedule
 * @lr_lambda: (scope notified) (closure user_data) (destroy destroy): the
 *   factor of the base rate for an epoch and group
 * @user_data: data for @lr_lambda
 * @destroy: (nullable): frees @user_data with the scheduler
 * @last_epoch: -1, or the epoch to resume from (PyTorch's `last_epoch`)
 * @error: return location for a #GError
 *
 * Creates a schedule from a function, like `LambdaLR(optimizer, lr_lambda,
 * last_epoch)`, and takes its initial step (which calls @lr_lambda with
 * epoch 0; its error is the constructor's).
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnLambdaLR *
gnn_lambda_lr_new (GnnOptimizer     *optimizer,
                   GnnLRLambdaFunc   lr_lambda,
                   gpointer          user_data,
                   GDestroyNotify    destroy,
                   gint64            last_epoch,
                   GError          **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambda != NULL, NULL);
  return lambda_new (GNN_TYPE_LAMBDA_LR, optimizer, lr_lambda, user_data, destroy, last_epoch, error);
}

/**
 * gnn_multiplicative_lr_new:
 * @optimizer: the optimizer to schedule
 * @lr_lambda: (scope notified) (closure user_data) (destroy destroy): the
 *   factor applied at an epoch, per group
 * @user_data: data for @lr_lambda
 * @destroy: (nullable): frees @user_data with the scheduler
 * @last_epoch: -1, or the epoch to resume from (PyTorch's `last_epoch`)
 * @error: return location for a #GError
 *
 * Creates a multiplicative schedule, like `MultiplicativeLR(optimizer,
 * lr_lambda, last_epoch)`, and takes its initial step.
 *
 * Returns: (transfer full): a new scheduler, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnMultiplicativeLR *
gnn_multiplicative_lr_new (GnnOptimizer     *optimizer,
                           GnnLRLambdaFunc   lr_lambda,
                           gpointer          user_data,
                           GDestroyNotify    destroy,
                           gint64            last_epoch,
                           GError          **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambda != NULL, NULL);
  return lambda_new (GNN_TYPE_MULTIPLICATIVE_LR, optimizer, lr_lambda, user_data, destroy, last_epoch,
                     error);
}
