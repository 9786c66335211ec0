/* gnn-image-folder.h: images in one folder per class (torchvision.datasets.ImageFolder)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-dataset-folder.h>

G_BEGIN_DECLS

#define GNN_TYPE_IMAGE_FOLDER (gnn_image_folder_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnImageFolder, gnn_image_folder, GNN, IMAGE_FOLDER, GnnDatasetFolder)

/**
 * GnnImageFolderClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.ImageFolder].
 *
 * Since: 0.1
 */
struct _GnnImageFolderClass
{
  GnnDatasetFolderClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnImageFolder *gnn_image_folder_new (const char    *root,
                                      GnnTransform  *transform,
                                      GnnTransform  *target_transform,
                                      GError       **error);

G_END_DECLS
