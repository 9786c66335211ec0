/* gnn-pool3d.h: 3-d pooling layers (torch.nn.MaxPool3d, torch.nn.AvgPool3d)
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

#define GNN_TYPE_MAX_POOL3D (gnn_max_pool3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxPool3d, gnn_max_pool3d, GNN, MAX_POOL3D, GnnModule)

#define GNN_TYPE_AVG_POOL3D (gnn_avg_pool3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAvgPool3d, gnn_avg_pool3d, GNN, AVG_POOL3D, GnnModule)

G_END_DECLS
