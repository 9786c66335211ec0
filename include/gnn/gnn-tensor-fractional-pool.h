/* gnn-tensor-fractional-pool.h: fractional max pooling
 * (torch.nn.functional.fractional_max_pool2d / fractional_max_pool3d)
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
GnnTensor *gnn_tensor_fractional_max_pool2d (GnnTensor     *input,
                                             const gint64  *kernel_size,
                                             const gint64  *output_size,
                                             const double  *output_ratio,
                                             GnnTensor     *random_samples,
                                             GnnTensor    **indices,
                                             GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_fractional_max_pool3d (GnnTensor     *input,
                                             const gint64  *kernel_size,
                                             const gint64  *output_size,
                                             const double  *output_ratio,
                                             GnnTensor     *random_samples,
                                             GnnTensor    **indices,
                                             GError       **error);

G_END_DECLS
