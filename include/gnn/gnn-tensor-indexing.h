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

/* --- selections by value and counting -------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nonzero      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_masked_select (GnnTensor *self, GnnTensor *mask, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unique       (GnnTensor *self, GnnTensor **inverse, GnnTensor **counts,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unique_consecutive (GnnTensor *self, GnnTensor **inverse,
                                          GnnTensor **counts, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_searchsorted (GnnTensor *sorted_sequence, GnnTensor *values,
                                    gboolean right, gboolean out_int32, GnnTensor *sorter,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bucketize    (GnnTensor *self, GnnTensor *boundaries, gboolean out_int32,
                                    gboolean right, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isin         (GnnTensor *elements, GnnTensor *test_elements,
                                    gboolean assume_unique, gboolean invert, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bincount     (GnnTensor *self, GnnTensor *weights, gint64 minlength,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_histc        (GnnTensor *self, gint64 bins, double min, double max,
                                    GError **error);

/* --- factories ---------------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_eye          (gint64 n, gint64 m, GnnDType dtype, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linspace     (double start, double end, gint64 steps, GnnDType dtype,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logspace     (double start, double end, gint64 steps, double base,
                                    GnnDType dtype, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_random_      (GnnTensor *self, gint64 low, gint64 high,
                                    GnnGenerator *generator, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_randperm     (gint64 n, GnnDType dtype, GnnGenerator *generator,
                                    GError **error);

/* --- rearrangements and splits -------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_flip         (GnnTensor *self, const gint *dims, guint n_dims,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_roll         (GnnTensor *self, const gint64 *shifts, guint n_shifts,
                                    const gint *dims, guint n_dims, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rot90        (GnnTensor *self, gint64 k, const gint *dims, guint n_dims,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_kron         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_block_diag   (GnnTensor **tensors, guint n_tensors, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diag_embed   (GnnTensor *self, gint64 offset, gint dim1, gint dim2,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_take         (GnnTensor *self, GnnTensor *index, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_masked_scatter (GnnTensor *self, GnnTensor *mask, GnnTensor *source,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_masked_scatter_ (GnnTensor *self, GnnTensor *mask, GnnTensor *source,
                                       GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_tril         (GnnTensor *self, gint64 diagonal, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_triu         (GnnTensor *self, gint64 diagonal, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_tril_        (GnnTensor *self, gint64 diagonal, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_triu_        (GnnTensor *self, gint64 diagonal, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_repeat       (GnnTensor *self, const gint64 *repeats, guint n,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_split        (GnnTensor *self, gint64 split_size, gint dim,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_split_with_sizes (GnnTensor *self, const gint64 *sizes, guint n,
                                        gint dim, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_chunk        (GnnTensor *self, gint64 chunks, gint dim, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_unbind       (GnnTensor *self, gint dim, GError **error);

/* --- in-place shape ops ---------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_squeeze_all  (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_squeeze_all_ (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_squeeze_     (GnnTensor *self, gint dim, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_unsqueeze_   (GnnTensor *self, gint dim, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_transpose_   (GnnTensor *self, gint dim0, gint dim1, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_t_           (GnnTensor *self, GError **error);

G_END_DECLS
