/* gnn-upsample.h: resampling layer (torch.nn.Upsample)
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

#define GNN_TYPE_UPSAMPLE (gnn_upsample_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnUpsample, gnn_upsample, GNN, UPSAMPLE, GnnModule)

/**
 * GnnUpsampleClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Upsample].
 *
 * Since: 0.1
 */
struct _GnnUpsampleClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnUpsample *gnn_upsample_new (const gint64       *size,
                               guint               n_size,
                               const double       *scale_factor,
                               guint               n_scale_factor,
                               GnnInterpolateMode  mode,
                               gboolean            align_corners);

G_END_DECLS
