/* gnn-identity.h: a placeholder that returns its input (torch.nn.Identity)
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

#define GNN_TYPE_IDENTITY (gnn_identity_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnIdentity, gnn_identity, GNN, IDENTITY, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnIdentity *gnn_identity_new (void);

G_END_DECLS
