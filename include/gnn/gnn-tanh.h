/* gnn-tanh.h: the hyperbolic tangent (torch.nn.Tanh)
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

#define GNN_TYPE_TANH (gnn_tanh_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTanh, gnn_tanh, GNN, TANH, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTanh *gnn_tanh_new (void);

G_END_DECLS
