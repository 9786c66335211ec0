/* gnn-adamax.h: Adamax (Adam with the infinity norm)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-optimizer.h>

G_BEGIN_DECLS

#define GNN_TYPE_ADAMAX (gnn_adamax_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdamax, gnn_adamax, GNN, ADAMAX, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnAdamax *gnn_adamax_new (GPtrArray  *params,
                           double      lr,
                           GError    **error);

G_END_DECLS
