/* gnn-mnist.c: MNIST in torchvision's folder layout
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-vision-dataset-private.h"
#include "vision/gnn-image-private.h"

/**
 * GnnMNIST:
 *
 * torchvision's `datasets.MNIST(root, train=True, transform=None,
 * target_transform=None, download=False)`: the IDX files of
 * `root/MNIST/raw` (`train-images-idx3-ubyte`, `train-labels-idx1-ubyte`,
 * `t10k-...`, each gzipped or not) read through [class@Gnn.IdxDataset].
 * Item `i` is (a 28 × 28 L [class@Gnn.Image] sharing the decoded data, the
 * label), before the transforms; [method@Gnn.MNIST.get_data] is the uint8
 * tensor `[N, 28, 28]` and [method@Gnn.MNIST.get_targets] the int64 labels,
 * torchvision's `data` and `targets`.
 *
 * Gnn downloads nothing: with [property@Gnn.MNIST:download], missing files
 * are copied from the folder a Debian package installs them to, when the
 * package is installed (`dataset-fashion-mnist` for [class@Gnn.FashionMNIST]);
 * otherwise construction fails with an error saying where to put them. A
 * missing folder without download is torchvision's "Dataset not found."
 *
 * Since: 0.1
 */
typedef struct
{
  gboolean       train;
  gboolean       download;
  GnnIdxDataset *idx;
} GnnMNISTPrivate;

enum { PROP_0, PROP_TRAIN, PROP_DOWNLOAD, N_PROPS };

static const char *const mnist_classes[] = {
  "0 - zero", "1 - one", "2 - two", "3 - three", "4 - four",
  "5 - five", "6 - six", "7 - seven", "8 - eight", "9 - nine", NULL,
};

static void gnn_mnist_initable_iface_init (GInitableIface *iface);

G_DEFINE_TYPE_WITH_CODE (GnnMNIST, gnn_mnist, GNN_TYPE_VISION_DATASET,
                         G_ADD_PRIVATE (GnnMNIST)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_mnist_initable_iface_init))

static gint64
gnn_mnist_get_length (GnnDataset *dataset)
{
  GnnMNISTPrivate *priv = gnn_mnist_get_instance_private (GNN_MNIST (dataset));

  return priv->idx != NULL ? gnn_dataset_get_length (GNN_DATASET (priv->idx)) : 0;
}

static gboolean
gnn_mnist_get_sample (GnnVisionDataset  *dataset,
                      gint64             index,
                      GnnTensor        **input,
                      GnnTensor        **target,
                      GError           **error)
{
  GnnMNISTPrivate *priv = gnn_mnist_get_instance_private (GNN_MNIST (dataset));
  GnnTensorPrivate *ip = gnn_tensor_priv (gnn_idx_dataset_get_images (priv->idx));
  GnnTensorPrivate *lp = gnn_tensor_priv (gnn_idx_dataset_get_labels (priv->idx));
  const gint64 strides[3] = { ip->strides[1], ip->strides[2], 1 };

  *input = GNN_TENSOR (gnn_image_new_with_storage (gnn_storage_ref (ip->storage), ip->shape[1],
                                                   ip->shape[2], 1, strides,
                                                   ip->offset + index * ip->strides[0]));
  *target = gnn_vision_label_new (((const gint64 *) gnn_tensor_priv_data (lp))[index * lp->strides[0]]);
  return TRUE;
}

static void
gnn_mnist_dispose (GObject *object)
{
  GnnMNISTPrivate *priv = gnn_mnist_get_instance_private (GNN_MNIST (object));

  g_clear_object (&priv->idx);
  G_OBJECT_CLASS (gnn_mnist_parent_class)->dispose (object);
}

static void
gnn_mnist_class_init (GnnMNISTClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_mnist_dispose;
  GNN_DATASET_CLASS (klass)->get_length = gnn_mnist_get_length;
  GNN_VISION_DATASET_CLASS (klass)->get_sample = gnn_mnist_get_sample;
  klass->name = "MNIST";
  klass->classes = mnist_classes;

  /**
   * GnnMNIST:train:
   *
   * Whether the training set (`train-*` files) rather than the test set
   * (`t10k-*`) is read.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_TRAIN,
    g_param_spec_boolean ("train", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnMNIST, train));
  /**
   * GnnMNIST:download:
   *
   * Whether missing files are fetched — here copied from a Debian dataset
   * package's folder (see [class@Gnn.MNIST]).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DOWNLOAD,
    g_param_spec_boolean ("download", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnMNIST, download));
}

static void
gnn_mnist_init (GnnMNIST *self)
{
  GnnMNISTPrivate *priv = gnn_mnist_get_instance_private (self);

  priv->train = TRUE;
}

/* @folder/@stem or @folder/@stem.gz, or NULL. */
static char *
find_file (const char *folder,
           const char *stem)
{
  g_autofree char *plain = g_build_filename (folder, stem, NULL);
  g_autofree char *gz = g_strconcat (plain, ".gz", NULL);

  if (g_file_test (plain, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&plain);
  if (g_file_test (gz, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&gz);
  return NULL;
}

static const char *const file_stems[] = {
  "train-images-idx3-ubyte", "train-labels-idx1-ubyte",
  "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte",
};

static gboolean
all_present (const char *folder)
{
  for (gsize i = 0; i < G_N_ELEMENTS (file_stems); i++)
    {
      g_autofree char *path = find_file (folder, file_stems[i]);

      if (path == NULL)
        return FALSE;
    }
  return TRUE;
}

/* @gz inflated into @to (torchvision's download extracts each file). */
static gboolean
extract (GFile   *gz,
         GFile   *to,
         GError **error)
{
  g_autoptr(GInputStream) in = NULL, raw = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

  raw = G_INPUT_STREAM (g_file_read (gz, NULL, error));
  if (raw == NULL)
    return FALSE;
  in = g_converter_input_stream_new (raw, G_CONVERTER (z));
  out = g_file_replace (to, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  return out != NULL &&
         g_output_stream_splice (G_OUTPUT_STREAM (out), in, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE |
                                 G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, error) >= 0;
}

/* download=True without network: the files from the Debian package's
 * folder, copied into @raw and extracted as torchvision's download leaves
 * them (so torchvision reads the same root). */
static gboolean
fetch (GnnMNISTClass  *klass,
       const char     *raw,
       GError        **error)
{
  g_autoptr(GError) local = NULL;

  if (klass->debian_dir == NULL || !all_present (klass->debian_dir))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_IO,
                   "%s: dataset not found in %s, and download=True cannot fetch it: Gnn "
                   "downloads nothing%s%s%s; put %s-{images-idx3,labels-idx1}-ubyte(.gz) and "
                   "t10k-... there", klass->name, raw,
                   klass->debian_package != NULL ? " (install Debian's " : "",
                   klass->debian_package != NULL ? klass->debian_package : "",
                   klass->debian_package != NULL ? ", which it copies from)" : "", "train");
      return FALSE;
    }
  if (g_mkdir_with_parents (raw, 0755) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s: cannot create %s: %s", klass->name, raw,
                   g_strerror (errno));
      return FALSE;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (file_stems); i++)
    {
      g_autofree char *from = find_file (klass->debian_dir, file_stems[i]);
      g_autofree char *base = g_path_get_basename (from);
      g_autofree char *to = g_build_filename (raw, base, NULL);
      g_autoptr(GFile) src = g_file_new_for_path (from);
      g_autoptr(GFile) dst = g_file_new_for_path (to);
      g_autofree char *plain_path = g_build_filename (raw, file_stems[i], NULL);
      g_autoptr(GFile) plain = g_file_new_for_path (plain_path);

      if (!g_file_copy (src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &local) ||
          (g_str_has_suffix (to, ".gz") && !extract (dst, plain, &local)))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s: %s", klass->name, local->message);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
gnn_mnist_initable_init (GInitable     *initable,
                         GCancellable  *cancellable,
                         GError       **error)
{
  GnnMNIST *self = GNN_MNIST (initable);
  GnnMNISTPrivate *priv = gnn_mnist_get_instance_private (self);
  GnnMNISTClass *klass = GNN_MNIST_GET_CLASS (self);
  const char *root = gnn_vision_dataset_get_root (GNN_VISION_DATASET (self));
  g_autofree char *raw = NULL, *images = NULL, *labels = NULL;
  const char *split = priv->train ? "train" : "t10k";
  g_autofree char *images_stem = g_strdup_printf ("%s-images-idx3-ubyte", split);
  g_autofree char *labels_stem = g_strdup_printf ("%s-labels-idx1-ubyte", split);

  if (priv->idx != NULL)
    return TRUE;
  if (root == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: root is required (the folder holding %s/raw)", klass->name, klass->name);
      return FALSE;
    }
  raw = g_build_filename (root, klass->name, "raw", NULL);
  if (!all_present (raw))
    {
      if (!priv->download)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_IO,
                       "Dataset not found. You can use download=True to download it "
                       "(%s: no IDX files in %s)", klass->name, raw);
          return FALSE;
        }
      if (!fetch (klass, raw, error))
        return FALSE;
    }
  images = find_file (raw, images_stem);
  labels = find_file (raw, labels_stem);
  priv->idx = g_initable_new (GNN_TYPE_IDX_DATASET, NULL, error, "images-path", images,
                              "labels-path", labels, "dtype", GNN_DTYPE_U8, NULL);
  if (priv->idx == NULL)
    return FALSE;
  gnn_vision_dataset_set_classes (GNN_VISION_DATASET (self),
                                  g_strdupv ((GStrv) klass->classes));
  return TRUE;
}

static void
gnn_mnist_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_mnist_initable_init;
}

GnnMNIST *
gnn_mnist_new_of_type (GType          type,
                       const char    *root,
                       gboolean       train,
                       gboolean       download,
                       GnnTransform  *transform,
                       GnnTransform  *target_transform,
                       GError       **error)
{
  return gnn_vision_split_dataset_new (type, root, train, download, transform, target_transform, error);
}

/**
 * gnn_mnist_new:
 * @root: (type filename): the folder holding `MNIST/raw`
 * @train: the training set (else the test set)
 * @download: whether missing files are fetched (see [class@Gnn.MNIST])
 * @transform: (nullable): the transform of the images
 * @target_transform: (nullable): the transform of the labels
 * @error: return location for a #GError
 *
 * Reads the dataset, like `datasets.MNIST(root, train, transform,
 * target_transform, download)`.
 *
 * Returns: (transfer full): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnMNIST *
gnn_mnist_new (const char    *root,
               gboolean       train,
               gboolean       download,
               GnnTransform  *transform,
               GnnTransform  *target_transform,
               GError       **error)
{
  return gnn_mnist_new_of_type (GNN_TYPE_MNIST, root, train, download, transform,
                                target_transform, error);
}

/**
 * gnn_mnist_get_data:
 * @self: a #GnnMNIST
 *
 * Gets the images, torchvision's `dataset.data`.
 *
 * Returns: (transfer none) (nullable): a uint8 tensor `[N, 28, 28]`, or
 *   %NULL before the dataset is read
 *
 * Since: 0.1
 */
GnnTensor *
gnn_mnist_get_data (GnnMNIST *self)
{
  GnnMNISTPrivate *priv;

  g_return_val_if_fail (GNN_IS_MNIST (self), NULL);
  priv = gnn_mnist_get_instance_private (self);
  return priv->idx != NULL ? gnn_idx_dataset_get_images (priv->idx) : NULL;
}

/**
 * gnn_mnist_get_targets:
 * @self: a #GnnMNIST
 *
 * Gets the labels, torchvision's `dataset.targets`.
 *
 * Returns: (transfer none) (nullable): an int64 tensor `[N]`, or %NULL
 *   before the dataset is read
 *
 * Since: 0.1
 */
GnnTensor *
gnn_mnist_get_targets (GnnMNIST *self)
{
  GnnMNISTPrivate *priv;

  g_return_val_if_fail (GNN_IS_MNIST (self), NULL);
  priv = gnn_mnist_get_instance_private (self);
  return priv->idx != NULL ? gnn_idx_dataset_get_labels (priv->idx) : NULL;
}
