/* gnn-dataset-folder.c: samples in one folder per class
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-vision-dataset-private.h"
#include "vision/gnn-image-private.h"

/**
 * GnnDatasetFolder:
 *
 * torchvision's `datasets.DatasetFolder(root, loader, extensions=None,
 * transform=None, target_transform=None, is_valid_file=None)`: the classes
 * are the sub-folders of [property@Gnn.VisionDataset:root] in sorted
 * order (label `i` is the `i`-th), and the samples every valid file under
 * each class folder, found as torchvision finds them (`os.walk` following
 * symbolic links, the folders in sorted path order, the files of each in
 * sorted order). The folder is scanned once, at construction; `get_item`
 * reads the sample with the class's `load` (by default the image, decoded
 * and converted to RGB as torchvision's default loader does) and applies
 * the transforms, in the loader's workers.
 *
 * Errors are torchvision's: a missing root, no class folder ("Couldn't find
 * any class folder in ..."), a class without a valid file ("Found no valid
 * file for the classes ..."); a file that does not decode is an error
 * naming its path, raised by the `get_item` that reads it.
 *
 * Since: 0.1
 */
typedef struct
{
  GStrv      extensions;
  GPtrArray *paths;     /* char *, one per sample */
  GArray    *targets;   /* gint64 */
  gboolean   scanned;
} GnnDatasetFolderPrivate;

enum { PROP_0, PROP_EXTENSIONS, N_PROPS };

static void gnn_dataset_folder_initable_iface_init (GInitableIface *iface);

G_DEFINE_TYPE_WITH_CODE (GnnDatasetFolder, gnn_dataset_folder, GNN_TYPE_VISION_DATASET,
                         G_ADD_PRIVATE (GnnDatasetFolder)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                gnn_dataset_folder_initable_iface_init))

static gint64
gnn_dataset_folder_get_length (GnnDataset *dataset)
{
  GnnDatasetFolderPrivate *priv =
    gnn_dataset_folder_get_instance_private (GNN_DATASET_FOLDER (dataset));

  return priv->paths != NULL ? priv->paths->len : 0;
}

static gboolean
gnn_dataset_folder_get_sample (GnnVisionDataset  *dataset,
                               gint64             index,
                               GnnTensor        **input,
                               GnnTensor        **target,
                               GError           **error)
{
  GnnDatasetFolder *self = GNN_DATASET_FOLDER (dataset);
  GnnDatasetFolderPrivate *priv = gnn_dataset_folder_get_instance_private (self);
  GnnDatasetFolderClass *klass = GNN_DATASET_FOLDER_GET_CLASS (self);
  const char *path = g_ptr_array_index (priv->paths, index);

  *input = klass->load (self, path, error);
  if (*input == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s: the loader returned nothing", path);
      return FALSE;
    }
  *target = gnn_vision_label_new (g_array_index (priv->targets, gint64, index));
  return TRUE;
}

/* torchvision's default_loader: the image, converted to RGB. */
static GnnTensor *
gnn_dataset_folder_real_load (GnnDatasetFolder  *self,
                              const char        *path,
                              GError           **error)
{
  g_autoptr(GnnImage) image = gnn_image_new_from_file (path, error);

  if (image == NULL)
    return NULL;
  if (gnn_image_get_mode (image) == GNN_IMAGE_MODE_RGB)
    return GNN_TENSOR (g_steal_pointer (&image));
  return GNN_TENSOR (gnn_image_convert (image, GNN_IMAGE_MODE_RGB, error));
}

static const char *const *
extensions_of (GnnDatasetFolder *self)
{
  GnnDatasetFolderPrivate *priv = gnn_dataset_folder_get_instance_private (self);

  if (priv->extensions != NULL)
    return (const char *const *) priv->extensions;
  return GNN_DATASET_FOLDER_GET_CLASS (self)->default_extensions;
}

/* has_file_allowed_extension: filename.lower().endswith(extensions) */
static gboolean
gnn_dataset_folder_real_is_valid_file (GnnDatasetFolder *self,
                                       const char       *path)
{
  const char *const *exts = extensions_of (self);
  g_autofree char *lower = NULL;

  if (exts == NULL)
    return TRUE;   /* (an empty list: no file) */
  lower = g_utf8_strdown (path, -1);
  for (gsize i = 0; exts[i] != NULL; i++)
    {
      g_autofree char *ext = g_utf8_strdown (exts[i], -1);

      if (g_str_has_suffix (lower, ext))
        return TRUE;
    }
  return FALSE;
}

static void
gnn_dataset_folder_finalize (GObject *object)
{
  GnnDatasetFolderPrivate *priv =
    gnn_dataset_folder_get_instance_private (GNN_DATASET_FOLDER (object));

  g_clear_pointer (&priv->paths, g_ptr_array_unref);
  g_clear_pointer (&priv->targets, g_array_unref);
  G_OBJECT_CLASS (gnn_dataset_folder_parent_class)->finalize (object);
}

static void
gnn_dataset_folder_class_init (GnnDatasetFolderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_dataset_folder_finalize;
  GNN_DATASET_CLASS (klass)->get_length = gnn_dataset_folder_get_length;
  GNN_VISION_DATASET_CLASS (klass)->get_sample = gnn_dataset_folder_get_sample;
  klass->load = gnn_dataset_folder_real_load;
  klass->is_valid_file = gnn_dataset_folder_real_is_valid_file;

  /**
   * GnnDatasetFolder:extensions:
   *
   * The endings of the sample files' names, compared without case (none:
   * every file, or for [class@Gnn.ImageFolder] torchvision's
   * `IMG_EXTENSIONS`).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_EXTENSIONS,
    g_param_spec_boxed ("extensions", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnDatasetFolder, extensions));
}

static void
gnn_dataset_folder_init (GnnDatasetFolder *self)
{
}

/* --- the scan --------------------------------------------------------------- */

/* Every folder under @dir (itself first), following links, each once. */
static void
collect_dirs (const char *dir,
              GHashTable *seen,
              GPtrArray  *out)
{
  g_autoptr(GDir) d = NULL;
  struct stat st;
  const char *name;
  char *key;

  if (stat (dir, &st) != 0)
    return;
  key = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, (guint64) st.st_dev,
                         (guint64) st.st_ino);
  if (!g_hash_table_add (seen, key))
    return;   /* a link loop: os.walk would go round; once is enough */
  g_ptr_array_add (out, g_strdup (dir));
  d = g_dir_open (dir, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_dirs (path, seen, out);
    }
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The sorted names of the entries of @dir that are (or are not) folders. */
static GPtrArray *
list_sorted (const char  *dir,
             gboolean     folders,
             GError     **error)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *names;
  const char *name;

  if (d == NULL)
    {
      int code = errno;   /* Python's os.scandir message */

      g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "[Errno %d] %s: '%s'", code,
                   g_strerror (code), dir);
      return NULL;
    }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) == folders)
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_strings);
  return names;
}

static gboolean
scan (GnnDatasetFolder  *self,
      GError           **error)
{
  GnnDatasetFolderPrivate *priv = gnn_dataset_folder_get_instance_private (self);
  GnnDatasetFolderClass *klass = GNN_DATASET_FOLDER_GET_CLASS (self);
  const char *root = gnn_vision_dataset_get_root (GNN_VISION_DATASET (self));
  g_autoptr(GPtrArray) classes = NULL;
  g_autoptr(GString) empty = g_string_new (NULL);
  GStrv names;

  if (root == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: root is required", G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  classes = list_sorted (root, TRUE, error);
  if (classes == NULL)
    return FALSE;
  if (classes->len == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "Couldn't find any class folder in %s.", root);
      return FALSE;
    }
  priv->paths = g_ptr_array_new_with_free_func (g_free);
  priv->targets = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint c = 0; c < classes->len; c++)
    {
      g_autofree char *class_dir = g_build_filename (root, classes->pdata[c], NULL);
      g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
      guint before = priv->paths->len;

      collect_dirs (class_dir, seen, dirs);
      g_ptr_array_sort (dirs, compare_strings);
      for (guint d = 0; d < dirs->len; d++)
        {
          g_autoptr(GPtrArray) files = list_sorted (dirs->pdata[d], FALSE, NULL);

          for (guint f = 0; files != NULL && f < files->len; f++)
            {
              char *path = g_build_filename (dirs->pdata[d], files->pdata[f], NULL);
              gint64 label = c;

              if (!klass->is_valid_file (self, path))
                {
                  g_free (path);
                  continue;
                }
              g_ptr_array_add (priv->paths, path);
              g_array_append_val (priv->targets, label);
            }
        }
      if (priv->paths->len == before)
        g_string_append_printf (empty, "%s%s", empty->len > 0 ? ", " : "",
                                (const char *) classes->pdata[c]);
    }
  if (empty->len > 0)
    {
      const char *const *exts = extensions_of (self);
      g_autofree char *joined = exts != NULL && exts[0] != NULL ? g_strjoinv (", ", (GStrv) exts)
                                                                : NULL;

      g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "Found no valid file for the classes %s. %s%s",
                   empty->str, joined != NULL ? "Supported extensions are: " : "",
                   joined != NULL ? joined : "");
      return FALSE;
    }
  g_ptr_array_add (classes, NULL);
  names = (GStrv) g_ptr_array_steal (classes, NULL);
  gnn_vision_dataset_set_classes (GNN_VISION_DATASET (self), names);
  return TRUE;
}

static gboolean
gnn_dataset_folder_initable_init (GInitable     *initable,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  GnnDatasetFolder *self = GNN_DATASET_FOLDER (initable);
  GnnDatasetFolderPrivate *priv = gnn_dataset_folder_get_instance_private (self);

  if (priv->scanned)
    return priv->paths != NULL;
  priv->scanned = TRUE;
  if (scan (self, error))
    return TRUE;
  g_clear_pointer (&priv->paths, g_ptr_array_unref);
  g_clear_pointer (&priv->targets, g_array_unref);
  return FALSE;
}

static void
gnn_dataset_folder_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_dataset_folder_initable_init;
}

/**
 * gnn_dataset_folder_new:
 * @root: (type filename): the folder of class folders
 * @extensions: (nullable) (array zero-terminated=1): the endings of the
 *   sample files' names (%NULL: every file)
 * @transform: (nullable): the transform of the samples
 * @target_transform: (nullable): the transform of the labels
 * @error: return location for a #GError
 *
 * Scans the folder, like `datasets.DatasetFolder(root, loader, extensions,
 * transform, target_transform)` with the image loader (a subclass
 * implements `load` for other samples).
 *
 * Returns: (transfer full): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnDatasetFolder *
gnn_dataset_folder_new (const char         *root,
                        const char * const *extensions,
                        GnnTransform       *transform,
                        GnnTransform       *target_transform,
                        GError            **error)
{
  g_return_val_if_fail (root != NULL, NULL);
  return g_initable_new (GNN_TYPE_DATASET_FOLDER, NULL, error, "root", root,
                         "extensions", extensions, "transform", transform,
                         "target-transform", target_transform, NULL);
}

/**
 * gnn_dataset_folder_get_path:
 * @self: a #GnnDatasetFolder
 * @index: the sample's index
 *
 * Gets the file of a sample (torchvision's `dataset.samples[index][0]`).
 *
 * Returns: (transfer none) (nullable) (type filename): the path, or %NULL
 *   for an index out of range
 *
 * Since: 0.1
 */
const char *
gnn_dataset_folder_get_path (GnnDatasetFolder *self,
                             gint64            index)
{
  GnnDatasetFolderPrivate *priv;

  g_return_val_if_fail (GNN_IS_DATASET_FOLDER (self), NULL);
  priv = gnn_dataset_folder_get_instance_private (self);
  if (priv->paths == NULL || index < 0 || index >= priv->paths->len)
    return NULL;
  return g_ptr_array_index (priv->paths, index);
}

/**
 * gnn_dataset_folder_get_targets:
 * @self: a #GnnDatasetFolder
 *
 * Gets the label of every sample (torchvision's `dataset.targets`).
 *
 * Returns: (transfer full): an int64 tensor `[N]`
 *
 * Since: 0.1
 */
GnnTensor *
gnn_dataset_folder_get_targets (GnnDatasetFolder *self)
{
  GnnDatasetFolderPrivate *priv;
  gint64 n;

  g_return_val_if_fail (GNN_IS_DATASET_FOLDER (self), NULL);
  priv = gnn_dataset_folder_get_instance_private (self);
  n = priv->targets != NULL ? priv->targets->len : 0;
  return gnn_tensor_new_from_int64s (n > 0 ? (const gint64 *) priv->targets->data : NULL,
                                     (gsize) n, &n, 1, NULL);
}

/**
 * gnn_dataset_folder_load: (virtual load)
 * @self: a #GnnDatasetFolder
 * @path: a sample's file (UTF-8: bindings pass their callbacks strings)
 * @error: return location for a #GError
 *
 * Reads a sample, torchvision's `loader(path)`: by default the image,
 * decoded and converted to RGB. A subclass (in Python, `do_load`) reads
 * other files.
 *
 * Returns: (transfer full): the sample, or %NULL with @error set (naming
 *   @path)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_dataset_folder_load (GnnDatasetFolder  *self,
                         const char        *path,
                         GError           **error)
{
  g_return_val_if_fail (GNN_IS_DATASET_FOLDER (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  return GNN_DATASET_FOLDER_GET_CLASS (self)->load (self, path, error);
}

/**
 * gnn_dataset_folder_is_valid_file: (virtual is_valid_file)
 * @self: a #GnnDatasetFolder
 * @path: a file under a class folder
 *
 * Whether the file is a sample, torchvision's `is_valid_file(path)`: by
 * default whether its name ends with one of the extensions (without case).
 *
 * Returns: %TRUE if the file is a sample
 *
 * Since: 0.1
 */
gboolean
gnn_dataset_folder_is_valid_file (GnnDatasetFolder *self,
                                  const char       *path)
{
  g_return_val_if_fail (GNN_IS_DATASET_FOLDER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  return GNN_DATASET_FOLDER_GET_CLASS (self)->is_valid_file (self, path);
}
