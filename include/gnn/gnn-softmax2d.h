/* gnn-softmax2d.h: the softmax over channels (torch.nn.Softmax2d)
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

#define GNN_TYPE_SOFTMAX2D (gnn_softmax2d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftmax2d, gnn_softmax2d, GNN, SOFTMAX2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftmax2d *gnn_softmax2d_new (void);

G_END_DECLS
