/* gnn-max-unpool.h: max unpooling layers (torch.nn.MaxUnpool1d/2d/3d)
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

#define GNN_TYPE_MAX_UNPOOL1D (gnn_max_unpool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxUnpool1d, gnn_max_unpool1d, GNN, MAX_UNPOOL1D, GnnModule)

#define GNN_TYPE_MAX_UNPOOL2D (gnn_max_unpool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxUnpool2d, gnn_max_unpool2d, GNN, MAX_UNPOOL2D, GnnModule)

#define GNN_TYPE_MAX_UNPOOL3D (gnn_max_unpool3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxUnpool3d, gnn_max_unpool3d, GNN, MAX_UNPOOL3D, GnnModule)

G_END_DECLS
