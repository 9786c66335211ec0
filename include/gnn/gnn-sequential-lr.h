/* gnn-sequential-lr.h: schedulers that take turns at milestones
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_SEQUENTIAL_LR (gnn_sequential_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSequentialLR, gnn_sequential_lr, GNN, SEQUENTIAL_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnSequentialLR *gnn_sequential_lr_new (GnnOptimizer    *optimizer,
                                        GnnLRScheduler **schedulers,
                                        guint            n_schedulers,
                                        const gint64    *milestones,
                                        gsize            n_milestones,
                                        GError         **error);

G_END_DECLS
