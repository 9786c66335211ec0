/* gnn-random-vertical-flip.h: a flip upside down with probability p (torchvision.transforms.RandomVerticalFlip)
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

#define GNN_TYPE_RANDOM_VERTICAL_FLIP (gnn_random_vertical_flip_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomVerticalFlip, gnn_random_vertical_flip, GNN, RANDOM_VERTICAL_FLIP, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnRandomVerticalFlip *gnn_random_vertical_flip_new (double p);

G_END_DECLS
