/* gnn-one-cycle-lr.h: the 1cycle learning rate policy
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_ONE_CYCLE_LR (gnn_one_cycle_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnOneCycleLR, gnn_one_cycle_lr, GNN, ONE_CYCLE_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnOneCycleLR *gnn_one_cycle_lr_new (GnnOptimizer  *optimizer,
                                     double         max_lr,
                                     gint64         total_steps,
                                     GError       **error);

G_END_DECLS
