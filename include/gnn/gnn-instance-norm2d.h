/* gnn-instance-norm2d.h: instance normalization of 2 spatial dimensions (torch.nn.InstanceNorm2d)
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

#define GNN_TYPE_INSTANCE_NORM2D (gnn_instance_norm2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnInstanceNorm2d, gnn_instance_norm2d, GNN, INSTANCE_NORM2D, GnnInstanceNormNd)

GNN_AVAILABLE_IN_ALL
GnnInstanceNorm2d *gnn_instance_norm2d_new (gint64     num_features,
                                            double     eps,
                                            double     momentum,
                                            gboolean   affine,
                                            gboolean   track_running_stats,
                                            GError   **error);

G_END_DECLS
