/* gnn-image-folder.c: images in one folder per class
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnImageFolder:
 *
 * torchvision's `datasets.ImageFolder(root, transform=None,
 * target_transform=None, loader=default_loader, is_valid_file=None)`: a
 * [class@Gnn.DatasetFolder] of images (torchvision's `IMG_EXTENSIONS`:
 * .jpg, .jpeg, .png, .ppm, .bmp, .pgm, .tif, .tiff, .webp), each decoded
 * through GdkPixbuf and converted to RGB. Decoding runs in the loader's
 * workers, threads or processes.
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnImageFolder, gnn_image_folder, GNN_TYPE_DATASET_FOLDER)

static const char *const img_extensions[] = {
  ".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp", NULL,
};

static void
gnn_image_folder_class_init (GnnImageFolderClass *klass)
{
  GNN_DATASET_FOLDER_CLASS (klass)->default_extensions = img_extensions;
}

static void
gnn_image_folder_init (GnnImageFolder *self)
{
}

/**
 * gnn_image_folder_new:
 * @root: (type filename): the folder of class folders
 * @transform: (nullable): the transform of the images
 * @target_transform: (nullable): the transform of the labels
 * @error: return location for a #GError
 *
 * Scans the folder, like `datasets.ImageFolder(root, transform,
 * target_transform)`.
 *
 * Returns: (transfer full): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnImageFolder *
gnn_image_folder_new (const char    *root,
                      GnnTransform  *transform,
                      GnnTransform  *target_transform,
                      GError       **error)
{
  g_return_val_if_fail (root != NULL, NULL);
  return g_initable_new (GNN_TYPE_IMAGE_FOLDER, NULL, error, "root", root, "transform", transform,
                         "target-transform", target_transform, NULL);
}
