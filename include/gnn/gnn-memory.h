/* gnn-memory.h: the cache of freed tensor memory
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
void    gnn_empty_cache          (void);
GNN_AVAILABLE_IN_ALL
void    gnn_set_cache_limit      (guint64 bytes);
GNN_AVAILABLE_IN_ALL
guint64 gnn_get_cache_limit      (void);
GNN_AVAILABLE_IN_ALL
guint64 gnn_get_cache_size       (void);

G_END_DECLS
