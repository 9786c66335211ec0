/* gnn-replication-pad2d.h: replication padding of 2 dimensions (torch.nn.ReplicationPad2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-pad-nd.h>

G_BEGIN_DECLS

#define GNN_TYPE_REPLICATION_PAD2D (gnn_replication_pad2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReplicationPad2d, gnn_replication_pad2d, GNN, REPLICATION_PAD2D, GnnPadNd)

GNN_AVAILABLE_IN_ALL
GnnReplicationPad2d *gnn_replication_pad2d_new (gint64   left,
                                                gint64   right,
                                                gint64   top,
                                                gint64   bottom,
                                                GError **error);

G_END_DECLS
