/* gnn-tensor-indexing.h: torch's index-based ops — gather/scatter,
 * index_add/index_copy/index_fill, sorting and selection, nonzero,
 * masked_select, unique, bincount, histc, and the rearrangements roll,
 * flip, tril/triu, repeat, split/chunk
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

/* --- gather and scatter ------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_gather       (GnnTensor *self, gint dim, GnnTensor *index, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_scatter      (GnnTensor *self, gint dim, GnnTensor *index, GnnTensor *src,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_scatter_     (GnnTensor *self, gint dim, GnnTensor *index, GnnTensor *src,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_scatter_add  (GnnTensor *self, gint dim, GnnTensor *index, GnnTensor *src,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_scatter_add_ (GnnTensor *self, gint dim, GnnTensor *index, GnnTensor *src,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_index_add    (GnnTensor *self, gint dim, GnnTensor *index,
                                    GnnTensor *source, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_index_add_   (GnnTensor *self, gint dim, GnnTensor *index,
                                    GnnTensor *source, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_index_copy   (GnnTensor *self, gint dim, GnnTensor *index,
                                    GnnTensor *source, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_index_copy_  (GnnTensor *self, gint dim, GnnTensor *index,
                                    GnnTensor *source, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_index_fill   (GnnTensor *self, gint dim, GnnTensor *index,
                                    GnnTensor *value, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_index_fill_  (GnnTensor *self, gint dim, GnnTensor *index,
                                    GnnTensor *value, GError **error);

/* --- sorting and selection --------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sort         (GnnTensor *self, gint dim, gboolean descending,
                                    gboolean stable, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_argsort      (GnnTensor *self, gint dim, gboolean descending,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_topk         (GnnTensor *self, gint64 k, gint dim, gboolean largest,
                                    gboolean sorted, GnnTensor **indices, GError **error);

G_END_DECLS
