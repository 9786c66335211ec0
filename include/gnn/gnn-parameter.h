/* gnn-parameter.h: trainable tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

#define GNN_TYPE_PARAMETER (gnn_parameter_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnParameter, gnn_parameter, GNN, PARAMETER, GnnTensor)

GNN_AVAILABLE_IN_ALL
GnnParameter *gnn_parameter_new (GnnTensor *data,
                                 gboolean   requires_grad);

G_END_DECLS
