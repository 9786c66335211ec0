/* gnn-instance-norm-nd.h: the base of the instance normalization layers
 * (torch.nn's _InstanceNorm)
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

#define GNN_TYPE_INSTANCE_NORM_ND (gnn_instance_norm_nd_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnInstanceNormNd, gnn_instance_norm_nd, GNN, INSTANCE_NORM_ND, GnnModule)

/**
 * GnnInstanceNormNdClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.InstanceNormNd]. Its subclasses differ only in
 * their number of spatial dimensions.
 *
 * Since: 0.1
 */
struct _GnnInstanceNormNdClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  guint    n_spatial;
  gpointer padding[7];
};

G_END_DECLS
