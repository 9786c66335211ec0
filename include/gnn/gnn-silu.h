/* gnn-silu.h: the SiLU activation (torch.nn.SiLU)
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

#define GNN_TYPE_SILU (gnn_silu_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSiLU, gnn_silu, GNN, SILU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSiLU *gnn_silu_new (gboolean  inplace);

G_END_DECLS
