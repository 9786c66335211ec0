/* gnn-instance-norm3d.h: instance normalization of 3 spatial dimensions (torch.nn.InstanceNorm3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-instance-norm-nd.h>

G_BEGIN_DECLS

#define GNN_TYPE_INSTANCE_NORM3D (gnn_instance_norm3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnInstanceNorm3d, gnn_instance_norm3d, GNN, INSTANCE_NORM3D, GnnInstanceNormNd)

GNN_AVAILABLE_IN_ALL
GnnInstanceNorm3d *gnn_instance_norm3d_new (gint64     num_features,
                                            double     eps,
                                            double     momentum,
                                            gboolean   affine,
                                            gboolean   track_running_stats,
                                            GError   **error);

G_END_DECLS
