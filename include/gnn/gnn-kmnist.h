/* gnn-kmnist.h: Kuzushiji-MNIST (torchvision.datasets.KMNIST)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-mnist.h>

G_BEGIN_DECLS

#define GNN_TYPE_KMNIST (gnn_kmnist_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnKMNIST, gnn_kmnist, GNN, KMNIST, GnnMNIST)

GNN_AVAILABLE_IN_ALL
GnnKMNIST *gnn_kmnist_new (const char    *root,
                           gboolean       train,
                           gboolean       download,
                           GnnTransform  *transform,
                           GnnTransform  *target_transform,
                           GError       **error);

G_END_DECLS
