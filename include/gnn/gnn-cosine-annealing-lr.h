/* gnn-cosine-annealing-lr.h: cosine-annealed learning rate
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_COSINE_ANNEALING_LR (gnn_cosine_annealing_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCosineAnnealingLR, gnn_cosine_annealing_lr, GNN, COSINE_ANNEALING_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnCosineAnnealingLR *gnn_cosine_annealing_lr_new (GnnOptimizer  *optimizer,
                                             gint64         t_max,
                                             double         eta_min,
                                             GError       **error);

G_END_DECLS
