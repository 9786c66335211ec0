/* gnn-pad.h: padding (torchvision.transforms.Pad)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-transform.h>
#include <gnn/gnn-vision-functional.h>

G_BEGIN_DECLS

#define GNN_TYPE_PAD (gnn_pad_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPad, gnn_pad, GNN, PAD, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnPad *gnn_pad_new (const gint64          *padding,
                     gsize                  n_padding,
                     const double          *fill,
                     gsize                  n_fill,
                     GnnVisionPaddingMode   padding_mode,
                     GError               **error);

G_END_DECLS
