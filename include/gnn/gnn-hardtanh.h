/* gnn-hardtanh.h: the Hardtanh activation (torch.nn.Hardtanh)
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

#define GNN_TYPE_HARDTANH (gnn_hardtanh_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHardtanh, gnn_hardtanh, GNN, HARDTANH, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHardtanh *gnn_hardtanh_new (double    min_val,
                               double    max_val,
                               gboolean  inplace,
                               GError  **error);

G_END_DECLS
