/* gnn-tanhshrink.h: the Tanhshrink activation (torch.nn.Tanhshrink)
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

#define GNN_TYPE_TANHSHRINK (gnn_tanhshrink_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTanhshrink, gnn_tanhshrink, GNN, TANHSHRINK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTanhshrink *gnn_tanhshrink_new (void);

G_END_DECLS
