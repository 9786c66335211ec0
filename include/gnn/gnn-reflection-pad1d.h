/* gnn-reflection-pad1d.h: reflection padding of 1 dimension (torch.nn.ReflectionPad1d)
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

#define GNN_TYPE_REFLECTION_PAD1D (gnn_reflection_pad1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReflectionPad1d, gnn_reflection_pad1d, GNN, REFLECTION_PAD1D, GnnPadNd)

GNN_AVAILABLE_IN_ALL
GnnReflectionPad1d *gnn_reflection_pad1d_new (gint64   left,
                                              gint64   right,
                                              GError **error);

G_END_DECLS
