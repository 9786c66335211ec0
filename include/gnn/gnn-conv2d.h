/* gnn-conv2d.h: 2-d convolution layer (torch.nn.Conv2d)
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

#define GNN_TYPE_CONV2D (gnn_conv2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnConv2d, gnn_conv2d, GNN, CONV2D, GnnConvNd)

/**
 * GnnConv2dClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Conv2d], derivable as `torch.nn.Conv2d` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnConv2dClass
{
  GnnConvNdClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnConv2d *gnn_conv2d_new      (gint64         in_channels,
                                gint64         out_channels,
                                gint64         kernel_size,
                                gint64         stride,
                                gint64         padding,
                                gboolean       bias,
                                GError       **error);
GNN_AVAILABLE_IN_ALL
GnnConv2d *gnn_conv2d_new_full (gint64         in_channels,
                                gint64         out_channels,
                                gint64         kernel_h,
                                gint64         kernel_w,
                                gint64         stride_h,
                                gint64         stride_w,
                                gint64         padding_h,
                                gint64         padding_w,
                                gint64         dilation_h,
                                gint64         dilation_w,
                                gint64         groups,
                                gboolean       bias,
                                GnnGenerator  *generator,
                                GError       **error);

G_END_DECLS
