/* gnn-softmax.h: the softmax along a dimension (torch.nn.Softmax)
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

/**
 * GNN_SOFTMAX_DIM_NONE:
 *
 * The value of [property@Gnn.Softmax:dim] and [property@Gnn.LogSoftmax:dim]
 * that stands for PyTorch's `dim=None` (the implicit, deprecated choice).
 *
 * Since: 0.1
 */
#define GNN_SOFTMAX_DIM_NONE (-2147483647 - 1)

#define GNN_TYPE_SOFTMAX (gnn_softmax_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftmax, gnn_softmax, GNN, SOFTMAX, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftmax *gnn_softmax_new (gint         dim);
GNN_AVAILABLE_IN_ALL
gint gnn_softmax_get_dim (GnnSoftmax *self);

G_END_DECLS
