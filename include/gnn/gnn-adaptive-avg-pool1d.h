/* gnn-adaptive-avg-pool1d.h: adaptive average pooling of 1 dimension (torch.nn.AdaptiveAvgPool1d)
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

#define GNN_TYPE_ADAPTIVE_AVG_POOL1D (gnn_adaptive_avg_pool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveAvgPool1d, gnn_adaptive_avg_pool1d, GNN, ADAPTIVE_AVG_POOL1D, GnnAdaptivePoolNd)

GNN_AVAILABLE_IN_ALL
GnnAdaptiveAvgPool1d *gnn_adaptive_avg_pool1d_new (gint64   output_size,
                                                   GError **error);

G_END_DECLS
