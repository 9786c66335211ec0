/* gnn-constant-pad3d.h: constant padding of 3 dimensions (torch.nn.ConstantPad3d)
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

#define GNN_TYPE_CONSTANT_PAD3D (gnn_constant_pad3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConstantPad3d, gnn_constant_pad3d, GNN, CONSTANT_PAD3D, GnnPadNd)

GNN_AVAILABLE_IN_ALL
GnnConstantPad3d *gnn_constant_pad3d_new (gint64   left,
                                          gint64   right,
                                          gint64   top,
                                          gint64   bottom,
                                          gint64   front,
                                          gint64   back,
                                          double   value,
                                          GError **error);

G_END_DECLS
