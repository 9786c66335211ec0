/* gnn-pad-nd.h: the base of the padding layers (torch.nn's _ConstantPadNd,
 * _ReflectionPadNd, _ReplicationPadNd)
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
#include <gnn/gnn-tensor-nn.h>

G_BEGIN_DECLS

#define GNN_TYPE_PAD_ND (gnn_pad_nd_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnPadNd, gnn_pad_nd, GNN, PAD_ND, GnnModule)

/**
 * GnnPadNdClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.PadNd]. Its subclasses are the library's
 * padding layers; they differ only in their number of padded dimensions
 * and their [enum@Gnn.PaddingMode].
 *
 * Since: 0.1
 */
struct _GnnPadNdClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  guint          n_spatial;
  GnnPaddingMode mode;
  gboolean       has_value;
  gpointer       padding[6];
};

G_END_DECLS
