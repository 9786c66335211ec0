/* gnn-log-softmax.h: the log of the softmax (torch.nn.LogSoftmax)
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

#define GNN_TYPE_LOG_SOFTMAX (gnn_log_softmax_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLogSoftmax, gnn_log_softmax, GNN, LOG_SOFTMAX, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLogSoftmax *gnn_log_softmax_new (gint         dim);
GNN_AVAILABLE_IN_ALL
gint gnn_log_softmax_get_dim (GnnLogSoftmax *self);

G_END_DECLS
