/* gnn-adam.h: Adam (L2 weight decay)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-optimizer.h>

G_BEGIN_DECLS

#define GNN_TYPE_ADAM (gnn_adam_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdam, gnn_adam, GNN, ADAM, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnAdam      *gnn_adam_new (GPtrArray  *params,
                           double      lr,
                           double      beta1,
                           double      beta2,
                           double      eps,
                           double      weight_decay,
                           gboolean    amsgrad,
                           GError    **error);

G_END_DECLS
