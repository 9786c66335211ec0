/* gnn-prelu.h: the parametric ReLU (torch.nn.PReLU)
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

#define GNN_TYPE_PRELU (gnn_prelu_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPReLU, gnn_prelu, GNN, PRELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnPReLU *gnn_prelu_new (gint      num_parameters,
                         double    init,
                         GError  **error);

G_END_DECLS
