/* gnn-upsampling-nearest2d.h: nearest 2-d upsampling (torch.nn.UpsamplingNearest2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-upsample.h>

G_BEGIN_DECLS

#define GNN_TYPE_UPSAMPLING_NEAREST2D (gnn_upsampling_nearest2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUpsamplingNearest2d, gnn_upsampling_nearest2d, GNN, UPSAMPLING_NEAREST2D, GnnUpsample)

G_END_DECLS
