/* gnn-fractional-max-pool.h: fractional max pooling layers
 * (torch.nn.FractionalMaxPool2d, torch.nn.FractionalMaxPool3d)
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

#define GNN_TYPE_FRACTIONAL_MAX_POOL2D (gnn_fractional_max_pool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFractionalMaxPool2d, gnn_fractional_max_pool2d, GNN, FRACTIONAL_MAX_POOL2D, GnnModule)

#define GNN_TYPE_FRACTIONAL_MAX_POOL3D (gnn_fractional_max_pool3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFractionalMaxPool3d, gnn_fractional_max_pool3d, GNN, FRACTIONAL_MAX_POOL3D, GnnModule)

G_END_DECLS
