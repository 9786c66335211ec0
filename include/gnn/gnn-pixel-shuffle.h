/* gnn-pixel-shuffle.h: channels to space (torch.nn.PixelShuffle)
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

#define GNN_TYPE_PIXEL_SHUFFLE (gnn_pixel_shuffle_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPixelShuffle, gnn_pixel_shuffle, GNN, PIXEL_SHUFFLE, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnPixelShuffle *gnn_pixel_shuffle_new (gint64 upscale_factor);

G_END_DECLS
