/* gnn-linear.h: a fully connected layer (torch.nn.Linear)
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
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_LINEAR (gnn_linear_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnLinear, gnn_linear, GNN, LINEAR, GnnModule)

/**
 * GnnLinearClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Linear], derivable as `torch.nn.Linear` is
 * (MultiheadAttention's `NonDynamicallyQuantizableLinear`, a Python
 * subclass with a forward of its own).
 *
 * Since: 0.1
 */
struct _GnnLinearClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnLinear *gnn_linear_new              (gint64         in_features,
                                        gint64         out_features,
                                        gboolean       bias,
                                        GnnGenerator  *generator,
                                        GError       **error);
GNN_AVAILABLE_IN_ALL
gint64     gnn_linear_get_in_features  (GnnLinear     *self);
GNN_AVAILABLE_IN_ALL
gint64     gnn_linear_get_out_features (GnnLinear     *self);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_linear_reset_parameters (GnnLinear     *self,
                                        GnnGenerator  *generator,
                                        GError       **error);

G_END_DECLS
