/* gnn-selu.h: the SELU activation (torch.nn.SELU)
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

#define GNN_TYPE_SELU (gnn_selu_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSELU, gnn_selu, GNN, SELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSELU *gnn_selu_new (gboolean  inplace);

G_END_DECLS
