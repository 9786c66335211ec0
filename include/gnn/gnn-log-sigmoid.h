/* gnn-log-sigmoid.h: the LogSigmoid activation (torch.nn.LogSigmoid)
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

#define GNN_TYPE_LOG_SIGMOID (gnn_log_sigmoid_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLogSigmoid, gnn_log_sigmoid, GNN, LOG_SIGMOID, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLogSigmoid *gnn_log_sigmoid_new (void);

G_END_DECLS
