/* gnn-non-dynamically-quantizable-linear.h: MultiheadAttention's output
 * projection (torch.nn.modules.linear.NonDynamicallyQuantizableLinear)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-linear.h>

G_BEGIN_DECLS

#define GNN_TYPE_NON_DYNAMICALLY_QUANTIZABLE_LINEAR (gnn_non_dynamically_quantizable_linear_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnNonDynamicallyQuantizableLinear, gnn_non_dynamically_quantizable_linear,
                      GNN, NON_DYNAMICALLY_QUANTIZABLE_LINEAR, GnnLinear)

G_END_DECLS
