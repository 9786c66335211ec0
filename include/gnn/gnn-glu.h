/* gnn-glu.h: the GLU activation (torch.nn.GLU)
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

#define GNN_TYPE_GLU (gnn_glu_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGLU, gnn_glu, GNN, GLU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnGLU *gnn_glu_new (gint      dim);

G_END_DECLS
