/* gnn-group-norm.h: group normalization (torch.nn.GroupNorm)
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

#define GNN_TYPE_GROUP_NORM (gnn_group_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGroupNorm, gnn_group_norm, GNN, GROUP_NORM, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnGroupNorm *gnn_group_norm_new (gint64     num_groups,
                                  gint64     num_channels,
                                  double     eps,
                                  gboolean   affine,
                                  GError   **error);

G_END_DECLS
