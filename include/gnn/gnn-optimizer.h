/* gnn-optimizer.h: base class of optimizers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>
#include <gnn/gnn-state-dict.h>

G_BEGIN_DECLS

#define GNN_TYPE_OPTIMIZER (gnn_optimizer_get_type ())

/**
 * GnnOptimizerClosure:
 * @user_data: the data given to [method@Gnn.Optimizer.step_with_closure]
 * @error: return location for a #GError
 *
 * PyTorch's `closure`: re-evaluates the model — clears the gradients,
 * computes the loss, calls backward — and returns the loss. It runs with
 * gradient recording enabled.
 *
 * Returns: (transfer full) (nullable): the loss (a one-element tensor), or
 *   %NULL with @error set to abort the step
 *
 * Since: 0.1
 */
typedef GnnTensor *(*GnnOptimizerClosure) (gpointer   user_data,
                                           GError   **error);

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnOptimizer, gnn_optimizer, GNN, OPTIMIZER, GObject)

/**
 * GnnOptimizerClass:
 * @parent_class: the parent class
 * @validate: checks the hyper-parameters (called once, when the optimizer is
 *   initialized); returns %FALSE and sets an error naming the culprit
 * @step: updates every parameter that has a gradient. The base class has
 *   already checked that each gradient matches its parameter's shape and
 *   dtype, so this only fails on conditions of its own.
 * @validate_state: checks the names in the per-parameter state of
 *   parameter @index that [method@Gnn.Optimizer.load_state_dict] is about to
 *   install (the base class has already checked the shapes); %NULL accepts
 *   any name
 * @step_with_closure: one step with an optional closure; the default calls
 *   the closure (with gradient recording on), then @step. Optimizers that
 *   evaluate the objective several times per step (LBFGS) override it.
 * @init_state: fills the state of parameter @index when it joins the
 *   optimizer (Adagrad's accumulators); %NULL: states start empty and steps
 *   create them
 *
 * The virtual methods of [class@Gnn.Optimizer].
 *
 * Since: 0.1
 */
struct _GnnOptimizerClass
{
  GObjectClass parent_class;

  gboolean (*validate)       (GnnOptimizer  *self,
                              GError       **error);
  gboolean (*step)           (GnnOptimizer  *self,
                              GError       **error);
  gboolean (*validate_state) (GnnOptimizer  *self,
                              guint          index,
                              GnnStateDict  *state,
                              GError       **error);
  gboolean (*step_with_closure) (GnnOptimizer         *self,
                                 GnnOptimizerClosure   closure,
                                 gpointer              user_data,
                                 GnnTensor           **loss,
                                 GError              **error);
  void     (*init_state)     (GnnOptimizer  *self,
                              guint          index,
                              GnnStateDict  *state);

  /*< private >*/
  gpointer padding[6];
};

GNN_AVAILABLE_IN_ALL
gboolean      gnn_optimizer_add_params      (GnnOptimizer  *self,
                                             GPtrArray     *params,
                                             GError       **error);
GNN_AVAILABLE_IN_ALL
guint         gnn_optimizer_get_n_params    (GnnOptimizer  *self);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_optimizer_get_param       (GnnOptimizer  *self,
                                             guint          index);
GNN_AVAILABLE_IN_ALL
GnnStateDict *gnn_optimizer_get_state       (GnnOptimizer  *self,
                                             guint          index);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_optimizer_add_param_group (GnnOptimizer  *self,
                                             GPtrArray     *params,
                                             GVariant      *options,
                                             GError       **error);
GNN_AVAILABLE_IN_ALL
guint         gnn_optimizer_get_n_param_groups (GnnOptimizer *self);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_optimizer_get_group_params (GnnOptimizer  *self,
                                              guint          group);
GNN_AVAILABLE_IN_ALL
char        **gnn_optimizer_list_group_options (GnnOptimizer *self,
                                                guint         group);
GNN_AVAILABLE_IN_ALL
GVariant     *gnn_optimizer_get_group_option (GnnOptimizer  *self,
                                              guint          group,
                                              const char    *name,
                                              GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_optimizer_set_group_option (GnnOptimizer  *self,
                                              guint          group,
                                              const char    *name,
                                              GVariant      *value,
                                              GError       **error);
GNN_AVAILABLE_IN_ALL
double        gnn_optimizer_get_group_lr    (GnnOptimizer  *self,
                                             guint          group);
GNN_AVAILABLE_IN_ALL
void          gnn_optimizer_set_group_lr    (GnnOptimizer  *self,
                                             guint          group,
                                             double         lr);
GNN_AVAILABLE_IN_ALL
double        gnn_optimizer_get_lr          (GnnOptimizer  *self);
GNN_AVAILABLE_IN_ALL
void          gnn_optimizer_set_lr          (GnnOptimizer  *self,
                                             double         lr);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_optimizer_get_maximize    (GnnOptimizer  *self);
GNN_AVAILABLE_IN_ALL
void          gnn_optimizer_set_maximize    (GnnOptimizer  *self,
                                             gboolean       maximize);
GNN_AVAILABLE_IN_ALL
void          gnn_optimizer_zero_grad       (GnnOptimizer  *self,
                                             gboolean       set_to_none);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_optimizer_step            (GnnOptimizer  *self,
                                             GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_optimizer_step_with_closure (GnnOptimizer         *self,
                                               GnnOptimizerClosure   closure,
                                               gpointer              user_data,
                                               GnnTensor           **loss,
                                               GError              **error);
GNN_AVAILABLE_IN_ALL
guint64       gnn_optimizer_get_step_count  (GnnOptimizer  *self);
GNN_AVAILABLE_IN_ALL
GnnStateDict *gnn_optimizer_state_dict      (GnnOptimizer  *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_optimizer_load_state_dict (GnnOptimizer  *self,
                                             GnnStateDict  *state_dict,
                                             GError       **error);

G_END_DECLS
