/* gnn-constant-lr.h: learning rate scaled by a constant factor for a number of epochs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_CONSTANT_LR (gnn_constant_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConstantLR, gnn_constant_lr, GNN, CONSTANT_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnConstantLR *gnn_constant_lr_new (GnnOptimizer  *optimizer,
                                    double         factor,
                                    gint64         total_iters,
                                    GError       **error);

G_END_DECLS
