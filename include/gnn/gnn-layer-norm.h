/* gnn-layer-norm.h: layer normalization (torch.nn.LayerNorm)
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

#define GNN_TYPE_LAYER_NORM (gnn_layer_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnLayerNorm, gnn_layer_norm, GNN, LAYER_NORM, GnnModule)

/**
 * GnnLayerNormClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.LayerNorm], derivable as `torch.nn.LayerNorm` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnLayerNormClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnLayerNorm *gnn_layer_norm_new                  (const gint64  *normalized_shape,
                                                   guint          n,
                                                   double         eps,
                                                   gboolean       elementwise_affine,
                                                   GError       **error);
GNN_AVAILABLE_IN_ALL
const gint64 *gnn_layer_norm_get_normalized_shape (GnnLayerNorm  *self,
                                                   guint         *n);

G_END_DECLS
