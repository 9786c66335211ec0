/* gnn-tensor-composite.h: torch's composite ops — tile, broadcast_tensors,
 * meshgrid, atleast_Nd, hstack/vstack/dstack/column_stack, diff,
 * tensor_split, repeat_interleave, take_along_dim, cartesian_prod —
 * composed of the library's differentiable ops as ATen composes them
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
GnnTensor *gnn_tensor_tile              (GnnTensor *self, const gint64 *reps, guint n,
                                         GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_broadcast_tensors (GnnTensor **tensors, guint n, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_meshgrid          (GnnTensor **tensors, guint n, const char *indexing,
                                         GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atleast_nd        (GnnTensor *self, guint n, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hstack            (GnnTensor **tensors, guint n, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_vstack            (GnnTensor **tensors, guint n, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_dstack            (GnnTensor **tensors, guint n, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_column_stack      (GnnTensor **tensors, guint n, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diff              (GnnTensor *self, gint64 n, gint dim,
                                         GnnTensor *prepend, GnnTensor *append,
                                         GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_tensor_split      (GnnTensor *self, gint64 sections, gint dim,
                                         GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_tensor_split_indices (GnnTensor *self, const gint64 *indices, guint n,
                                            gint dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_repeat_interleave (GnnTensor *self, GnnTensor *repeats, gint64 each,
                                         gint dim, gboolean flatten, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_repeat_interleave_index (GnnTensor *repeats, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_take_along_dim    (GnnTensor *self, GnnTensor *indices, gint dim,
                                         gboolean flatten, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cartesian_prod    (GnnTensor **tensors, guint n, GError **error);

G_END_DECLS
