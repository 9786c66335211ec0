/* gnn-hardsigmoid.h: the Hardsigmoid activation (torch.nn.Hardsigmoid)
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

#define GNN_TYPE_HARDSIGMOID (gnn_hardsigmoid_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHardsigmoid, gnn_hardsigmoid, GNN, HARDSIGMOID, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHardsigmoid *gnn_hardsigmoid_new (gboolean  inplace);

G_END_DECLS
