/* gnn-max-pool2d.h: 2-d max pooling layer (torch.nn.MaxPool2d)
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

#define GNN_TYPE_MAX_POOL2D (gnn_max_pool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxPool2d, gnn_max_pool2d, GNN, MAX_POOL2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMaxPool2d *gnn_max_pool2d_new      (gint64    kernel_size,
                                       gint64    stride,
                                       gint64    padding,
                                       gint64    dilation,
                                       gboolean  ceil_mode,
                                       GError  **error);
GNN_AVAILABLE_IN_ALL
GnnMaxPool2d *gnn_max_pool2d_new_full (gint64    kernel_h,
                                       gint64    kernel_w,
                                       gint64    stride_h,
                                       gint64    stride_w,
                                       gint64    padding_h,
                                       gint64    padding_w,
                                       gint64    dilation_h,
                                       gint64    dilation_w,
                                       gboolean  ceil_mode,
                                       GError  **error);

G_END_DECLS
