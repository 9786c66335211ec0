/* gnn-unfold.h: sliding blocks to columns (torch.nn.Unfold)
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

#define GNN_TYPE_UNFOLD (gnn_unfold_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUnfold, gnn_unfold, GNN, UNFOLD, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnUnfold *gnn_unfold_new (gint64   kernel_h,
                           gint64   kernel_w,
                           gint64   dilation,
                           gint64   padding,
                           gint64   stride,
                           GError **error);

G_END_DECLS
