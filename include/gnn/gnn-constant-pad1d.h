/* gnn-constant-pad1d.h: constant padding of 1 dimension (torch.nn.ConstantPad1d)
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

#define GNN_TYPE_CONSTANT_PAD1D (gnn_constant_pad1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConstantPad1d, gnn_constant_pad1d, GNN, CONSTANT_PAD1D, GnnPadNd)

GNN_AVAILABLE_IN_ALL
GnnConstantPad1d *gnn_constant_pad1d_new (gint64   left,
                                          gint64   right,
                                          double   value,
                                          GError **error);

G_END_DECLS
