/* gnn-tensor-index-put.h: torch's index_put_ / index_put (accumulate or not)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_index_put_ (GnnTensor *self, GnnTensor **indices, guint n_indices,
                                  GnnTensor *values, gboolean accumulate, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_index_put  (GnnTensor *self, GnnTensor **indices, guint n_indices,
                                  GnnTensor *values, gboolean accumulate, GError **error);

G_END_DECLS
