/* gnn-local-response-norm.h: local response normalization
 * (torch.nn.LocalResponseNorm)
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

#define GNN_TYPE_LOCAL_RESPONSE_NORM (gnn_local_response_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLocalResponseNorm, gnn_local_response_norm, GNN, LOCAL_RESPONSE_NORM, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLocalResponseNorm *gnn_local_response_norm_new (gint64 size,
                                                   double alpha,
                                                   double beta,
                                                   double k);

G_END_DECLS
