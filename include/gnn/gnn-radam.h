/* gnn-radam.h: RAdam (rectified Adam)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-optimizer.h>

G_BEGIN_DECLS

#define GNN_TYPE_RADAM (gnn_radam_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRAdam, gnn_radam, GNN, RADAM, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnRAdam *gnn_radam_new (GPtrArray  *params,
                         double      lr,
                         GError    **error);

G_END_DECLS
