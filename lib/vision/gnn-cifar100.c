/* gnn-cifar100.c: CIFAR-100 in torchvision's folder layout
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-dataset-private.h"

/**
 * GnnCIFAR100:
 *
 * torchvision's `datasets.CIFAR100(root, train=True, transform=None,
 * target_transform=None, download=False)`: [class@Gnn.CIFAR10] reading
 * `root/cifar-100-python` (`train`, `test`, `meta`), with the 100 fine
 * labels (`fine_labels`) as targets and `meta`'s `fine_label_names` as the
 * classes, as torchvision's subclass does.
 *
 * Since: 0.1
 */
struct _GnnCIFAR100
{
  GnnCIFAR10 parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnCIFAR100, gnn_cifar100, GNN_TYPE_CIFAR10)

static const char *const cifar100_train_list[] = {
  "train", "16019d7e3df5f24257cddd939b257f8d", NULL,
};

static const char *const cifar100_test_list[] = {
  "test", "f0ef6b0ae62326f3e7ffdfab6717acfc", NULL,
};

static void
gnn_cifar100_class_init (GnnCIFAR100Class *klass)
{
  GnnCIFAR10Class *cifar_class = GNN_CIFAR10_CLASS (klass);

  cifar_class->name = "CIFAR100";
  cifar_class->base_folder = "cifar-100-python";
  cifar_class->train_list = cifar100_train_list;
  cifar_class->test_list = cifar100_test_list;
  cifar_class->meta_file = "meta";
  cifar_class->meta_md5 = "7973b15100ade9c7d40fb424638fde48";
  cifar_class->meta_key = "fine_label_names";
}

static void
gnn_cifar100_init (GnnCIFAR100 *self)
{
}

/**
 * gnn_cifar100_new:
 * @root: (type filename): the folder holding `cifar-100-python`
 * @train: the training set (else the test set)
 * @download: whether missing files are fetched (see [class@Gnn.CIFAR10])
 * @transform: (nullable): the transform of the images
 * @target_transform: (nullable): the transform of the labels
 * @error: return location for a #GError
 *
 * Reads the dataset, like `datasets.CIFAR100(root, train, transform,
 * target_transform, download)`.
 *
 * Returns: (transfer full): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnCIFAR100 *
gnn_cifar100_new (const char    *root,
                  gboolean       train,
                  gboolean       download,
                  GnnTransform  *transform,
                  GnnTransform  *target_transform,
                  GError       **error)
{
  GnnCIFAR10 *cifar = gnn_cifar10_new_of_type (GNN_TYPE_CIFAR100, root, train, download, transform,
                                               target_transform, error);

  return cifar != NULL ? GNN_CIFAR100 (cifar) : NULL;
}
