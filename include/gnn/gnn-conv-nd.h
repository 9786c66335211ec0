/* gnn-conv-nd.h: the base of the convolution layers (torch.nn's _ConvNd)
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

#define GNN_TYPE_CONV_ND (gnn_conv_nd_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnConvNd, gnn_conv_nd, GNN, CONV_ND, GnnModule)

/**
 * GnnConvNdClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.ConvNd]. Its subclasses are the library's
 * convolution layers; they differ only in their number of spatial
 * dimensions, whether they are transposed, and their property names.
 *
 * Since: 0.1
 */
struct _GnnConvNdClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  guint    n_spatial;
  gboolean transposed;
  gpointer padding[6];
};

GNN_AVAILABLE_IN_ALL
guint    gnn_conv_nd_get_n_spatial  (GnnConvNd *self);
GNN_AVAILABLE_IN_ALL
gboolean gnn_conv_nd_get_transposed (GnnConvNd *self);

G_END_DECLS
