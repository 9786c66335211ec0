/* gnn-cosine-annealing-warm-restarts.h: cosine annealing with warm restarts (SGDR)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_COSINE_ANNEALING_WARM_RESTARTS (gnn_cosine_annealing_warm_restarts_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCosineAnnealingWarmRestarts, gnn_cosine_annealing_warm_restarts, GNN, COSINE_ANNEALING_WARM_RESTARTS, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnCosineAnnealingWarmRestarts *gnn_cosine_annealing_warm_restarts_new (GnnOptimizer  *optimizer,
                                                                        gint64         t_0,
                                                                        gint64         t_mult,
                                                                        double         eta_min,
                                                                        GError       **error);

G_END_DECLS
