/* gnn-softshrink.h: the Softshrink activation (torch.nn.Softshrink)
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

#define GNN_TYPE_SOFTSHRINK (gnn_softshrink_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftshrink, gnn_softshrink, GNN, SOFTSHRINK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftshrink *gnn_softshrink_new (double lambd);

G_END_DECLS
