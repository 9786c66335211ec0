/* gnn-lp-pool.h: power-average pooling layers (torch.nn.LPPool1d/2d)
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

#define GNN_TYPE_LP_POOL1D (gnn_lp_pool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLPPool1d, gnn_lp_pool1d, GNN, LP_POOL1D, GnnModule)

#define GNN_TYPE_LP_POOL2D (gnn_lp_pool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLPPool2d, gnn_lp_pool2d, GNN, LP_POOL2D, GnnModule)

G_END_DECLS
