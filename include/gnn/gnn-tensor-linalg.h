/* gnn-tensor-linalg.h: torch's products beyond matmul — mm, bmm, mv, dot,
 * outer, addmm, baddbmm, einsum — and diagonals
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
GnnTensor *gnn_tensor_mm       (GnnTensor *self, GnnTensor *mat2, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bmm      (GnnTensor *self, GnnTensor *mat2, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mv       (GnnTensor *self, GnnTensor *vec, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_dot      (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_outer    (GnnTensor *self, GnnTensor *vec2, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_addmm    (GnnTensor *self, GnnTensor *mat1, GnnTensor *mat2,
                                double beta, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_baddbmm  (GnnTensor *self, GnnTensor *batch1, GnnTensor *batch2,
                                double beta, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_einsum   (const char *equation, GnnTensor **operands, guint n_operands,
                                GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diagonal (GnnTensor *self, gint64 offset, gint dim1, gint dim2,
                                GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diag     (GnnTensor *self, gint64 diagonal, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_trace    (GnnTensor *self, GError **error);

G_END_DECLS
