/* gnn-batch-norm.h: batch normalization (torch.nn.BatchNorm1d/2d/3d)
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

#define GNN_TYPE_BATCH_NORM_BASE (gnn_batch_norm_base_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnBatchNormBase, gnn_batch_norm_base, GNN, BATCH_NORM_BASE, GnnModule)

/**
 * GnnBatchNormBaseClass:
 * @parent_class: the parent class
 * @check_input_dim: validates the input's number of dims (PyTorch's
 *   `_check_input_dim`); returns %FALSE with @error set to reject it
 *
 * The class of [class@Gnn.BatchNormBase].
 *
 * Since: 0.1
 */
struct _GnnBatchNormBaseClass
{
  GnnModuleClass parent_class;

  gboolean (*check_input_dim) (GnnBatchNormBase  *self,
                               GnnTensor         *input,
                               GError           **error);

  /*< private >*/
  gpointer padding[4];
};

#define GNN_TYPE_BATCH_NORM1D (gnn_batch_norm1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnBatchNorm1d, gnn_batch_norm1d, GNN, BATCH_NORM1D, GnnBatchNormBase)

/**
 * GnnBatchNorm1dClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.BatchNorm1d], derivable as `torch.nn.BatchNorm1d` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnBatchNorm1dClass
{
  GnnBatchNormBaseClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

#define GNN_TYPE_BATCH_NORM2D (gnn_batch_norm2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnBatchNorm2d, gnn_batch_norm2d, GNN, BATCH_NORM2D, GnnBatchNormBase)

/**
 * GnnBatchNorm2dClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.BatchNorm2d], derivable as `torch.nn.BatchNorm2d` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnBatchNorm2dClass
{
  GnnBatchNormBaseClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

#define GNN_TYPE_BATCH_NORM3D (gnn_batch_norm3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnBatchNorm3d, gnn_batch_norm3d, GNN, BATCH_NORM3D, GnnBatchNormBase)

/**
 * GnnBatchNorm3dClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.BatchNorm3d], derivable as `torch.nn.BatchNorm3d` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnBatchNorm3dClass
{
  GnnBatchNormBaseClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnBatchNorm1d *gnn_batch_norm1d_new (gint64     num_features,
                                      double     eps,
                                      double     momentum,
                                      gboolean   affine,
                                      gboolean   track_running_stats,
                                      GError   **error);
GNN_AVAILABLE_IN_ALL
GnnBatchNorm2d *gnn_batch_norm2d_new (gint64     num_features,
                                      double     eps,
                                      double     momentum,
                                      gboolean   affine,
                                      gboolean   track_running_stats,
                                      GError   **error);

GNN_AVAILABLE_IN_ALL
GnnBatchNorm3d *gnn_batch_norm3d_new (gint64     num_features,
                                      double     eps,
                                      double     momentum,
                                      gboolean   affine,
                                      gboolean   track_running_stats,
                                      GError   **error);

G_END_DECLS
