/* gnn-cifar100.h: CIFAR-100 in torchvision's folder layout (torchvision.datasets.CIFAR100)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-cifar10.h>

G_BEGIN_DECLS

#define GNN_TYPE_CIFAR100 (gnn_cifar100_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCIFAR100, gnn_cifar100, GNN, CIFAR100, GnnCIFAR10)

GNN_AVAILABLE_IN_ALL
GnnCIFAR100 *gnn_cifar100_new (const char    *root,
                               gboolean       train,
                               gboolean       download,
                               GnnTransform  *transform,
                               GnnTransform  *target_transform,
                               GError       **error);

G_END_DECLS
