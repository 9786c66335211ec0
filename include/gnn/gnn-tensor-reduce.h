/* gnn-tensor-reduce.h: torch's reductions beyond sum/mean/max/min — prod,
 * all/any, var/std, logsumexp, norms, max/min along a dim with positions,
 * argmin — and the scans cumsum/cumprod
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
GnnTensor *gnn_tensor_prod        (GnnTensor *self, const gint *dims, guint n_dims,
                                   gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_all         (GnnTensor *self, const gint *dims, guint n_dims,
                                   gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_any         (GnnTensor *self, const gint *dims, guint n_dims,
                                   gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_var         (GnnTensor *self, const gint *dims, guint n_dims,
                                   double correction, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_std         (GnnTensor *self, const gint *dims, guint n_dims,
                                   double correction, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_var_mean    (GnnTensor *self, const gint *dims, guint n_dims,
                                   double correction, gboolean keepdim, GnnTensor **mean,
                                   GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_std_mean    (GnnTensor *self, const gint *dims, guint n_dims,
                                   double correction, gboolean keepdim, GnnTensor **mean,
                                   GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logsumexp   (GnnTensor *self, const gint *dims, guint n_dims,
                                   gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_norm        (GnnTensor *self, double p, const gint *dims, guint n_dims,
                                   gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_vector_norm (GnnTensor *self, double ord, const gint *dims,
                                   guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_dim     (GnnTensor *self, gint dim, gboolean keepdim,
                                   GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_min_dim     (GnnTensor *self, gint dim, gboolean keepdim,
                                   GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_argmin      (GnnTensor *self, gint dim, gboolean keepdim,
                                   GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_argmax_all  (GnnTensor *self, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_argmin_all  (GnnTensor *self, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cumsum      (GnnTensor *self, gint dim, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_cumsum_     (GnnTensor *self, gint dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cumprod     (GnnTensor *self, gint dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cummax      (GnnTensor *self, gint dim, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cummin      (GnnTensor *self, gint dim, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logcumsumexp (GnnTensor *self, gint dim, GError **error);

/* --- order statistics (gnn-tensor-order.c) ------------------------------------ */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_kthvalue      (GnnTensor *self, gint64 k, gint dim, gboolean keepdim,
                                     GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_median_dim    (GnnTensor *self, gint dim, gboolean keepdim,
                                     GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nanmedian_dim (GnnTensor *self, gint dim, gboolean keepdim,
                                     GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mode          (GnnTensor *self, gint dim, gboolean keepdim,
                                     GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_median        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nanmedian     (GnnTensor *self, GError **error);

G_END_DECLS
