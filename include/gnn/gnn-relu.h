/* gnn-relu.h: the rectified linear unit (torch.nn.ReLU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_RELU (gnn_relu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReLU, gnn_relu, GNN, RELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReLU *gnn_relu_new (gboolean     inplace);
GNN_AVAILABLE_IN_ALL
gboolean gnn_relu_get_inplace (GnnReLU *self);

G_END_DECLS
