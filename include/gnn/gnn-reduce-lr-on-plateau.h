/* gnn-reduce-lr-on-plateau.h: learning rate reduced when a metric stops improving
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_REDUCE_LR_ON_PLATEAU (gnn_reduce_lr_on_plateau_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReduceLROnPlateau, gnn_reduce_lr_on_plateau, GNN, REDUCE_LR_ON_PLATEAU, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnReduceLROnPlateau *gnn_reduce_lr_on_plateau_new (GnnOptimizer  *optimizer,
                                                    GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_reduce_lr_on_plateau_step_with_metric (GnnReduceLROnPlateau  *self,
                                                    double                 metric,
                                                    GError               **error);

G_END_DECLS
