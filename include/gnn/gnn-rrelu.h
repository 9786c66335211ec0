/* gnn-rrelu.h: the RReLU activation (torch.nn.RReLU)
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

#define GNN_TYPE_RRELU (gnn_rrelu_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRReLU, gnn_rrelu, GNN, RRELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnRReLU *gnn_rrelu_new (double    lower,
                         double    upper,
                         gboolean  inplace);

G_END_DECLS
