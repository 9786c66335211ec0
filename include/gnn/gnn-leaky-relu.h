/* gnn-leaky-relu.h: the LeakyReLU activation (torch.nn.LeakyReLU)
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

#define GNN_TYPE_LEAKY_RELU (gnn_leaky_relu_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLeakyReLU, gnn_leaky_relu, GNN, LEAKY_RELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLeakyReLU *gnn_leaky_relu_new (double    negative_slope,
                                  gboolean  inplace);

G_END_DECLS
