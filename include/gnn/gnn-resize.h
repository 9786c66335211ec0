/* gnn-resize.h: resizing (torchvision.transforms.Resize)
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

#define GNN_TYPE_RESIZE (gnn_resize_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnResize, gnn_resize, GNN, RESIZE, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnResize *gnn_resize_new (const gint64          *size,
                           gsize                  n_size,
                           GnnInterpolationMode   interpolation,
                           gint64                 max_size,
                           gboolean               antialias,
                           GError               **error);

G_END_DECLS
