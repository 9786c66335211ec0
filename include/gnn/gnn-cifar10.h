/* gnn-cifar10.h: CIFAR-10 in torchvision's folder layout (torchvision.datasets.CIFAR10)
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

#define GNN_TYPE_CIFAR10 (gnn_cifar10_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnCIFAR10, gnn_cifar10, GNN, CIFAR10, GnnVisionDataset)

/**
 * GnnCIFAR10Class:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.CIFAR10]; [class@Gnn.CIFAR100] differs in its
 * folder, file names, checksums and the keys of its labels and class
 * names, as torchvision's subclass does.
 *
 * Since: 0.1
 */
struct _GnnCIFAR10Class
{
  GnnVisionDatasetClass parent_class;

  /*< private >*/
  const char        *name;
  const char        *base_folder;
  const char *const *train_list;   /* file name, md5, ..., NULL */
  const char *const *test_list;
  const char        *meta_file;
  const char        *meta_md5;
  const char        *meta_key;
  gpointer           padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnCIFAR10 *gnn_cifar10_new         (const char    *root,
                                     gboolean       train,
                                     gboolean       download,
                                     GnnTransform  *transform,
                                     GnnTransform  *target_transform,
                                     GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_cifar10_get_data    (GnnCIFAR10    *self);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_cifar10_get_targets (GnnCIFAR10    *self);

G_END_DECLS
