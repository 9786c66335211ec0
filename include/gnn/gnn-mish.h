/* gnn-mish.h: the Mish activation (torch.nn.Mish)
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

#define GNN_TYPE_MISH (gnn_mish_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMish, gnn_mish, GNN, MISH, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMish *gnn_mish_new (gboolean  inplace);

G_END_DECLS
