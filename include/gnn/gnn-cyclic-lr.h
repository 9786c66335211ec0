/* gnn-cyclic-lr.h: cyclical learning rates (and momentum)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_CYCLIC_LR (gnn_cyclic_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCyclicLR, gnn_cyclic_lr, GNN, CYCLIC_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnCyclicLR *gnn_cyclic_lr_new (GnnOptimizer  *optimizer,
                                double         base_lr,
                                double         max_lr,
                                GError       **error);

G_END_DECLS
