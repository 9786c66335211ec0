/* gnn-elu.h: the ELU activation (torch.nn.ELU)
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

#define GNN_TYPE_ELU (gnn_elu_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnELU, gnn_elu, GNN, ELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnELU *gnn_elu_new (double    alpha,
                     gboolean  inplace);

G_END_DECLS
