/* gnn-hardshrink.h: the Hardshrink activation (torch.nn.Hardshrink)
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

#define GNN_TYPE_HARDSHRINK (gnn_hardshrink_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHardshrink, gnn_hardshrink, GNN, HARDSHRINK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHardshrink *gnn_hardshrink_new (double lambd);

G_END_DECLS
