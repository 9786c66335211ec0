/* gnn-softmin.h: the softmin along a dimension (torch.nn.Softmin)
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
#include <gnn/gnn-softmax.h>

G_BEGIN_DECLS

#define GNN_TYPE_SOFTMIN (gnn_softmin_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftmin, gnn_softmin, GNN, SOFTMIN, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftmin *gnn_softmin_new (gint dim);

G_END_DECLS
