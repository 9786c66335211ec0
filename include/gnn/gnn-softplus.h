/* gnn-softplus.h: the Softplus activation (torch.nn.Softplus)
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

#define GNN_TYPE_SOFTPLUS (gnn_softplus_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftplus, gnn_softplus, GNN, SOFTPLUS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftplus *gnn_softplus_new (double    beta,
                               double    threshold);

G_END_DECLS
