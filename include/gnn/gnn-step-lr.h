/* gnn-step-lr.h: learning rate decayed by gamma every step_size epochs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_STEP_LR (gnn_step_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnStepLR, gnn_step_lr, GNN, STEP_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnStepLR      *gnn_step_lr_new (GnnOptimizer  *optimizer,
                                 gint64         step_size,
                                 double         gamma,
                                 GError       **error);

G_END_DECLS
