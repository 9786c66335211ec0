/* gnn-gelu.h: the Gaussian error linear unit (torch.nn.GELU)
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

#define GNN_TYPE_GELU (gnn_gelu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGELU, gnn_gelu, GNN, GELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnGELU *gnn_gelu_new (const char * approximate);
GNN_AVAILABLE_IN_ALL
const char *gnn_gelu_get_approximate (GnnGELU *self);

G_END_DECLS
