/* gnn-vision-dataset-private.h: what the image datasets share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* Sets the class names (taken over). */
void       gnn_vision_dataset_set_classes (GnnVisionDataset *self, GStrv classes);
/* A label: a 0-d int64 tensor. */
GnnTensor *gnn_vision_label_new           (gint64 label);

/* A dataset of torchvision's (root, train, transform, target_transform,
 * download) signature: an instance of @type, initialized. */
gpointer   gnn_vision_split_dataset_new   (GType type, const char *root, gboolean train,
                                           gboolean download, GnnTransform *transform,
                                           GnnTransform *target_transform, GError **error);

/* A dataset of the MNIST family (@type derives GnnMNIST). */
GnnMNIST  *gnn_mnist_new_of_type          (GType type, const char *root, gboolean train,
                                           gboolean download, GnnTransform *transform,
                                           GnnTransform *target_transform, GError **error);

/* A dataset of the CIFAR family (@type derives GnnCIFAR10). */
GnnCIFAR10 *gnn_cifar10_new_of_type       (GType type, const char *root, gboolean train,
                                           gboolean download, GnnTransform *transform,
                                           GnnTransform *target_transform, GError **error);

G_END_DECLS
