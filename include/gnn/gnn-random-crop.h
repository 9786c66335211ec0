/* gnn-random-crop.h: a crop at a random place (torchvision.transforms.RandomCrop)
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

#define GNN_TYPE_RANDOM_CROP (gnn_random_crop_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomCrop, gnn_random_crop, GNN, RANDOM_CROP, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnRandomCrop *gnn_random_crop_new (const gint64          *size,
                                    gsize                  n_size,
                                    const gint64          *padding,
                                    gsize                  n_padding,
                                    gboolean               pad_if_needed,
                                    const double          *fill,
                                    gsize                  n_fill,
                                    GnnVisionPaddingMode   padding_mode,
                                    GError               **error);

G_END_DECLS
