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
 * @validate: checks the schedule's settings (called once, at initialization,
 *   before anything changes)
 * @initialize: the rest of PyTorch's constructor: the default records each
 *   group's `initial_lr` (or, resuming, requires it), sets the base rates and
 *   takes the initial step; schedules that prepare the groups first
 *   (CyclicLR, OneCycleLR) chain up to it
 * @get_lr: computes the rate of every group (@lrs, one per base rate) for
 *   the current epoch, already advanced, like PyTorch's `get_lr()` (it may
 *   read the groups' current rates: the chainable form)
 * @get_closed_form_lr: the rates at the current epoch computed from the
 *   base rates alone (PyTorch's `_get_closed_form_lr`, used by
 *   [method@Gnn.LRScheduler.step_to_epoch]); %NULL: @get_lr
 * @step: one step, to the next epoch (@epoch %NULL) or to @epoch; the
 *   default advances the epoch and applies @get_lr (or the closed form)
 * @save_state: adds what the subclass keeps beyond its properties (counters
 *   of its own) to @state_dict
 * @load_state: restores what @save_state saved; nothing changes on failure
 *
 * The virtual methods of [class@Gnn.LRScheduler].
 *
 * Since: 0.1
 */
struct _GnnLRSchedulerClass
{
  GObjectClass parent_class;

  gboolean (*validate)           (GnnLRScheduler  *self,
                                  GError         **error);
  gboolean (*initialize)         (GnnLRScheduler  *self,
                                  GError         **error);
  gboolean (*get_lr)             (GnnLRScheduler  *self,
                                  double          *lrs,
                                  GError         **error);
  void     (*get_closed_form_lr) (GnnLRScheduler  *self,
                                  double          *lrs);
  gboolean (*step)               (GnnLRScheduler  *self,
                                  const double    *epoch,
                                  GError         **error);
  void     (*save_state)         (GnnLRScheduler  *self,
                                  GnnStateDict    *state_dict);
  gboolean (*load_state)         (GnnLRScheduler  *self,
                                  GnnStateDict    *state_dict,
                                  GError         **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnOptimizer *gnn_lr_scheduler_get_optimizer  (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_lr_scheduler_step           (GnnLRScheduler  *self,
                                               GError         **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_lr_scheduler_step_to_epoch  (GnnLRScheduler  *self,
                                               double           epoch,
                                               GError         **error);
GNN_AVAILABLE_IN_ALL
double        gnn_lr_scheduler_get_last_lr    (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
double       *gnn_lr_scheduler_get_last_lrs   (GnnLRScheduler  *self,
                                               guint           *n_lrs);
GNN_AVAILABLE_IN_ALL
double        gnn_lr_scheduler_get_base_lr    (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
double       *gnn_lr_scheduler_get_base_lrs   (GnnLRScheduler  *self,
                                               guint           *n_lrs);
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
