/* gnn-dropout-nd.h: the base of the channel-wise and alpha dropout layers
 * (torch.nn's _DropoutNd)
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

#define GNN_TYPE_DROPOUT_ND (gnn_dropout_nd_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnDropoutNd, gnn_dropout_nd, GNN, DROPOUT_ND, GnnModule)

/**
 * GnnDropoutNdClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.DropoutNd]. Its subclasses differ in what they
 * drop (whole channels or elements), how (zeros or alpha dropout's
 * saturation) and which inputs they take.
 *
 * Since: 0.1
 */
struct _GnnDropoutNdClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  guint    n_spatial;   /* channel-wise over 1 to 3 dimensions; 0: as @feature says */
  gboolean feature;
  gboolean alpha;
  gpointer padding[6];
};

G_END_DECLS
