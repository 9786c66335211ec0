/* gnn-dataset-folder.h: samples in one folder per class (torchvision.datasets.DatasetFolder)
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

#define GNN_TYPE_DATASET_FOLDER (gnn_dataset_folder_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnDatasetFolder, gnn_dataset_folder, GNN, DATASET_FOLDER, GnnVisionDataset)

/**
 * GnnDatasetFolderClass:
 * @parent_class: the parent class
 * @load: reads the sample at @path (torchvision's `loader`): by default
 *   the image decoded and converted to RGB
 * @is_valid_file: whether the file at @path is a sample; by default,
 *   whether its name ends with one of the extensions (any file without
 *   extensions)
 *
 * The class of [class@Gnn.DatasetFolder].
 *
 * Since: 0.1
 */
struct _GnnDatasetFolderClass
{
  GnnVisionDatasetClass parent_class;

  GnnTensor *(*load)          (GnnDatasetFolder  *self,
                               const char        *path,
                               GError           **error);
  gboolean   (*is_valid_file) (GnnDatasetFolder  *self,
                               const char        *path);

  /*< private >*/
  const char *const *default_extensions;
  gpointer           padding[7];
};

GNN_AVAILABLE_IN_ALL
GnnDatasetFolder *gnn_dataset_folder_new         (const char         *root,
                                                  const char * const *extensions,
                                                  GnnTransform       *transform,
                                                  GnnTransform       *target_transform,
                                                  GError            **error);
GNN_AVAILABLE_IN_ALL
GnnTensor        *gnn_dataset_folder_load          (GnnDatasetFolder   *self,
                                                    const char         *path,
                                                    GError            **error);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_dataset_folder_is_valid_file (GnnDatasetFolder   *self,
                                                    const char         *path);
GNN_AVAILABLE_IN_ALL
const char       *gnn_dataset_folder_get_path    (GnnDatasetFolder   *self,
                                                  gint64              index);
GNN_AVAILABLE_IN_ALL
GnnTensor        *gnn_dataset_folder_get_targets (GnnDatasetFolder   *self);

G_END_DECLS
