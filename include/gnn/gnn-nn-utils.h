/* gnn-nn-utils.h: torch.nn.utils — gradient clipping, parameters as one
 * vector, and the weight reparametrizations weight_norm and spectral_norm
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
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

/**
 * GNN_NORM_DIM_NONE:
 *
 * The `dim` of [func@Gnn.weight_norm] and [func@Gnn.spectral_norm] that
 * stands for PyTorch's `dim=None`.
 *
 * Since: 0.1
 */
#define GNN_NORM_DIM_NONE (-2147483647 - 1)

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_clip_grad_norm_          (GnnTensor    **parameters,
                                         guint          n_parameters,
                                         double         max_norm,
                                         double         norm_type,
                                         gboolean       error_if_nonfinite,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_clip_grad_value_         (GnnTensor    **parameters,
                                         guint          n_parameters,
                                         double         clip_value,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_parameters_to_vector     (GnnTensor    **parameters,
                                         guint          n_parameters,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_vector_to_parameters     (GnnTensor     *vec,
                                         GnnTensor    **parameters,
                                         guint          n_parameters,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_weight_norm              (GnnModule     *module,
                                         const char    *name,
                                         gint           dim,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_remove_weight_norm       (GnnModule     *module,
                                         const char    *name,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_spectral_norm            (GnnModule     *module,
                                         const char    *name,
                                         gint           n_power_iterations,
                                         double         eps,
                                         gint           dim,
                                         GnnGenerator  *generator,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_remove_spectral_norm     (GnnModule     *module,
                                         const char    *name,
                                         GError       **error);

G_END_DECLS
