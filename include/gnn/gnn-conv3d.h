/* gnn-conv3d.h: 3-d convolution layer (torch.nn.Conv3d)
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

#define GNN_TYPE_CONV3D (gnn_conv3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnConv3d, gnn_conv3d, GNN, CONV3D, GnnConvNd)

/**
 * GnnConv3dClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Conv3d], derivable as `torch.nn.Conv3d` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnConv3dClass
{
  GnnConvNdClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnConv3d *gnn_conv3d_new (gint64       in_channels,
                           gint64       out_channels,
                           gint64       kernel_size,
                           gint64       stride,
                           gint64       padding,
                           gint64       dilation,
                           gint64       groups,
                           gboolean     bias,
                           GnnGenerator *generator,
                           GError       **error);

G_END_DECLS
