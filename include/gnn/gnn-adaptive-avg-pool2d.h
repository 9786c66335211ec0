/* gnn-adaptive-avg-pool2d.h: average pooling to a fixed output size (torch.nn.AdaptiveAvgPool2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_ADAPTIVE_AVG_POOL2D (gnn_adaptive_avg_pool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveAvgPool2d, gnn_adaptive_avg_pool2d, GNN, ADAPTIVE_AVG_POOL2D,
                      GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAdaptiveAvgPool2d *gnn_adaptive_avg_pool2d_new (gint64    output_h,
                                                   gint64    output_w,
                                                   GError  **error);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_avg_pool2d (GnnTensor  *input,
                                           gint64      output_h,
                                           gint64      output_w,
                                           GError    **error);

G_END_DECLS
