/* gnn-avg-pool2d.h: 2-d average pooling layer (torch.nn.AvgPool2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_AVG_POOL2D (gnn_avg_pool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAvgPool2d, gnn_avg_pool2d, GNN, AVG_POOL2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAvgPool2d *gnn_avg_pool2d_new      (gint64    kernel_size,
                                       gint64    stride,
                                       gint64    padding,
                                       gboolean  ceil_mode,
                                       gboolean  count_include_pad,
                                       gint64    divisor_override,
                                       GError  **error);
GNN_AVAILABLE_IN_ALL
GnnAvgPool2d *gnn_avg_pool2d_new_full (gint64    kernel_h,
                                       gint64    kernel_w,
                                       gint64    stride_h,
                                       gint64    stride_w,
                                       gint64    padding_h,
                                       gint64    padding_w,
                                       gboolean  ceil_mode,
                                       gboolean  count_include_pad,
                                       gint64    divisor_override,
                                       GError  **error);

G_END_DECLS
