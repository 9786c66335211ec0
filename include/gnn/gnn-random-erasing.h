/* gnn-random-erasing.h: a random rectangle erased (torchvision.transforms.RandomErasing)
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

#define GNN_TYPE_RANDOM_ERASING (gnn_random_erasing_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomErasing, gnn_random_erasing, GNN, RANDOM_ERASING, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnRandomErasing *gnn_random_erasing_new (double         p,
                                          double         scale_min,
                                          double         scale_max,
                                          double         ratio_min,
                                          double         ratio_max,
                                          const double  *value,
                                          gsize          n_value,
                                          gboolean       inplace,
                                          GError       **error);

G_END_DECLS
