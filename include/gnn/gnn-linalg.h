/* gnn-linalg.h: torch.linalg's factorizations through LAPACK — solve, inv,
 * det, slogdet, cholesky
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

G_END_DECLS
