/* gnn-tensor-activation.h: torch.nn.functional's activations as tensor
 * functions (leaky_relu, elu, selu, celu, silu, mish, hardtanh, relu6,
 * hardswish, hardsigmoid, softplus, softsign, tanhshrink, threshold,
 * hardshrink, softshrink,
 * logsigmoid, gelu's tanh form, glu, prelu, softmin, rrelu), with their in-place
 * forms where PyTorch has them
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
GnnTensor *gnn_tensor_leaky_relu (GnnTensor  *self,
                                  double      negative_slope,
                                  GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_leaky_relu_ (GnnTensor  *self,
                                 double      negative_slope,
                                 GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rrelu (GnnTensor     *self,
                             double         lower,
                             double         upper,
                             gboolean       training,
                             GnnGenerator  *generator,
                             GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_rrelu_ (GnnTensor     *self,
                            double         lower,
                            double         upper,
                            gboolean       training,
                            GnnGenerator  *generator,
                            GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_elu (GnnTensor  *self,
                           double      alpha,
                           GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_elu_ (GnnTensor  *self,
                          double      alpha,
                          GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_selu (GnnTensor  *self,
                            GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_selu_ (GnnTensor  *self,
                           GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_celu (GnnTensor  *self,
                            double      alpha,
                            GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_celu_ (GnnTensor  *self,
                           double      alpha,
                           GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_silu (GnnTensor  *self,
                            GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_silu_ (GnnTensor  *self,
                           GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mish (GnnTensor  *self,
                            GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_mish_ (GnnTensor  *self,
                           GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hardtanh (GnnTensor  *self,
                                double      min_val,
                                double      max_val,
                                GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_hardtanh_ (GnnTensor  *self,
                               double      min_val,
                               double      max_val,
                               GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_relu6 (GnnTensor  *self,
                             GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_relu6_ (GnnTensor  *self,
                            GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hardswish (GnnTensor  *self,
                                 GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_hardswish_ (GnnTensor  *self,
                                GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hardsigmoid (GnnTensor  *self,
                                   GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_hardsigmoid_ (GnnTensor  *self,
                                  GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_softplus (GnnTensor  *self,
                                double      beta,
                                double      threshold,
                                GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_softsign (GnnTensor  *self,
                                GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_tanhshrink (GnnTensor  *self,
                                  GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_threshold (GnnTensor  *self,
                                 double      threshold,
                                 double      value,
                                 GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_tensor_threshold_ (GnnTensor  *self,
                                double      threshold,
                                double      value,
                                GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hardshrink (GnnTensor  *self,
                                  double      lambd,
                                  GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_softshrink (GnnTensor  *self,
                                  double      lambd,
                                  GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log_sigmoid (GnnTensor  *self,
                                   GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_gelu_approximate (GnnTensor   *self,
                                        const char  *approximate,
                                        GError     **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_glu (GnnTensor  *self,
                           gint        dim,
                           GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_prelu (GnnTensor  *self,
                             GnnTensor  *weight,
                             GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_softmin (GnnTensor  *self,
                               gint        dim,
                               GError    **error);

G_END_DECLS
