/* gnn-unflatten.h: one dimension into several (torch.nn.Unflatten)
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

#define GNN_TYPE_UNFLATTEN (gnn_unflatten_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUnflatten, gnn_unflatten, GNN, UNFLATTEN, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnUnflatten *gnn_unflatten_new (gint64        dim,
                                 const gint64 *unflattened_size,
                                 guint         n_unflattened_size);

G_END_DECLS
