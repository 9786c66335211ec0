/* gnn-idx-dataset.c: images and labels from IDX files (MNIST, Fashion-MNIST)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <gio/gio.h>

#include "data/gnn-data-private.h"

/**
 * GnnIdxDataset:
 *
 * Images and labels read from a pair of IDX files, the format of MNIST and
 * Fashion-MNIST (Debian: `dataset-fashion-mnist`,
 * `/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz`), gzipped or
 * not. The files are decoded once into one contiguous float32 tensor of
 * shape `[N, rows, cols]` scaled to [0, 1] (or, with
 * [property@Gnn.IdxDataset:dtype] uint8, the bytes as they are) and one
 * int64 tensor of shape `[N]`; item `i` is (`images[i]`, `labels[i]`) as
 * views: a `[rows, cols]` tensor and a 0-d int64 tensor. Reading is
 * thread-safe.
 *
 * Since: 0.1
 */
struct _GnnIdxDataset
{
  GnnDataset  parent_instance;
  GnnTensor  *images;
  GnnTensor  *labels;
  gint64      length;
  char       *images_path;
  char       *labels_path;
  gboolean    shared_memory;
  GnnDType    dtype;
};

enum { PROP_0, PROP_IMAGES_PATH, PROP_LABELS_PATH, PROP_IMAGES, PROP_LABELS, PROP_SHARED_MEMORY,
       PROP_DTYPE, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void gnn_idx_dataset_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnIdxDataset, gnn_idx_dataset, GNN_TYPE_DATASET,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      gnn_idx_dataset_initable_iface_init))

#define IDX_TYPE_UBYTE 0x08

static gint64
gnn_idx_dataset_get_length_impl (GnnDataset *dataset)
{
  return GNN_IDX_DATASET (dataset)->length;
}

static void
gnn_idx_dataset_get_item_impl (GnnDataset  *dataset,
                               gint64       index,
                               GPtrArray  **out,
                               GError     **error)
{
  GnnIdxDataset *self = GNN_IDX_DATASET (dataset);
  GPtrArray *item = g_ptr_array_new_full (2, g_object_unref);
  GnnTensorPrivate *ip = gnn_tensor_priv (self->images);
  GnnTensorPrivate *lp = gnn_tensor_priv (self->labels);

  /* Index already checked by the invoker: build the views directly. */
  g_ptr_array_add (item, gnn_tensor_new_view (self->images, ip->shape + 1, ip->strides + 1,
                                              ip->ndim - 1, index * ip->strides[0]));
  g_ptr_array_add (item, gnn_tensor_new_view (self->labels, lp->shape, lp->strides, 0, index));
  *out = item;
}

static void
gnn_idx_dataset_finalize (GObject *object)
{
  GnnIdxDataset *self = GNN_IDX_DATASET (object);

  g_clear_object (&self->images);
  g_clear_object (&self->labels);
  g_free (self->images_path);
  g_free (self->labels_path);
  G_OBJECT_CLASS (gnn_idx_dataset_parent_class)->finalize (object);
}

static void
gnn_idx_dataset_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnIdxDataset *self = GNN_IDX_DATASET (object);

  switch (prop_id)
    {
    case PROP_IMAGES_PATH: g_value_set_string (value, self->images_path); break;
    case PROP_LABELS_PATH: g_value_set_string (value, self->labels_path); break;
    case PROP_IMAGES: g_value_set_object (value, self->images); break;
    case PROP_LABELS: g_value_set_object (value, self->labels); break;
    case PROP_SHARED_MEMORY: g_value_set_boolean (value, self->shared_memory); break;
    case PROP_DTYPE: g_value_set_enum (value, self->dtype); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_idx_dataset_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnIdxDataset *self = GNN_IDX_DATASET (object);

  switch (prop_id)
    {
    case PROP_IMAGES_PATH: g_free (self->images_path); self->images_path = g_value_dup_string (value); break;
    case PROP_LABELS_PATH: g_free (self->labels_path); self->labels_path = g_value_dup_string (value); break;
    case PROP_IMAGES: g_set_object (&self->images, g_value_get_object (value)); break;
    case PROP_LABELS: g_set_object (&self->labels, g_value_get_object (value)); break;
    case PROP_SHARED_MEMORY: self->shared_memory = g_value_get_boolean (value); break;
    case PROP_DTYPE: self->dtype = g_value_get_enum (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Its items are the rows of its images and labels (GnnDatasetColumnsFunc). */
static guint
gnn_idx_dataset_peek_columns (GnnDataset *dataset,
                              GnnTensor **columns)
{
  GnnIdxDataset *self = GNN_IDX_DATASET (dataset);

  columns[0] = self->images;
  columns[1] = self->labels;
  return 2;
}

static void
gnn_idx_dataset_class_init (GnnIdxDatasetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnDatasetClass *dataset_class = GNN_DATASET_CLASS (klass);

  object_class->finalize = gnn_idx_dataset_finalize;
  object_class->get_property = gnn_idx_dataset_get_property;
  object_class->set_property = gnn_idx_dataset_set_property;
  dataset_class->get_length = gnn_idx_dataset_get_length_impl;
  dataset_class->get_item = gnn_idx_dataset_get_item_impl;
  gnn_dataset_class_set_columns (klass, gnn_idx_dataset_peek_columns);

  /**
   * GnnIdxDataset:images-path:
   *
   * The IDX file of the images (read by g_initable_init()).
   *
   * Since: 0.1
   */
  properties[PROP_IMAGES_PATH] =
    g_param_spec_string ("images-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnIdxDataset:labels-path:
   *
   * The IDX file of the labels (read by g_initable_init()).
   *
   * Since: 0.1
   */
  properties[PROP_LABELS_PATH] =
    g_param_spec_string ("labels-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnIdxDataset:images:
   *
   * The decoded images, a float32 tensor `[N, rows, cols]`. Given at
   * construction (with #GnnIdxDataset:labels), the files are not read: this
   * is how a spawned worker gets the parent's decoded data, mapped from
   * its shared memory rather than decoded again.
   *
   * Since: 0.1
   */
  properties[PROP_IMAGES] =
    g_param_spec_object ("images", NULL, NULL, GNN_TYPE_TENSOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnIdxDataset:labels:
   *
   * The labels, an int64 tensor `[N]` (see #GnnIdxDataset:images).
   *
   * Since: 0.1
   */
  properties[PROP_LABELS] =
    g_param_spec_object ("labels", NULL, NULL, GNN_TYPE_TENSOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnIdxDataset:shared-memory:
   *
   * Whether the files are decoded into shared memory (a memfd) rather than
   * private memory. Spawned workers ([enum@Gnn.WorkerMode.SPAWN]) map
   * shared memory as it is, so they start in the time of an exec; private
   * memory they get as a copy made at each loader start. Forked workers
   * prefer private memory: it is inherited in huge pages, where a shared
   * mapping is entered 4 KiB page by page in each new process (5× slower
   * non-persistent PROCESSES passes over Fashion-MNIST on the VM this was
   * measured on). Choose it for spawned workers.
   *
   * Since: 0.1
   */
  properties[PROP_SHARED_MEMORY] =
    g_param_spec_boolean ("shared-memory", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnIdxDataset:dtype:
   *
   * The dtype of the images: float32 (the default) scales the bytes to [0,
   * 1]; uint8 keeps them (torchvision's `MNIST.data`).
   *
   * Since: 0.1
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_idx_dataset_init (GnnIdxDataset *self)
{
  self->dtype = GNN_DTYPE_F32;
}

/* Inflates a gzip buffer. The trailer's ISIZE (size mod 2^32) sizes the
 * first allocation when plausible; the buffer doubles if the stream is larger. */
static GBytes *
gunzip (const char   *path,
        const guint8 *in,
        gsize         in_len,
        GError      **error)
{
  g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  gsize cap = 1 << 16, out_len = 0, pos = 0;
  g_autofree guint8 *out = NULL;

  if (in_len >= 18)
    {
      guint32 isize = (guint32) in[in_len - 4] | (guint32) in[in_len - 3] << 8 |
                      (guint32) in[in_len - 2] << 16 | (guint32) in[in_len - 1] << 24;
      /* deflate expands at most ~1032:1: a corrupt trailer cannot make
       * us allocate more than the data could hold */
      if ((gsize) isize < in_len * 1032)
        cap = MAX (cap, (gsize) isize + 1);
    }
  out = g_malloc (cap);
  for (;;)
    {
      gsize read = 0, written = 0;
      g_autoptr(GError) local = NULL;
      GConverterResult r;

      if (out_len == cap)
        {
          cap *= 2;
          out = g_realloc (out, cap);
        }
      r = g_converter_convert (G_CONVERTER (z), in + pos, in_len - pos, out + out_len,
                               cap - out_len, G_CONVERTER_INPUT_AT_END, &read, &written, &local);
      if (r == G_CONVERTER_ERROR)
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
            {
              cap *= 2;
              out = g_realloc (out, cap);
              continue;
            }
          g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                       "%s: bad gzip data: %s", path,
                       g_error_matches (local, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT)
                         ? "truncated stream" : local->message);
          return NULL;
        }
      pos += read;
      out_len += written;
      if (r == G_CONVERTER_FINISHED)
        break;
    }
  return g_bytes_new_take (g_steal_pointer (&out), out_len);
}

/* Reads @path (gzip or raw) and parses the IDX header: element type ubyte,
 * @expect_ndim dimensions. Returns the payload bytes after the header. */
static GBytes *
read_idx (const char  *path,
          guint        expect_ndim,
          gint64      *dims,
          GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) raw = NULL;
  const guint8 *d;
  gsize len, header, expected = 1;

  if (!g_file_get_contents (path, &contents, &len, &local))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_IO, "%s", local->message);
      return NULL;
    }
  if (len >= 2 && (guint8) contents[0] == 0x1f && (guint8) contents[1] == 0x8b)
    {
      raw = gunzip (path, (const guint8 *) contents, len, error);
      if (raw == NULL)
        return NULL;
    }
  else
    {
      raw = g_bytes_new_take (g_steal_pointer (&contents), len);
    }
  d = g_bytes_get_data (raw, &len);
  if (len < 4 || d[0] != 0 || d[1] != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: bad IDX magic number%s (expected 00 00 08 %02x)", path,
                   len < 4 ? " (file shorter than 4 bytes)" : "", expect_ndim);
      return NULL;
    }
  if (d[2] != IDX_TYPE_UBYTE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: unsupported IDX element type 0x%02x (only unsigned byte, 0x08, is supported)",
                   path, d[2]);
      return NULL;
    }
  if (d[3] != expect_ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: expected %u IDX dimensions, the header says %u", path, expect_ndim, d[3]);
      return NULL;
    }
  header = 4 + 4 * (gsize) expect_ndim;
  if (len < header)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: truncated IDX header (%" G_GSIZE_FORMAT " bytes, need %" G_GSIZE_FORMAT ")",
                   path, len, header);
      return NULL;
    }
  for (guint i = 0; i < expect_ndim; i++)
    {
      const guint8 *p = d + 4 + 4 * i;
      guint32 v = (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];

      dims[i] = v;
      if (v != 0 && expected > G_MAXSIZE / 4 / v)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                       "%s: IDX dimensions overflow (dimension %u is %u)", path, i, v);
          return NULL;
        }
      expected *= v;
    }
  if (len - header < expected)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: truncated IDX data: the header promises %" G_GSIZE_FORMAT
                   " bytes, the file has %" G_GSIZE_FORMAT, path, expected, len - header);
      return NULL;
    }
  if (len - header > expected)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: %" G_GSIZE_FORMAT " bytes of trailing data after the IDX payload",
                   path, len - header - expected);
      return NULL;
    }
  return g_bytes_new_from_bytes (raw, header, expected);
}

/* Decoded tensors given as properties: the shapes and dtypes decoding makes
 * (item views index them directly). */
static gboolean
check_decoded (GnnIdxDataset  *self,
               GError        **error)
{
  GnnTensorPrivate *ip, *lp;

  if (self->images == NULL || self->labels == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "IdxDataset: images and labels must be set together");
      return FALSE;
    }
  ip = gnn_tensor_priv (self->images);
  lp = gnn_tensor_priv (self->labels);
  if (ip->dtype != self->dtype || ip->ndim != 3 || lp->dtype != GNN_DTYPE_I64 ||
      lp->ndim != 1 || ip->shape[0] != lp->shape[0])
    {
      g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);
      g_autofree char *ls = gnn_shape_to_string (lp->shape, lp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "IdxDataset: images must be %s [N, rows, cols] and labels int64 [N], "
                   "got %s %s and %s %s", gnn_dtype_get_name (self->dtype),
                   gnn_dtype_get_name (ip->dtype), is,
                   gnn_dtype_get_name (lp->dtype), ls);
      return FALSE;
    }
  self->length = ip->shape[0];
  return TRUE;
}

static gboolean
gnn_idx_dataset_initable_init (GInitable     *initable,
                               GCancellable  *cancellable,
                               GError       **error)
{
  GnnIdxDataset *self = GNN_IDX_DATASET (initable);
  const char *images_path = self->images_path, *labels_path = self->labels_path;
  g_autoptr(GBytes) images = NULL, labels = NULL;
  g_autoptr(GnnTensor) images_t = NULL, labels_t = NULL;
  gint64 idims[3], ldims[1];
  const guint8 *src;
  float *dst;
  gint64 *ldst;
  gsize n;

  if (self->images != NULL || self->labels != NULL)
    return check_decoded (self, error);
  if (self->dtype != GNN_DTYPE_F32 && self->dtype != GNN_DTYPE_U8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "IdxDataset: dtype must be float32 or uint8, not %s",
                   gnn_dtype_get_name (self->dtype));
      return FALSE;
    }
  if (images_path == NULL || labels_path == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "IdxDataset: images-path and labels-path must be set");
      return FALSE;
    }
  images = read_idx (images_path, 3, idims, error);
  if (images == NULL)
    return FALSE;
  labels = read_idx (labels_path, 1, ldims, error);
  if (labels == NULL)
    return FALSE;
  if (idims[0] != ldims[0])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s has %" G_GINT64_FORMAT " images but %s has %" G_GINT64_FORMAT " labels",
                   images_path, idims[0], labels_path, ldims[0]);
      return FALSE;
    }

  if (self->shared_memory)
    {
      images_t = gnn_shared_tensor_new (self->dtype, idims, 3, error);
      labels_t = gnn_shared_tensor_new (GNN_DTYPE_I64, ldims, 1, error);
    }
  else
    {
      images_t = gnn_tensor_new_contiguous_checked (self->dtype, idims, 3, FALSE, error);
      labels_t = images_t == NULL ? NULL
                 : gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, ldims, 1, FALSE, error);
    }
  if (images_t == NULL || labels_t == NULL)
    return FALSE;
  src = g_bytes_get_data (images, &n);
  if (self->dtype == GNN_DTYPE_U8)
    memcpy (gnn_tensor_priv_data (gnn_tensor_priv (images_t)), src, n);
  else
    {
      dst = (float *) gnn_tensor_priv_data (gnn_tensor_priv (images_t));
      for (gsize i = 0; i < n; i++)
        dst[i] = (float) src[i] * (1.0f / 255.0f);
    }

  src = g_bytes_get_data (labels, &n);
  ldst = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (labels_t));
  for (gsize i = 0; i < n; i++)
    ldst[i] = src[i];

  self->images = g_steal_pointer (&images_t);
  self->labels = g_steal_pointer (&labels_t);
  self->length = idims[0];
  return TRUE;
}

static void
gnn_idx_dataset_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_idx_dataset_initable_init;
}

/**
 * gnn_idx_dataset_new:
 * @images_path: (type filename): an IDX file of unsigned bytes with 3
 *   dimensions (count, rows, columns), optionally gzipped
 * @labels_path: (type filename): an IDX file of unsigned bytes with 1
 *   dimension (count), optionally gzipped
 * @error: return location for a #GError
 *
 * Reads a dataset of images and labels. Malformed files (bad magic number,
 * truncation, trailing data, overflowing dimensions, different counts of
 * images and labels) are %GNN_ERROR_FORMAT errors naming the path; a file
 * that cannot be read is a %GNN_ERROR_IO error.
 *
 * Returns: (transfer full): the dataset, or %NULL on error
 *
 * Since: 0.1
 */
GnnIdxDataset *
gnn_idx_dataset_new (const char  *images_path,
                     const char  *labels_path,
                     GError     **error)
{
  g_return_val_if_fail (images_path != NULL, NULL);
  g_return_val_if_fail (labels_path != NULL, NULL);
  return g_initable_new (GNN_TYPE_IDX_DATASET, NULL, error, "images-path", images_path,
                         "labels-path", labels_path, NULL);
}

/**
 * gnn_idx_dataset_get_images:
 * @self: a #GnnIdxDataset
 *
 * Gets the decoded images as one float32 tensor.
 *
 * Returns: (transfer none): all images, a float32 tensor `[N, rows, cols]`
 *
 * Since: 0.1
 */
GnnTensor *
gnn_idx_dataset_get_images (GnnIdxDataset *self)
{
  g_return_val_if_fail (GNN_IS_IDX_DATASET (self), NULL);
  return self->images;
}

/**
 * gnn_idx_dataset_get_labels:
 * @self: a #GnnIdxDataset
 *
 * Gets the labels as one int64 tensor.
 *
 * Returns: (transfer none): all labels, an int64 tensor `[N]`
 *
 * Since: 0.1
 */
GnnTensor *
gnn_idx_dataset_get_labels (GnnIdxDataset *self)
{
  g_return_val_if_fail (GNN_IS_IDX_DATASET (self), NULL);
  return self->labels;
}
