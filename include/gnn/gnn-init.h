/* gnn-init.h: torch.nn.init — gains, fans and the initializers that fill a
 * tensor in place outside autograd
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
#include <gnn/gnn-generator.h>

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
double   gnn_init_calculate_gain        (const char    *nonlinearity,
                                         double         param,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_calculate_fan_in_and_fan_out (GnnTensor *tensor,
                                                gint64    *fan_in,
                                                gint64    *fan_out,
                                                GError   **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_uniform_              (GnnTensor     *tensor,
                                         double         a,
                                         double         b,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_normal_               (GnnTensor     *tensor,
                                         double         mean,
                                         double         std,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_trunc_normal_         (GnnTensor     *tensor,
                                         double         mean,
                                         double         std,
                                         double         a,
                                         double         b,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_constant_             (GnnTensor     *tensor,
                                         double         val,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_ones_                 (GnnTensor     *tensor,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_zeros_                (GnnTensor     *tensor,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_eye_                  (GnnTensor     *tensor,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_dirac_                (GnnTensor     *tensor,
                                         gint64         groups,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_xavier_uniform_       (GnnTensor     *tensor,
                                         double         gain,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_xavier_normal_        (GnnTensor     *tensor,
                                         double         gain,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_kaiming_uniform_      (GnnTensor     *tensor,
                                         double         a,
                                         const char    *mode,
                                         const char    *nonlinearity,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_kaiming_normal_       (GnnTensor     *tensor,
                                         double         a,
                                         const char    *mode,
                                         const char    *nonlinearity,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_orthogonal_           (GnnTensor     *tensor,
                                         double         gain,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_init_sparse_               (GnnTensor     *tensor,
                                         double         sparsity,
                                         double         std,
                                         GnnGenerator  *generator,
                                         GError       **error);

G_END_DECLS
