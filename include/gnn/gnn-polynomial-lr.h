/* gnn-polynomial-lr.h: learning rate decayed by a polynomial
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_POLYNOMIAL_LR (gnn_polynomial_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPolynomialLR, gnn_polynomial_lr, GNN, POLYNOMIAL_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnPolynomialLR *gnn_polynomial_lr_new (GnnOptimizer  *optimizer,
                                        gint64         total_iters,
                                        double         power,
                                        GError       **error);

G_END_DECLS
