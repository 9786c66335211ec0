/* gnn-threads.h: how many threads Gnn's operations use
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib.h>
#include <gnn/gnn-version-macros.h>

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
gboolean gnn_set_num_threads (gint     n,
                              GError **error);
GNN_AVAILABLE_IN_ALL
guint    gnn_get_num_threads (void);

G_END_DECLS
