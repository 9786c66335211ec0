/* gnn-relu6.h: the ReLU6 activation (torch.nn.ReLU6)
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

#define GNN_TYPE_RELU6 (gnn_relu6_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReLU6, gnn_relu6, GNN, RELU6, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReLU6 *gnn_relu6_new (gboolean  inplace);

G_END_DECLS
