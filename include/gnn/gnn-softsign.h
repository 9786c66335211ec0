/* gnn-softsign.h: the Softsign activation (torch.nn.Softsign)
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

#define GNN_TYPE_SOFTSIGN (gnn_softsign_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftsign, gnn_softsign, GNN, SOFTSIGN, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftsign *gnn_softsign_new (void);

G_END_DECLS
