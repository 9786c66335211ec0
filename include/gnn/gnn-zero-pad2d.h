/* gnn-zero-pad2d.h: zero padding of 2 dimensions (torch.nn.ZeroPad2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-pad-nd.h>

G_BEGIN_DECLS

#define GNN_TYPE_ZERO_PAD2D (gnn_zero_pad2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnZeroPad2d, gnn_zero_pad2d, GNN, ZERO_PAD2D, GnnPadNd)

GNN_AVAILABLE_IN_ALL
GnnZeroPad2d *gnn_zero_pad2d_new (gint64   left,
                                  gint64   right,
                                  gint64   top,
                                  gint64   bottom,
                                  GError **error);

G_END_DECLS
