/* gnn-conv-transpose3d.h: 3-d transposed convolution layer (torch.nn.ConvTranspose3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-generator.h>
#include <gnn/gnn-conv-nd.h>

G_BEGIN_DECLS

#define GNN_TYPE_CONV_TRANSPOSE3D (gnn_conv_transpose3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConvTranspose3d, gnn_conv_transpose3d, GNN, CONV_TRANSPOSE3D, GnnConvNd)

GNN_AVAILABLE_IN_ALL
GnnConvTranspose3d *gnn_conv_transpose3d_new (gint64       in_channels,
                                              gint64       out_channels,
                                              gint64       kernel_size,
                                              gint64       stride,
                                              gint64       padding,
                                              gint64       output_padding,
                                              gint64       groups,
                                              gboolean     bias,
                                              gint64       dilation,
                                              GnnGenerator *generator,
                                              GError       **error);

G_END_DECLS
