/* gnn-fashion-mnist.h: Fashion-MNIST (torchvision.datasets.FashionMNIST)
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

#define GNN_TYPE_FASHION_MNIST (gnn_fashion_mnist_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFashionMNIST, gnn_fashion_mnist, GNN, FASHION_MNIST, GnnMNIST)

GNN_AVAILABLE_IN_ALL
GnnFashionMNIST *gnn_fashion_mnist_new (const char    *root,
                                        gboolean       train,
                                        gboolean       download,
                                        GnnTransform  *transform,
                                        GnnTransform  *target_transform,
                                        GError       **error);

G_END_DECLS
