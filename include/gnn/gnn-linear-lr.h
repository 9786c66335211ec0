/* gnn-linear-lr.h: learning rate scaled by a linearly changing factor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_LINEAR_LR (gnn_linear_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLinearLR, gnn_linear_lr, GNN, LINEAR_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnLinearLR *gnn_linear_lr_new (GnnOptimizer  *optimizer,
                                double         start_factor,
                                double         end_factor,
                                gint64         total_iters,
                                GError       **error);

G_END_DECLS
