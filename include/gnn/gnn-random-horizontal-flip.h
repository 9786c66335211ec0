/* gnn-random-horizontal-flip.h: a flip left to right with probability p (torchvision.transforms.RandomHorizontalFlip)
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

#define GNN_TYPE_RANDOM_HORIZONTAL_FLIP (gnn_random_horizontal_flip_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomHorizontalFlip, gnn_random_horizontal_flip, GNN, RANDOM_HORIZONTAL_FLIP, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnRandomHorizontalFlip *gnn_random_horizontal_flip_new (double p);

G_END_DECLS
