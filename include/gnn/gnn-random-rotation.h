/* gnn-random-rotation.h: a rotation by a random angle (torchvision.transforms.RandomRotation)
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

#define GNN_TYPE_RANDOM_ROTATION (gnn_random_rotation_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomRotation, gnn_random_rotation, GNN, RANDOM_ROTATION, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnRandomRotation *gnn_random_rotation_new (double                 degrees_min,
                                            double                 degrees_max,
                                            GnnInterpolationMode   interpolation,
                                            gboolean               expand,
                                            const double          *center,
                                            gsize                  n_center,
                                            const double          *fill,
                                            gsize                  n_fill,
                                            GError               **error);

G_END_DECLS
