/* gnn-adaptive-max-pool1d.h: adaptive max pooling of 1 dimension (torch.nn.AdaptiveMaxPool1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-adaptive-pool-nd.h>

G_BEGIN_DECLS

#define GNN_TYPE_ADAPTIVE_MAX_POOL1D (gnn_adaptive_max_pool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveMaxPool1d, gnn_adaptive_max_pool1d, GNN, ADAPTIVE_MAX_POOL1D, GnnAdaptivePoolNd)

GNN_AVAILABLE_IN_ALL
GnnAdaptiveMaxPool1d *gnn_adaptive_max_pool1d_new (gint64     output_size,
                                                   gboolean   return_indices,
                                                   GError   **error);

G_END_DECLS
