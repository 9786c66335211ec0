/* gnn-flatten.h: flattens a range of dimensions (torch.nn.Flatten)
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

#define GNN_TYPE_FLATTEN (gnn_flatten_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFlatten, gnn_flatten, GNN, FLATTEN, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnFlatten *gnn_flatten_new (gint         start_dim,
                             gint         end_dim);
GNN_AVAILABLE_IN_ALL
gint gnn_flatten_get_start_dim (GnnFlatten *self);
GNN_AVAILABLE_IN_ALL
gint gnn_flatten_get_end_dim (GnnFlatten *self);

G_END_DECLS
