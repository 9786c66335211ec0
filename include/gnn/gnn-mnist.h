/* gnn-mnist.h: MNIST in torchvision's folder layout (torchvision.datasets.MNIST)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-vision-dataset.h>

G_BEGIN_DECLS

#define GNN_TYPE_MNIST (gnn_mnist_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnMNIST, gnn_mnist, GNN, MNIST, GnnVisionDataset)

/**
 * GnnMNISTClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.MNIST]; its subclasses ([class@Gnn.FashionMNIST],
 * [class@Gnn.KMNIST]) differ in their folder name, class names and where
 * a download without network finds the files.
 *
 * Since: 0.1
 */
struct _GnnMNISTClass
{
  GnnVisionDatasetClass parent_class;

  /*< private >*/
  const char        *name;
  const char        *debian_package;
  const char        *debian_dir;
  const char *const *classes;
  gpointer           padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnMNIST  *gnn_mnist_new         (const char    *root,
                                  gboolean       train,
                                  gboolean       download,
                                  GnnTransform  *transform,
                                  GnnTransform  *target_transform,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_mnist_get_data    (GnnMNIST      *self);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_mnist_get_targets (GnnMNIST      *self);

G_END_DECLS
