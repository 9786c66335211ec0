/* gnn-exponential-lr.h: learning rate decayed by gamma every epoch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_EXPONENTIAL_LR (gnn_exponential_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnExponentialLR, gnn_exponential_lr, GNN, EXPONENTIAL_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnExponentialLR *gnn_exponential_lr_new (GnnOptimizer  *optimizer,
                                          double         gamma,
                                          GError       **error);

G_END_DECLS
