/* GnnIdxDataset: IDX files written by the test (raw and gzip), malformed
 * files, and Debian's Fashion-MNIST when installed. */
#include <string.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <gnn/gnn.h>

#define FASHION_DIR "/usr/share/datasets/fashion-mnist"

static char *tmpdir;

static void
put_be32 (GByteArray *b, guint32 v)
{
  guint8 x[4] = { v >> 24, v >> 16, v >> 8, v };

  g_byte_array_append (b, x, 4);
}

/* IDX bytes: ubyte, the given dims, then @payload_len bytes i * 17 % 256. */
static GBytes *
idx_bytes (guint8 type, const guint32 *dims, guint ndim, gsize payload_len)
{
  GByteArray *b = g_byte_array_new ();
  guint8 magic[4] = { 0, 0, type, ndim };

  g_byte_array_append (b, magic, 4);
  for (guint i = 0; i < ndim; i++)
    put_be32 (b, dims[i]);
  for (gsize i = 0; i < payload_len; i++)
    {
      guint8 v = (guint8) (i * 17 % 256);

      g_byte_array_append (b, &v, 1);
    }
  return g_byte_array_free_to_bytes (b);
}

static GBytes *
gzip_bytes (GBytes *raw)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  gsize in_len, read, written;
  const guint8 *in = g_bytes_get_data (raw, &in_len);
  guint8 *out = g_malloc (in_len + 1024);
  GConverterResult r;

  r = g_converter_convert (G_CONVERTER (z), in, in_len, out, in_len + 1024,
                           G_CONVERTER_INPUT_AT_END, &read, &written, NULL);
  g_assert_cmpint (r, ==, G_CONVERTER_FINISHED);
  return g_bytes_new_take (out, written);
}

static char *
write_file (const char *name, GBytes *bytes)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
  return path;
}

/* 3 images of 2 × 3 pixels and 3 labels. */
static void
write_good_pair (gboolean gz, char **images, char **labels)
{
  g_autoptr(GBytes) im = idx_bytes (0x08, (guint32[]) { 3, 2, 3 }, 3, 18);
  g_autoptr(GBytes) lb = idx_bytes (0x08, (guint32[]) { 3 }, 1, 3);

  if (gz)
    {
      g_autoptr(GBytes) imz = gzip_bytes (im);
      g_autoptr(GBytes) lbz = gzip_bytes (lb);

      *images = write_file ("images.gz", imz);
      *labels = write_file ("labels.gz", lbz);
    }
  else
    {
      *images = write_file ("images", im);
      *labels = write_file ("labels", lb);
    }
}

static void
check_good_dataset (GnnIdxDataset *ds)
{
  g_autoptr(GPtrArray) item = gnn_dataset_get_item (GNN_DATASET (ds), 1, NULL);
  GnnTensor *img, *label;
  const gint64 *shape;
  guint ndim;

  g_assert_cmpint (gnn_dataset_get_length (GNN_DATASET (ds)), ==, 3);
  g_assert_cmpuint (item->len, ==, 2);
  img = g_ptr_array_index (item, 0);
  label = g_ptr_array_index (item, 1);
  shape = gnn_tensor_get_shape (img, &ndim);
  g_assert_cmpuint (ndim, ==, 2);
  g_assert_cmpint (shape[0], ==, 2);
  g_assert_cmpint (shape[1], ==, 3);
  g_assert_cmpint (gnn_tensor_get_dtype (img), ==, GNN_DTYPE_F32);
  /* pixel (1, 2) of image 1 is payload byte 6 + 5 = 11: 11 * 17 = 187 */
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (img, (gint64[]) { 1, 2 }, 2, NULL),
                                  187.0 / 255.0, 1e-6);
  g_assert_true (gnn_tensor_shares_storage (img, gnn_idx_dataset_get_images (ds)));
  g_assert_cmpuint (gnn_tensor_get_ndim (label), ==, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (label), ==, GNN_DTYPE_I64);
  g_assert_cmpfloat (gnn_tensor_item (label, NULL), ==, 17.0);
}

static void
test_raw_files (void)
{
  g_autofree char *images = NULL, *labels = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnIdxDataset) ds = NULL;

  write_good_pair (FALSE, &images, &labels);
  ds = gnn_idx_dataset_new (images, labels, &error);
  g_assert_no_error (error);
  check_good_dataset (ds);
}

static void
test_gzip_files (void)
{
  g_autofree char *images = NULL, *labels = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnIdxDataset) ds = NULL;

  write_good_pair (TRUE, &images, &labels);
  ds = gnn_idx_dataset_new (images, labels, &error);
  g_assert_no_error (error);
  check_good_dataset (ds);
}

/* Expects loading (@images, good labels) to fail with @code and @needle. */
static void
expect_images_error (GBytes *bad_images, gint code, const char *needle)
{
  g_autoptr(GBytes) lb = idx_bytes (0x08, (guint32[]) { 3 }, 1, 3);
  g_autofree char *images = write_file ("bad-images", bad_images);
  g_autofree char *labels = write_file ("ok-labels", lb);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnIdxDataset) ds = gnn_idx_dataset_new (images, labels, &error);

  g_assert_null (ds);
  g_assert_error (error, GNN_ERROR, code);
  g_assert_nonnull (strstr (error->message, images));
  if (strstr (error->message, needle) == NULL)
    g_error ("expected '%s' in '%s'", needle, error->message);
}

static void
test_bad_magic (void)
{
  g_autoptr(GBytes) b = g_bytes_new_static ("\x01\x02\x08\x03", 4);

  expect_images_error (b, GNN_ERROR_FORMAT, "bad IDX magic");
}

static void
test_wrong_ndim (void)
{
  g_autoptr(GBytes) b = idx_bytes (0x08, (guint32[]) { 3, 6 }, 2, 18);

  expect_images_error (b, GNN_ERROR_FORMAT, "expected 3 IDX dimensions");
}

static void
test_unsupported_type (void)
{
  g_autoptr(GBytes) b = idx_bytes (0x0D, (guint32[]) { 3, 2, 3 }, 3, 72);

  expect_images_error (b, GNN_ERROR_FORMAT, "unsupported IDX element type 0x0d");
}

static void
test_truncated_header (void)
{
  g_autoptr(GBytes) b = g_bytes_new_static ("\x00\x00\x08\x03\x00\x00", 6);

  expect_images_error (b, GNN_ERROR_FORMAT, "truncated IDX header");
}

static void
test_truncated_data (void)
{
  g_autoptr(GBytes) b = idx_bytes (0x08, (guint32[]) { 3, 2, 3 }, 3, 17);

  expect_images_error (b, GNN_ERROR_FORMAT, "truncated IDX data");
}

static void
test_trailing_data (void)
{
  g_autoptr(GBytes) b = idx_bytes (0x08, (guint32[]) { 3, 2, 3 }, 3, 19);

  expect_images_error (b, GNN_ERROR_FORMAT, "trailing data");
}

static void
test_dims_overflow (void)
{
  g_autoptr(GBytes) b = idx_bytes (0x08, (guint32[]) { 0xffffffff, 0xffffffff, 0xffffffff }, 3, 4);

  expect_images_error (b, GNN_ERROR_FORMAT, "dimensions overflow");
}

static void
test_truncated_gzip (void)
{
  g_autoptr(GBytes) raw = idx_bytes (0x08, (guint32[]) { 3, 2, 3 }, 3, 18);
  g_autoptr(GBytes) gz = gzip_bytes (raw);
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (gz, 0, g_bytes_get_size (gz) / 2);

  expect_images_error (cut, GNN_ERROR_FORMAT, "bad gzip data");
}

static void
test_count_mismatch (void)
{
  g_autoptr(GBytes) im = idx_bytes (0x08, (guint32[]) { 3, 2, 3 }, 3, 18);
  g_autoptr(GBytes) lb = idx_bytes (0x08, (guint32[]) { 4 }, 1, 4);
  g_autofree char *images = write_file ("im3", im);
  g_autofree char *labels = write_file ("lb4", lb);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnIdxDataset) ds = gnn_idx_dataset_new (images, labels, &error);

  g_assert_null (ds);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "3 images"));
  g_assert_nonnull (strstr (error->message, "4 labels"));
  g_assert_nonnull (strstr (error->message, labels));
}

static void
test_missing_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnIdxDataset) ds = gnn_idx_dataset_new ("/nonexistent/images", "/nonexistent/labels", &error);

  g_assert_null (ds);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/images"));
}

static void
test_fashion_mnist_t10k (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnIdxDataset) ds = NULL;
  g_autoptr(GPtrArray) item = NULL;
  const gint64 *shape;
  guint ndim;

  if (!g_file_test (FASHION_DIR "/t10k-images-idx3-ubyte.gz", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("dataset-fashion-mnist is not installed");
      return;
    }
  ds = gnn_idx_dataset_new (FASHION_DIR "/t10k-images-idx3-ubyte.gz",
                            FASHION_DIR "/t10k-labels-idx1-ubyte.gz", &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_dataset_get_length (GNN_DATASET (ds)), ==, 10000);
  item = gnn_dataset_get_item (GNN_DATASET (ds), 0, NULL);
  shape = gnn_tensor_get_shape (g_ptr_array_index (item, 0), &ndim);
  g_assert_cmpuint (ndim, ==, 2);
  g_assert_cmpint (shape[0], ==, 28);
  g_assert_cmpint (shape[1], ==, 28);
  g_assert_cmpfloat (gnn_tensor_item (g_ptr_array_index (item, 1), NULL), ==, 9.0);   /* ankle boot */
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("gnn-idx-XXXXXX", NULL);
  g_test_add_func ("/data/idx/raw-files", test_raw_files);
  g_test_add_func ("/data/idx/gzip-files", test_gzip_files);
  g_test_add_func ("/data/idx/bad-magic", test_bad_magic);
  g_test_add_func ("/data/idx/wrong-ndim", test_wrong_ndim);
  g_test_add_func ("/data/idx/unsupported-type", test_unsupported_type);
  g_test_add_func ("/data/idx/truncated-header", test_truncated_header);
  g_test_add_func ("/data/idx/truncated-data", test_truncated_data);
  g_test_add_func ("/data/idx/trailing-data", test_trailing_data);
  g_test_add_func ("/data/idx/dims-overflow", test_dims_overflow);
  g_test_add_func ("/data/idx/truncated-gzip", test_truncated_gzip);
  g_test_add_func ("/data/idx/count-mismatch", test_count_mismatch);
  g_test_add_func ("/data/idx/missing-file", test_missing_file);
  g_test_add_func ("/data/idx/fashion-mnist-t10k", test_fashion_mnist_t10k);
  ret = g_test_run ();
  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);
        g_unlink (p);
      }
  }
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
