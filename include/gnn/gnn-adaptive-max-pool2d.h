/* gnn-adaptive-max-pool2d.h: adaptive max pooling of 2 dimensions (torch.nn.AdaptiveMaxPool2d)
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

#define GNN_TYPE_ADAPTIVE_MAX_POOL2D (gnn_adaptive_max_pool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveMaxPool2d, gnn_adaptive_max_pool2d, GNN, ADAPTIVE_MAX_POOL2D, GnnAdaptivePoolNd)

GNN_AVAILABLE_IN_ALL
GnnAdaptiveMaxPool2d *gnn_adaptive_max_pool2d_new (gint64     output_height,
                                                   gint64     output_width,
                                                   gboolean   return_indices,
                                                   GError   **error);

G_END_DECLS
