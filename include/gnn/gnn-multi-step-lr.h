/* gnn-multi-step-lr.h: learning rate decayed by gamma at each milestone
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_MULTI_STEP_LR (gnn_multi_step_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiStepLR, gnn_multi_step_lr, GNN, MULTI_STEP_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnMultiStepLR *gnn_multi_step_lr_new (GnnOptimizer  *optimizer,
                                       const gint64  *milestones,
                                       gsize          n_milestones,
                                       double         gamma,
                                       GError       **error);

G_END_DECLS
