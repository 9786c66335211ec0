/* gnn-lr-scheduler.h: base class of learning-rate schedulers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-optimizer.h>
#include <gnn/gnn-state-dict.h>

G_BEGIN_DECLS

#define GNN_TYPE_LR_SCHEDULER (gnn_lr_scheduler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnLRScheduler, gnn_lr_scheduler, GNN, LR_SCHEDULER, GObject)

/**
 * GnnLRSchedulerClass:
 * @parent_class: the parent class
 * @validate: checks the schedule's settings (called once, at initialization)
 * @get_lr: computes the learning rate for the current
 *   [property@Gnn.LRScheduler:last-epoch] (already advanced), like
 *   PyTorch's `get_lr()` (it may read the optimizer's current rate)
 *
 * The virtual methods of [class@Gnn.LRScheduler].
 *
 * Since: 1.0
 */
struct _GnnLRSchedulerClass
{
  GObjectClass parent_class;

  gboolean (*validate) (GnnLRScheduler  *self,
                        GError         **error);
  double   (*get_lr)   (GnnLRScheduler  *self);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnOptimizer *gnn_lr_scheduler_get_optimizer  (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_lr_scheduler_step           (GnnLRScheduler  *self,
                                               GError         **error);
GNN_AVAILABLE_IN_ALL
double        gnn_lr_scheduler_get_last_lr    (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
double        gnn_lr_scheduler_get_base_lr    (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
gint64        gnn_lr_scheduler_get_last_epoch (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
gint64        gnn_lr_scheduler_get_step_count (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
GnnStateDict *gnn_lr_scheduler_state_dict    (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_lr_scheduler_load_state_dict (GnnLRScheduler *self,
                                                GnnStateDict   *state_dict,
                                                GError        **error);

G_END_DECLS
