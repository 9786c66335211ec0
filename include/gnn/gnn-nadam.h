/* gnn-nadam.h: NAdam (Adam with Nesterov momentum)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-optimizer.h>

G_BEGIN_DECLS

#define GNN_TYPE_NADAM (gnn_nadam_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnNAdam, gnn_nadam, GNN, NADAM, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnNAdam *gnn_nadam_new (GPtrArray  *params,
                         double      lr,
                         GError    **error);

G_END_DECLS
