/* gnn-fold.h: columns of sliding blocks back to images (torch.nn.Fold)
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

#define GNN_TYPE_FOLD (gnn_fold_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFold, gnn_fold, GNN, FOLD, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnFold *gnn_fold_new (gint64   output_h,
                       gint64   output_w,
                       gint64   kernel_h,
                       gint64   kernel_w,
                       gint64   dilation,
                       gint64   padding,
                       gint64   stride,
                       GError **error);

G_END_DECLS
