/* gnn-upsampling-bilinear2d.h: bilinear 2-d upsampling (torch.nn.UpsamplingBilinear2d)
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

#define GNN_TYPE_UPSAMPLING_BILINEAR2D (gnn_upsampling_bilinear2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUpsamplingBilinear2d, gnn_upsampling_bilinear2d, GNN, UPSAMPLING_BILINEAR2D, GnnUpsample)

G_END_DECLS
