/* gnn-pixel-unshuffle.h: space to channels (torch.nn.PixelUnshuffle)
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

#define GNN_TYPE_PIXEL_UNSHUFFLE (gnn_pixel_unshuffle_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPixelUnshuffle, gnn_pixel_unshuffle, GNN, PIXEL_UNSHUFFLE, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnPixelUnshuffle *gnn_pixel_unshuffle_new (gint64 downscale_factor);

G_END_DECLS
