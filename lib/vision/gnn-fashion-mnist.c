/* gnn-fashion-mnist.c: Fashion-MNIST in torchvision's folder layout
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"
#include "vision/gnn-vision-dataset-private.h"

/**
 * GnnFashionMNIST:
 *
 * torchvision's `datasets.FashionMNIST(root, train=True, transform=None,
 * target_transform=None, download=False)`: [class@Gnn.MNIST] reading
 * `root/FashionMNIST/raw`, with Fashion-MNIST's class names.
 * With download=True the files come from Debian's `dataset-fashion-mnist`
 * (`/usr/share/datasets/fashion-mnist`) when it is installed.
 *
 * Since: 0.1
 */
struct _GnnFashionMNIST
{
  GnnMNIST parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnFashionMNIST, gnn_fashion_mnist, GNN_TYPE_MNIST)

static const char *const fashion_mnist_classes[] = {
  "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
  "Ankle boot", NULL,
};

static void
gnn_fashion_mnist_class_init (GnnFashionMNISTClass *klass)
{
  GnnMNISTClass *mnist_class = GNN_MNIST_CLASS (klass);

  mnist_class->name = "FashionMNIST";
  mnist_class->classes = fashion_mnist_classes;
  mnist_class->debian_package = "dataset-fashion-mnist";
  mnist_class->debian_dir = "/usr/share/datasets/fashion-mnist";
}

static void
gnn_fashion_mnist_init (GnnFashionMNIST *self)
{
}

/**
 * gnn_fashion_mnist_new:
 * @root: (type filename): the folder holding `FashionMNIST/raw`
 * @train: the training set (else the test set)
 * @download: whether missing files are fetched (see [class@Gnn.MNIST])
 * @transform: (nullable): the transform of the images
 * @target_transform: (nullable): the transform of the labels
 * @error: return location for a #GError
 *
 * Reads the dataset, like `datasets.FashionMNIST(root, train, transform,
 * target_transform, download)`.
 *
 * Returns: (transfer full): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnFashionMNIST *
gnn_fashion_mnist_new (const char    *root,
                       gboolean       train,
                       gboolean       download,
                       GnnTransform  *transform,
                       GnnTransform  *target_transform,
                       GError       **error)
{
  GnnMNIST *mnist = gnn_mnist_new_of_type (GNN_TYPE_FASHION_MNIST, root, train, download, transform,
                                           target_transform, error);

  return mnist != NULL ? GNN_FASHION_MNIST (mnist) : NULL;
}
