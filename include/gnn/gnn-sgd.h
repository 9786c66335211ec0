/* gnn-sgd.h: stochastic gradient descent (with momentum)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-optimizer.h>

G_BEGIN_DECLS

#define GNN_TYPE_SGD (gnn_sgd_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSGD, gnn_sgd, GNN, SGD, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnSGD       *gnn_sgd_new (GPtrArray  *params,
                           double      lr,
                           double      momentum,
                           double      dampening,
                           double      weight_decay,
                           gboolean    nesterov,
                           GError    **error);

G_END_DECLS
