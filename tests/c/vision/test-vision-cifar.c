/* CIFAR10 and CIFAR100 over small batch files written here in the format of
 * the published ones (pickle protocol 3: a dict holding a numpy uint8 array
 * of CHW rows and a list of labels; a meta dict of class names): lengths,
 * data transposed to HWC, items as RGB images over the data, labels, class
 * names; the MD5 check; damaged and missing files.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include <gnn/gnn.h>

#define ROW 3072

/* --- a minimal pickle writer ---------------------------------------------------- */

static void
put (GByteArray *out,
     const char *bytes,
     gsize       len)
{
  g_byte_array_append (out, (const guint8 *) bytes, len);
}

#define PUT(out, literal) put (out, literal, sizeof literal - 1)

static void
put_u32 (GByteArray *out,
         guint32     v)
{
  guint8 le[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

  g_byte_array_append (out, le, 4);
}

static void
put_str (GByteArray *out,
         const char *text)
{
  PUT (out, "X");
  put_u32 (out, strlen (text));
  put (out, text, strlen (text));
}

static void
put_int (GByteArray *out,
         guint32     v)
{
  PUT (out, "J");
  put_u32 (out, v);
}

/* numpy's pickle of a uint8 array [n, 3072] (protocols 2-4: _reconstruct + BUILD). */
static void
put_array (GByteArray   *out,
           guint         n,
           const guint8 *pixels)
{
  PUT (out, "cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\nK\x00\x85" "C\x01" "b\x87R(K\x01");
  put_int (out, n);
  put_int (out, ROW);
  PUT (out, "\x86" "cnumpy\ndtype\n");
  put_str (out, "u1");
  PUT (out, "\x89\x88\x87R(K\x03");
  put_str (out, "|");
  PUT (out, "NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb\x89" "B");
  put_u32 (out, n * ROW);
  put (out, (const char *) pixels, (gsize) n * ROW);
  PUT (out, "tb");
}

static void
write_batch (const char   *path,
             const char   *labels_key,
             guint         n,
             const guint8 *pixels,
             const gint   *labels)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  PUT (out, "\x80\x03}(");
  put_str (out, "data");
  put_array (out, n, pixels);
  put_str (out, labels_key);
  PUT (out, "](");
  for (guint i = 0; i < n; i++)
    put_int (out, labels[i]);
  PUT (out, "eu.");
  g_assert_true (g_file_set_contents (path, (const char *) out->data, out->len, NULL));
}

static void
write_meta (const char *path,
            const char *key,
            guint       n_classes)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  PUT (out, "\x80\x03}(");
  put_str (out, key);
  PUT (out, "](");
  for (guint i = 0; i < n_classes; i++)
    {
      g_autofree char *name = g_strdup_printf ("class%u", i);

      put_str (out, name);
    }
  PUT (out, "eu.");
  g_assert_true (g_file_set_contents (path, (const char *) out->data, out->len, NULL));
}

/* --- the fixture -------------------------------------------------------------------- */

typedef struct
{
  char   *root;
  guint8 *pixels;    /* 4 rows of CHW pixels, each batch's rows start here */
} Fixture;

static const gint labels[] = { 3, 0, 9, 5 };

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *c10 = NULL, *c100 = NULL;

  f->root = g_dir_make_tmp ("gnn-cifar-XXXXXX", NULL);
  c10 = g_build_filename (f->root, "cifar-10-batches-py", NULL);
  c100 = g_build_filename (f->root, "cifar-100-python", NULL);
  g_assert_cmpint (g_mkdir (c10, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (c100, 0755), ==, 0);
  f->pixels = g_malloc (4 * ROW);
  for (guint i = 0; i < 4 * ROW; i++)
    f->pixels[i] = (guint8) (i * 7 + i / 1024);
  /* batches 1-5 hold 1, 1, 0, 1, 1 images; the test batch 2 */
  for (guint b = 0; b < 5; b++)
    {
      g_autofree char *name = g_strdup_printf ("data_batch_%u", b + 1);
      g_autofree char *path = g_build_filename (c10, name, NULL);
      guint first = b < 2 ? b : b - 1;

      write_batch (path, "labels", b == 2 ? 0 : 1, f->pixels + first * ROW, labels + first);
    }
  {
    g_autofree char *test = g_build_filename (c10, "test_batch", NULL);
    g_autofree char *meta = g_build_filename (c10, "batches.meta", NULL);
    g_autofree char *train100 = g_build_filename (c100, "train", NULL);
    g_autofree char *test100 = g_build_filename (c100, "test", NULL);
    g_autofree char *meta100 = g_build_filename (c100, "meta", NULL);
    const gint fine[] = { 99, 42, 0, 7 };

    write_batch (test, "labels", 2, f->pixels, labels);
    write_meta (meta, "label_names", 10);
    write_batch (train100, "fine_labels", 4, f->pixels, fine);
    write_batch (test100, "fine_labels", 1, f->pixels, fine);
    write_meta (meta100, "fine_label_names", 100);
  }
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  remove_tree (f->root);
  g_free (f->root);
  g_free (f->pixels);
}

static GnnCIFAR10 *
open_cifar (GType       type,
            const char *root,
            gboolean    train,
            gboolean    check,
            GError    **error)
{
  return g_initable_new (type, NULL, error, "root", root, "train", train, "check-integrity", check, NULL);
}

/* Item @i: an RGB image whose pixel (y, x) channel c is row @i's value c·1024 + y·32 + x. */
static void
assert_item (GnnCIFAR10   *cifar,
             gint64        i,
             const guint8 *row,
             gint64        label)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) item = gnn_dataset_get_item (GNN_DATASET (cifar), i, &error);
  GnnImage *image;
  g_autoptr(GnnTensor) pixels = NULL;
  const guint8 *hwc;

  g_assert_no_error (error);
  g_assert_cmpuint (item->len, ==, 2);
  g_assert_true (GNN_IS_IMAGE (g_ptr_array_index (item, 0)));
  image = g_ptr_array_index (item, 0);
  g_assert_cmpint (gnn_image_get_width (image), ==, 32);
  g_assert_cmpint (gnn_image_get_height (image), ==, 32);
  g_assert_cmpint (gnn_image_get_mode (image), ==, GNN_IMAGE_MODE_RGB);
  pixels = gnn_tensor_contiguous (GNN_TENSOR (image));
  hwc = gnn_tensor_get_data (pixels);
  for (guint y = 0; y < 32; y += 5)
    for (guint x = 0; x < 32; x += 3)
      for (guint c = 0; c < 3; c++)
        g_assert_cmpuint (hwc[(y * 32 + x) * 3 + c], ==, row[c * 1024 + y * 32 + x]);
  g_assert_cmpfloat (gnn_tensor_item (g_ptr_array_index (item, 1), NULL), ==, (double) label);
}

static void
test_cifar10 (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnCIFAR10) train = open_cifar (GNN_TYPE_CIFAR10, f->root, TRUE, FALSE, &error);
  g_autoptr(GnnCIFAR10) test = NULL;
  GStrv classes;
  guint ndim = 0;
  const gint64 *shape;

  g_assert_no_error (error);
  g_assert_cmpint (gnn_dataset_get_length (GNN_DATASET (train)), ==, 4);
  shape = gnn_tensor_get_shape (gnn_cifar10_get_data (train), &ndim);
  g_assert_cmpuint (ndim, ==, 4);
  g_assert_cmpint (shape[0], ==, 4);
  g_assert_cmpint (shape[1], ==, 32);
  g_assert_cmpint (shape[3], ==, 3);
  g_assert_cmpint (gnn_tensor_get_dtype (gnn_cifar10_get_targets (train)), ==, GNN_DTYPE_I64);
  for (guint i = 0; i < 4; i++)
    assert_item (train, i, f->pixels + i * ROW, labels[i]);
  classes = gnn_vision_dataset_get_classes (GNN_VISION_DATASET (train));
  g_assert_cmpuint (g_strv_length (classes), ==, 10);
  g_assert_cmpstr (classes[9], ==, "class9");

  test = open_cifar (GNN_TYPE_CIFAR10, f->root, FALSE, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_dataset_get_length (GNN_DATASET (test)), ==, 2);
  assert_item (test, 1, f->pixels + ROW, labels[1]);
}

static void
test_cifar100 (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnCIFAR10) train = open_cifar (GNN_TYPE_CIFAR100, f->root, TRUE, FALSE, &error);
  GStrv classes;

  g_assert_no_error (error);
  g_assert_true (GNN_IS_CIFAR100 (train));
  g_assert_cmpint (gnn_dataset_get_length (GNN_DATASET (train)), ==, 4);
  assert_item (train, 0, f->pixels, 99);
  assert_item (train, 3, f->pixels + 3 * ROW, 7);
  classes = gnn_vision_dataset_get_classes (GNN_VISION_DATASET (train));
  g_assert_cmpuint (g_strv_length (classes), ==, 100);
}

static void
test_bad_files (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *batch = g_build_filename (f->root, "cifar-10-batches-py", "data_batch_2", NULL);
  g_autofree char *missing = g_build_filename (f->root, "elsewhere", NULL);
  g_autoptr(GError) error = NULL;
  GnnCIFAR10 *cifar;

  /* the published MD5s: these files are not the published ones */
  cifar = open_cifar (GNN_TYPE_CIFAR10, f->root, TRUE, TRUE, &error);
  g_assert_null (cifar);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "Dataset not found or corrupted"));
  g_clear_error (&error);

  cifar = open_cifar (GNN_TYPE_CIFAR10, missing, TRUE, FALSE, &error);
  g_assert_null (cifar);
  g_assert_nonnull (strstr (error->message, "Dataset not found"));
  g_clear_error (&error);

  /* a label beyond the classes, then a truncated file */
  write_batch (batch, "labels", 1, f->pixels, (const gint[]) { 10 });
  cifar = open_cifar (GNN_TYPE_CIFAR10, f->root, TRUE, FALSE, &error);
  g_assert_null (cifar);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "data_batch_2"));
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (batch, "\x80\x03}(X\x04\x00\x00\x00", 9, NULL));
  cifar = open_cifar (GNN_TYPE_CIFAR10, f->root, TRUE, FALSE, &error);
  g_assert_null (cifar);
  g_assert_nonnull (strstr (error->message, "data_batch_2"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/vision/cifar/cifar10", Fixture, NULL, fixture_set_up, test_cifar10, fixture_tear_down);
  g_test_add ("/vision/cifar/cifar100", Fixture, NULL, fixture_set_up, test_cifar100, fixture_tear_down);
  g_test_add ("/vision/cifar/bad-files", Fixture, NULL, fixture_set_up, test_bad_files, fixture_tear_down);
  return g_test_run ();
}
