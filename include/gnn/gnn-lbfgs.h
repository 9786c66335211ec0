/* gnn-lbfgs.h: L-BFGS with an optional strong-Wolfe line search
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-optimizer.h>

G_BEGIN_DECLS

#define GNN_TYPE_LBFGS (gnn_lbfgs_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLBFGS, gnn_lbfgs, GNN, LBFGS, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnLBFGS *gnn_lbfgs_new (GPtrArray  *params,
                         double      lr,
                         GError    **error);

G_END_DECLS
