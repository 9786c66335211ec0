/* gnn-adaptive-pool-nd.h: the base of the adaptive pooling layers
 * (torch.nn's _AdaptiveAvgPoolNd, _AdaptiveMaxPoolNd)
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

#define GNN_TYPE_ADAPTIVE_POOL_ND (gnn_adaptive_pool_nd_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnAdaptivePoolNd, gnn_adaptive_pool_nd, GNN, ADAPTIVE_POOL_ND, GnnModule)

/**
 * GnnAdaptivePoolNdClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.AdaptivePoolNd]. Its subclasses are the
 * library's adaptive pooling layers; they differ only in their number of
 * pooled dimensions and whether they take the mean or the maximum.
 *
 * Since: 0.1
 */
struct _GnnAdaptivePoolNdClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  guint    n_spatial;
  gboolean max;
  gpointer padding[6];
};

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_adaptive_pool_nd_forward_with_indices (GnnAdaptivePoolNd  *self,
                                                      GnnTensor          *input,
                                                      GnnTensor         **indices,
                                                      GError            **error);

G_END_DECLS
