/* gnn-cifar10.c: CIFAR-10 in torchvision's folder layout — the Python
 * pickle batches read by the restricted unpickler
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "io/gnn-torch-private.h"
#include "vision/gnn-vision-private.h"
#include "vision/gnn-vision-dataset-private.h"
#include "vision/gnn-image-private.h"

/**
 * GnnCIFAR10:
 *
 * torchvision's `datasets.CIFAR10(root, train=True, transform=None,
 * target_transform=None, download=False)`: the pickled batches of
 * `root/cifar-10-batches-py` (`data_batch_1` to `data_batch_5`,
 * `test_batch`, `batches.meta`), read by Gnn's restricted unpickler (the
 * numpy arrays, lists and dicts they hold are rebuilt from an allow-list;
 * nothing in a file runs). Every file's MD5 is checked as torchvision
 * does, so a damaged file fails construction ("Dataset not found or
 * corrupted."). Item `i` is (a 32 × 32 RGB [class@Gnn.Image] sharing
 * [method@Gnn.CIFAR10.get_data], the label) before the transforms; the
 * data is the uint8 tensor `[N, 32, 32, 3]` and the targets the int64
 * labels, torchvision's `data` and `targets`; the class names are
 * `batches.meta`'s `label_names`.
 *
 * Gnn downloads nothing: with [property@Gnn.CIFAR10:download], intact
 * files are used as they are and missing ones are an error saying where to
 * put them.
 *
 * Since: 0.1
 */
typedef struct
{
  gboolean   train;
  gboolean   download;
  gboolean   check_integrity;
  GnnTensor *data;        /* uint8 [N, 32, 32, 3] */
  GnnTensor *targets;     /* int64 [N] */
} GnnCIFAR10Private;

enum { PROP_0, PROP_TRAIN, PROP_DOWNLOAD, PROP_CHECK_INTEGRITY, N_PROPS };

#define CIFAR_SIDE 32
#define CIFAR_ROW (3 * CIFAR_SIDE * CIFAR_SIDE)

static const char *const cifar10_train_list[] = {
  "data_batch_1", "c99cafc152244af753f735de768cd75f",
  "data_batch_2", "d4bba439e000b95fd0a9bffe97cbabec",
  "data_batch_3", "54ebc095f3ab1f0389bbae665268c751",
  "data_batch_4", "634d18415352ddfa80567beed471001a",
  "data_batch_5", "482c414d41f54cd18b22e5b47cb7c3cb",
  NULL,
};

static const char *const cifar10_test_list[] = {
  "test_batch", "40351d587109b95175f43aff81a1287e", NULL,
};

static void gnn_cifar10_initable_iface_init (GInitableIface *iface);

G_DEFINE_TYPE_WITH_CODE (GnnCIFAR10, gnn_cifar10, GNN_TYPE_VISION_DATASET,
                         G_ADD_PRIVATE (GnnCIFAR10)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_cifar10_initable_iface_init))

static gint64
gnn_cifar10_get_length (GnnDataset *dataset)
{
  GnnCIFAR10Private *priv = gnn_cifar10_get_instance_private (GNN_CIFAR10 (dataset));

  return priv->targets != NULL ? gnn_tensor_get_shape (priv->targets, NULL)[0] : 0;
}

static gboolean
gnn_cifar10_get_sample (GnnVisionDataset  *dataset,
                        gint64             index,
                        GnnTensor        **input,
                        GnnTensor        **target,
                        GError           **error)
{
  GnnCIFAR10Private *priv = gnn_cifar10_get_instance_private (GNN_CIFAR10 (dataset));
  GnnTensorPrivate *dp = gnn_tensor_priv (priv->data);

  *input = GNN_TENSOR (gnn_image_new_with_storage (gnn_storage_ref (dp->storage), CIFAR_SIDE, CIFAR_SIDE, 3,
                                                   NULL, dp->offset + index * CIFAR_ROW));
  *target = gnn_vision_label_new (((const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (priv->targets)))[index]);
  return TRUE;
}

static void
gnn_cifar10_dispose (GObject *object)
{
  GnnCIFAR10Private *priv = gnn_cifar10_get_instance_private (GNN_CIFAR10 (object));

  g_clear_object (&priv->data);
  g_clear_object (&priv->targets);
  G_OBJECT_CLASS (gnn_cifar10_parent_class)->dispose (object);
}

static void
gnn_cifar10_class_init (GnnCIFAR10Class *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_cifar10_dispose;
  GNN_DATASET_CLASS (klass)->get_length = gnn_cifar10_get_length;
  GNN_VISION_DATASET_CLASS (klass)->get_sample = gnn_cifar10_get_sample;
  klass->name = "CIFAR10";
  klass->base_folder = "cifar-10-batches-py";
  klass->train_list = cifar10_train_list;
  klass->test_list = cifar10_test_list;
  klass->meta_file = "batches.meta";
  klass->meta_md5 = "5ff9c542aee3614f3951f8cda6e48888";
  klass->meta_key = "label_names";

  /**
   * GnnCIFAR10:train:
   *
   * Whether the training batches rather than the test batch are read.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_TRAIN,
    g_param_spec_boolean ("train", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnCIFAR10, train));
  /**
   * GnnCIFAR10:download:
   *
   * Whether missing files are fetched; Gnn downloads nothing, so this
   * only accepts files already in place (see [class@Gnn.CIFAR10]).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DOWNLOAD,
    g_param_spec_boolean ("download", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnCIFAR10, download));
  /**
   * GnnCIFAR10:check-integrity:
   *
   * Whether every file's MD5 must be the published one, as torchvision
   * checks; off for files made in the same format (test fixtures, subsets),
   * which torchvision reads by overriding its `train_list` checksums.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_CHECK_INTEGRITY,
    g_param_spec_boolean ("check-integrity", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    GNN_VISION_PRIVATE_FIELD (GnnCIFAR10, check_integrity));
}

static void
gnn_cifar10_init (GnnCIFAR10 *self)
{
  GnnCIFAR10Private *priv = gnn_cifar10_get_instance_private (self);

  priv->train = TRUE;
  priv->check_integrity = TRUE;
}

/* --- reading the pickles ------------------------------------------------------------ */

/* A file's bytes, checked against @md5 when given; FALSE without an error
 * when it is missing or differs (torchvision's check_integrity). */
static gboolean
read_checked (const char  *path,
              const char  *md5,
              GBytes     **out,
              GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, &local))
    {
      if (!g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  if (md5 != NULL)
    {
      g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_MD5, (const guchar *) contents, len);

      if (strcmp (sum, md5) != 0)
        return FALSE;
    }
  if (out != NULL)
    *out = g_bytes_new_take (g_steal_pointer (&contents), len);
  return TRUE;
}

/* The value under @key in a pickled dict (keys are str, or bytes from Python 2). */
static GnnPkValue *
dict_lookup (GnnPkValue *dict,
             const char *key)
{
  for (guint i = 0; i < dict->v.dict.keys->len; i++)
    {
      GnnPkValue *k = g_ptr_array_index (dict->v.dict.keys, i);

      if ((k->kind == GNN_PK_STR || k->kind == GNN_PK_BYTES) && k->v.str.len == strlen (key) &&
          memcmp (k->v.str.data, key, k->v.str.len) == 0)
        return g_ptr_array_index (dict->v.dict.values, i);
    }
  return NULL;
}

/* The pickle of @bytes, whose root must be a dict. */
static GnnPickle *
load_dict (GBytes      *bytes,
           const char  *path,
           GError     **error)
{
  g_autoptr(GError) local = NULL;
  gsize len = g_bytes_get_size (bytes);
  /* the values may take a few times the file's size (small ints, short strings) */
  GnnPickle *pickle = gnn_pickle_load (g_bytes_get_data (bytes, NULL), len, 4 * len + 65536, &local);

  if (pickle == NULL)
    {
      g_set_error (error, GNN_ERROR, local->code, "%s: %s", path, local->message);
      return NULL;
    }
  if (gnn_pickle_get_root (pickle)->kind != GNN_PK_DICT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s: the pickle is not a dict", path);
      gnn_pickle_free (pickle);
      return NULL;
    }
  return pickle;
}

/* A pickled str, or bytes read as latin-1 (Python 2's str under
 * pickle.load(f, encoding='latin1')), as UTF-8; NULL if neither. */
static char *
text_of (GnnPkValue *v)
{
  if (v->kind == GNN_PK_STR && strlen (v->v.str.data) == v->v.str.len)
    return g_strdup (v->v.str.data);
  if (v->kind == GNN_PK_BYTES)
    return g_convert (v->v.str.data, v->v.str.len, "UTF-8", "ISO-8859-1", NULL, NULL, NULL);
  return NULL;
}

static GStrv
read_classes (GnnCIFAR10Class  *klass,
              const char       *folder,
              gboolean          check,
              GError          **error)
{
  g_autofree char *path = g_build_filename (folder, klass->meta_file, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GnnPickle) pickle = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GnnPkValue *names;

  if (!read_checked (path, check ? klass->meta_md5 : NULL, &bytes, error))
    {
      if (error == NULL || *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "Dataset metadata file not found or corrupted. You can "
                     "use download=True to download it (%s: %s)", klass->name, path);
      return NULL;
    }
  pickle = load_dict (bytes, path, error);
  if (pickle == NULL)
    return NULL;
  names = dict_lookup (gnn_pickle_get_root (pickle), klass->meta_key);
  if (names == NULL || (names->kind != GNN_PK_LIST && names->kind != GNN_PK_TUPLE))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s: no list '%s' of class names", path,
                   klass->meta_key);
      return NULL;
    }
  for (guint i = 0; i < names->v.items->len; i++)
    {
      g_autofree char *name = text_of (g_ptr_array_index (names->v.items, i));

      if (name == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s: class name %u is not a string", path, i);
          return NULL;
        }
      g_strv_builder_add (builder, name);
    }
  return g_strv_builder_end (builder);
}

/* Appends one batch: 'data' (uint8 [n, 3072], CHW rows) transposed to HWC
 * into @pixels, and 'labels' (CIFAR-100: 'fine_labels') into @labels. */
static gboolean
read_batch (GBytes      *bytes,
            const char  *path,
            guint        n_classes,
            GByteArray  *pixels,
            GArray      *labels,
            GError     **error)
{
  g_autoptr(GnnPickle) pickle = load_dict (bytes, path, error);
  GnnPkValue *data, *targets;
  GnnPkArray *a;
  const guint8 *src;
  guint8 *dst;
  gint64 rows;

  if (pickle == NULL)
    return FALSE;
  data = dict_lookup (gnn_pickle_get_root (pickle), "data");
  targets = dict_lookup (gnn_pickle_get_root (pickle), "labels");
  if (targets == NULL)
    targets = dict_lookup (gnn_pickle_get_root (pickle), "fine_labels");
  if (data == NULL || data->kind != GNN_PK_NDARRAY || data->v.array->data == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s: 'data' is not a numpy array", path);
      return FALSE;
    }
  a = data->v.array;
  if (a->dtype != GNN_DTYPE_U8 || a->ndim != 2 || a->size[1] != CIFAR_ROW)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s: 'data' is not a uint8 array of rows of %d values",
                   path, CIFAR_ROW);
      return FALSE;
    }
  rows = a->size[0];
  if (targets == NULL || (targets->kind != GNN_PK_LIST && targets->kind != GNN_PK_TUPLE) ||
      targets->v.items->len != (guint64) rows)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s: 'labels' is not a list of %" G_GINT64_FORMAT
                   " labels, one for each image", path, rows);
      return FALSE;
    }
  for (gint64 i = 0; i < rows; i++)
    {
      GnnPkValue *label = g_ptr_array_index (targets->v.items, i);

      if (label->kind != GNN_PK_INT || label->v.i < 0 || label->v.i >= n_classes)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT, "%s: label %" G_GINT64_FORMAT " is not a class "
                       "index below %u", path, i, n_classes);
          return FALSE;
        }
      g_array_append_val (labels, label->v.i);
    }
  src = (const guint8 *) a->data->v.str.data;
  g_byte_array_set_size (pixels, pixels->len + rows * CIFAR_ROW);
  dst = pixels->data + pixels->len - rows * CIFAR_ROW;
  /* torchvision: vstack(data).reshape(-1, 3, 32, 32).transpose((0, 2, 3, 1)) */
  for (gint64 i = 0; i < rows; i++, src += CIFAR_ROW)
    for (guint p = 0; p < CIFAR_SIDE * CIFAR_SIDE; p++)
      for (guint c = 0; c < 3; c++)
        *dst++ = src[c * CIFAR_SIDE * CIFAR_SIDE + p];
  return TRUE;
}

/* torchvision's _check_integrity: every file of both lists is present and intact. */
static gboolean
all_intact (GnnCIFAR10Class  *klass,
            const char       *folder,
            gboolean          check,
            GError          **error)
{
  const char *const *lists[2] = { klass->train_list, klass->test_list };

  for (guint l = 0; l < 2; l++)
    for (const char *const *f = lists[l]; *f != NULL; f += 2)
      {
        g_autofree char *path = g_build_filename (folder, f[0], NULL);

        if (check ? !read_checked (path, f[1], NULL, error) : !g_file_test (path, G_FILE_TEST_IS_REGULAR))
          return FALSE;
      }
  return TRUE;
}

static gboolean
gnn_cifar10_initable_init (GInitable     *initable,
                           GCancellable  *cancellable,
                           GError       **error)
{
  GnnCIFAR10 *self = GNN_CIFAR10 (initable);
  GnnCIFAR10Private *priv = gnn_cifar10_get_instance_private (self);
  GnnCIFAR10Class *klass = GNN_CIFAR10_GET_CLASS (self);
  const char *root = gnn_vision_dataset_get_root (GNN_VISION_DATASET (self));
  g_autoptr(GByteArray) pixels = g_byte_array_new ();
  g_autoptr(GArray) labels = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GError) local = NULL;
  g_auto(GStrv) classes = NULL;
  g_autofree char *folder = NULL;
  gint64 shape[4] = { 0, CIFAR_SIDE, CIFAR_SIDE, 3 };

  if (priv->data != NULL)
    return TRUE;
  if (root == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: root is required (the folder holding %s)",
                   klass->name, klass->base_folder);
      return FALSE;
    }
  folder = g_build_filename (root, klass->base_folder, NULL);
  if (!all_intact (klass, folder, priv->check_integrity, &local))
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else if (priv->download)
        g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s: the files in %s are missing or corrupted, and "
                     "download=True cannot fetch them: Gnn downloads nothing; extract torchvision's archive "
                     "(%s) into %s", klass->name, folder, klass->base_folder, root);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "Dataset not found or corrupted. You can use "
                     "download=True to download it (%s: %s)", klass->name, folder);
      return FALSE;
    }
  if (priv->download)
    g_print ("Files already downloaded and verified\n");
  classes = read_classes (klass, folder, priv->check_integrity, error);
  if (classes == NULL)
    return FALSE;
  for (const char *const *f = priv->train ? klass->train_list : klass->test_list; *f != NULL; f += 2)
    {
      g_autofree char *path = g_build_filename (folder, f[0], NULL);
      g_autoptr(GBytes) bytes = NULL;

      if (!read_checked (path, NULL, &bytes, error))
        {
          if (error == NULL || *error == NULL)
            g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s: %s disappeared while reading", klass->name, path);
          return FALSE;
        }
      if (!read_batch (bytes, path, g_strv_length (classes), pixels, labels, error))
        return FALSE;
    }
  shape[0] = labels->len;
  priv->data = gnn_tensor_new_from_data (pixels->data, pixels->len, GNN_DTYPE_U8, shape, 4, error);
  priv->targets = priv->data != NULL ? gnn_tensor_new_from_data ((const guint8 *) labels->data,
                                                                  labels->len * sizeof (gint64),
                                                                  GNN_DTYPE_I64, shape, 1, error)
                                     : NULL;
  if (priv->targets == NULL)
    {
      g_clear_object (&priv->data);
      return FALSE;
    }
  gnn_vision_dataset_set_classes (GNN_VISION_DATASET (self), g_steal_pointer (&classes));
  return TRUE;
}

static void
gnn_cifar10_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_cifar10_initable_init;
}

GnnCIFAR10 *
gnn_cifar10_new_of_type (GType          type,
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
 * gnn_cifar10_new:
 * @root: (type filename): the folder holding `cifar-10-batches-py`
 * @train: the training set (else the test set)
 * @download: whether missing files are fetched (see [class@Gnn.CIFAR10])
 * @transform: (nullable): the transform of the images
 * @target_transform: (nullable): the transform of the labels
 * @error: return location for a #GError
 *
 * Reads the dataset, like `datasets.CIFAR10(root, train, transform,
 * target_transform, download)`.
 *
 * Returns: (transfer full): the dataset, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnCIFAR10 *
gnn_cifar10_new (const char    *root,
                 gboolean       train,
                 gboolean       download,
                 GnnTransform  *transform,
                 GnnTransform  *target_transform,
                 GError       **error)
{
  return gnn_cifar10_new_of_type (GNN_TYPE_CIFAR10, root, train, download, transform, target_transform, error);
}

/**
 * gnn_cifar10_get_data:
 * @self: a #GnnCIFAR10
 *
 * Gets the images, torchvision's `dataset.data`.
 *
 * Returns: (transfer none) (nullable): a uint8 tensor `[N, 32, 32, 3]`, or
 *   %NULL before the dataset is read
 *
 * Since: 0.1
 */
GnnTensor *
gnn_cifar10_get_data (GnnCIFAR10 *self)
{
  g_return_val_if_fail (GNN_IS_CIFAR10 (self), NULL);
  return ((GnnCIFAR10Private *) gnn_cifar10_get_instance_private (self))->data;
}

/**
 * gnn_cifar10_get_targets:
 * @self: a #GnnCIFAR10
 *
 * Gets the labels, torchvision's `dataset.targets`.
 *
 * Returns: (transfer none) (nullable): an int64 tensor `[N]`, or %NULL
 *   before the dataset is read
 *
 * Since: 0.1
 */
GnnTensor *
gnn_cifar10_get_targets (GnnCIFAR10 *self)
{
  g_return_val_if_fail (GNN_IS_CIFAR10 (self), NULL);
  return ((GnnCIFAR10Private *) gnn_cifar10_get_instance_private (self))->targets;
}
