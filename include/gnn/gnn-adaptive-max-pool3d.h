/* gnn-adaptive-max-pool3d.h: adaptive max pooling of 3 dimensions (torch.nn.AdaptiveMaxPool3d)
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

#define GNN_TYPE_ADAPTIVE_MAX_POOL3D (gnn_adaptive_max_pool3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveMaxPool3d, gnn_adaptive_max_pool3d, GNN, ADAPTIVE_MAX_POOL3D, GnnAdaptivePoolNd)

GNN_AVAILABLE_IN_ALL
GnnAdaptiveMaxPool3d *gnn_adaptive_max_pool3d_new (gint64     output_depth,
                                                   gint64     output_height,
                                                   gint64     output_width,
                                                   gboolean   return_indices,
                                                   GError   **error);

G_END_DECLS
