/* gnn-instance-norm-nd-private.h: for the InstanceNorm1d/2d/3d classes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* The constructor functions: checks the values (the properties' own range
 * checks only warn) and builds a @type layer. */
gpointer gnn_instance_norm_nd_new (GType      type,
                                   gint64     num_features,
                                   double     eps,
                                   double     momentum,
                                   gboolean   affine,
                                   gboolean   track_running_stats,
                                   GError   **error);

G_END_DECLS
