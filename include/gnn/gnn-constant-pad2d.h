/* gnn-constant-pad2d.h: constant padding of 2 dimensions (torch.nn.ConstantPad2d)
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

#define GNN_TYPE_CONSTANT_PAD2D (gnn_constant_pad2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConstantPad2d, gnn_constant_pad2d, GNN, CONSTANT_PAD2D, GnnPadNd)

GNN_AVAILABLE_IN_ALL
GnnConstantPad2d *gnn_constant_pad2d_new (gint64   left,
                                          gint64   right,
                                          gint64   top,
                                          gint64   bottom,
                                          double   value,
                                          GError **error);

G_END_DECLS
