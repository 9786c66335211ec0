/* gnn-linalg.h: torch.linalg's factorizations through LAPACK — solve, inv,
 * det, slogdet, cholesky, qr, eigh, svd, lstsq, and the matrix norms
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
GnnTensor *gnn_tensor_linalg_solve    (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_inv      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_det      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_slogdet  (GnnTensor *self, GnnTensor **sign, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_cholesky (GnnTensor *self, gboolean upper, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_qr       (GnnTensor *self, const char *mode, GnnTensor **r,
                                       GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_eigh     (GnnTensor *self, const char *uplo, GnnTensor **eigenvectors,
                                       GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_eigvalsh (GnnTensor *self, const char *uplo, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_svd      (GnnTensor *self, gboolean full_matrices, GnnTensor **s,
                                       GnnTensor **vh, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_svdvals  (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_svd             (GnnTensor *self, gboolean some, gboolean compute_uv,
                                       GnnTensor **s, GnnTensor **v, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_lstsq    (GnnTensor *self, GnnTensor *other, double rcond,
                                       const char *driver, GnnTensor **residuals,
                                       GnnTensor **rank, GnnTensor **singular_values,
                                       GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_matrix_norm (GnnTensor *self, const char *ord, gint dim0, gint dim1,
                                          gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linalg_norm     (GnnTensor *self, const char *ord, const gint *dims,
                                       guint n_dims, gboolean keepdim, GError **error);

G_END_DECLS
