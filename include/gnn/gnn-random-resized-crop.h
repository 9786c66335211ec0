/* gnn-random-resized-crop.h: a random crop resized (torchvision.transforms.RandomResizedCrop)
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

#define GNN_TYPE_RANDOM_RESIZED_CROP (gnn_random_resized_crop_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomResizedCrop, gnn_random_resized_crop, GNN, RANDOM_RESIZED_CROP, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnRandomResizedCrop *gnn_random_resized_crop_new (const gint64          *size,
                                                   gsize                  n_size,
                                                   double                 scale_min,
                                                   double                 scale_max,
                                                   double                 ratio_min,
                                                   double                 ratio_max,
                                                   GnnInterpolationMode   interpolation,
                                                   GError               **error);

G_END_DECLS
