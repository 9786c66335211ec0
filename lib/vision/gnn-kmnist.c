/* gnn-kmnist.c: Kuzushiji-MNIST in torchvision's folder layout
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"
#include "vision/gnn-vision-dataset-private.h"

/**
 * GnnKMNIST:
 *
 * torchvision's `datasets.KMNIST(root, train=True, transform=None,
 * target_transform=None, download=False)`: [class@Gnn.MNIST] reading
 * `root/KMNIST/raw`, with Kuzushiji-MNIST's class names.
 * No Debian package ships it: download=True fails unless the files are
 * in place.
 *
 * Since: 0.1
 */
struct _GnnKMNIST
{
  GnnMNIST parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnKMNIST, gnn_kmnist, GNN_TYPE_MNIST)

static const char *const kmnist_classes[] = {
  "o", "ki", "su", "tsu", "na", "ha", "ma", "ya", "re", "wo", NULL,
};

static void
gnn_kmnist_class_init (GnnKMNISTClass *klass)
{
  GnnMNISTClass *mnist_class = GNN_MNIST_CLASS (klass);

  mnist_class->name = "KMNIST";
  mnist_class->classes = kmnist_classes;

}

static void
gnn_kmnist_init (GnnKMNIST *self)
{
}

/**
 * gnn_kmnist_new:
 * @root: (type filename): the folder holding `KMNIST/raw`
 * @train: the training set (else the test set)
 * @download: whether missing files are fetched (see [class@Gnn.MNIST])
 * @transform: (nullable): the transform of the images
 * @target_transform: (nullable): the transform of the labels
 * @error: return location for a #GError
 *
 * Reads the dataset, like `datasets.KMNIST(root, train, transform,
 * target_transform, download)`.
 *
 * Returns: (transfer full): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnKMNIST *
gnn_kmnist_new (const char    *root,
                gboolean       train,
                gboolean       download,
                GnnTransform  *transform,
                GnnTransform  *target_transform,
                GError       **error)
{
  GnnMNIST *mnist = gnn_mnist_new_of_type (GNN_TYPE_KMNIST, root, train, download, transform,
                                           target_transform, error);

  return mnist != NULL ? GNN_KMNIST (mnist) : NULL;
}
