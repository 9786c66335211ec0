/* gnn-sigmoid.h: the logistic sigmoid (torch.nn.Sigmoid)
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

#define GNN_TYPE_SIGMOID (gnn_sigmoid_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSigmoid, gnn_sigmoid, GNN, SIGMOID, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSigmoid *gnn_sigmoid_new (void);

G_END_DECLS
