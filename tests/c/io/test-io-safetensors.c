/* safetensors save/load: round trips, dtypes, order, metadata, zero copy,
 * copy-on-write, atomic replacement, modules. */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static GnnTensor *
arange (GnnDType dtype, gint64 n)
{
  g_autoptr(GnnTensor) t = gnn_tensor_arange (0, n, 1, GNN_DTYPE_F64, NULL);
  return gnn_tensor_to_dtype (t, dtype, NULL);
}

static GnnTensor *
arange2d (GnnDType dtype, gint64 rows, gint64 cols)
{
  g_autoptr(GnnTensor) flat = arange (dtype, rows * cols);
  gint64 shape[] = { rows, cols };
  return gnn_tensor_reshape (flat, shape, 2, NULL);
}

static gboolean
tensors_equal (GnnTensor *a, GnnTensor *b)
{
  guint na, nb;
  const gint64 *sa = gnn_tensor_get_shape (a, &na);
  const gint64 *sb = gnn_tensor_get_shape (b, &nb);
  g_autoptr(GnnTensor) ca = gnn_tensor_contiguous (a);
  g_autoptr(GnnTensor) cb = gnn_tensor_contiguous (b);

  return gnn_tensor_get_dtype (a) == gnn_tensor_get_dtype (b) && na == nb &&
         memcmp (sa, sb, na * sizeof (gint64)) == 0 &&
         (gnn_tensor_get_nbytes (a) == 0 ||
          memcmp (gnn_tensor_get_data (ca), gnn_tensor_get_data (cb),
                  gnn_tensor_get_nbytes (a)) == 0);
}

static char *
keys_of (GnnStateDict *sd)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  return g_strjoinv ("|", keys);
}

static void
test_round_trip_all_dtypes (void)
{
  static const GnnDType dtypes[] = {
    GNN_DTYPE_F32, GNN_DTYPE_F64, GNN_DTYPE_F16, GNN_DTYPE_BF16, GNN_DTYPE_I64,
    GNN_DTYPE_I32, GNN_DTYPE_I16, GNN_DTYPE_I8, GNN_DTYPE_U8, GNN_DTYPE_BOOL,
  };
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("dtypes.safetensors");

  for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
    {
      g_autoptr(GnnTensor) t = arange2d (dtypes[i], 3, 5);
      g_autofree char *key = g_strdup_printf ("t%u.%s", i, gnn_dtype_get_name (dtypes[i]));
      gnn_state_dict_insert (sd, key, t);
    }
  g_assert_true (gnn_state_dict_save (sd, path, NULL, &error));
  g_assert_no_error (error);
  back = gnn_state_dict_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_state_dict_get_length (back), ==, G_N_ELEMENTS (dtypes));
  {
    g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
    for (guint i = 0; keys[i] != NULL; i++)
      g_assert_true (tensors_equal (gnn_state_dict_lookup (sd, keys[i]),
                                    gnn_state_dict_lookup (back, keys[i])));
  }
}

static void
test_round_trip_keeps_order (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GnnTensor) small = arange (GNN_DTYPE_U8, 3);
  g_autoptr(GnnTensor) big = arange (GNN_DTYPE_F64, 5);
  g_autoptr(GnnTensor) mid = arange (GNN_DTYPE_F32, 7);
  g_autofree char *path = tmp_path ("order.safetensors");
  g_autofree char *keys = NULL;

  /* u8 first: the data is laid out by element size, the header keeps this order */
  gnn_state_dict_insert (sd, "zeta", small);
  gnn_state_dict_insert (sd, "alpha", big);
  gnn_state_dict_insert (sd, "mid", mid);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  back = gnn_state_dict_load (path, NULL);
  g_assert_nonnull (back);
  keys = keys_of (back);
  g_assert_cmpstr (keys, ==, "zeta|alpha|mid");
  /* aligned, hence borrowed from the mapping rather than copied */
  g_assert_cmpuint (((guintptr) gnn_tensor_get_data (gnn_state_dict_lookup (back, "alpha"))) % 8, ==, 0);
  g_assert_cmpuint (((guintptr) gnn_tensor_get_data (gnn_state_dict_lookup (back, "mid"))) % 4, ==, 0);
}

static void
test_file_layout (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t = arange (GNN_DTYPE_F32, 3);
  g_autofree char *path = tmp_path ("layout.safetensors");
  g_autofree char *contents = NULL;
  gsize len;
  guint64 n;

  gnn_state_dict_insert (sd, "w", t);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  memcpy (&n, contents, 8);
  n = GUINT64_FROM_LE (n);
  g_assert_cmpuint (n % 8, ==, 0);
  g_assert_cmpuint (len, ==, 8 + n + 12);
  g_assert_true (g_str_has_prefix (contents + 8,
                                   "{\"w\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}"));
  g_assert_cmpint (contents[8 + n - 1], ==, n > 52 ? ' ' : '}');
  g_assert_cmpfloat (((float *) (contents + 8 + n))[2], ==, 2.0f);
}

static void
test_metadata (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GHashTable) meta = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GnnTensor) t = arange (GNN_DTYPE_F32, 2);
  g_autofree char *path = tmp_path ("meta.safetensors");
  g_auto(GStrv) mkeys = NULL;

  gnn_state_dict_insert (sd, "w", t);
  gnn_state_dict_set_metadata (sd, "own", "1");
  gnn_state_dict_set_metadata (sd, "format", "gnn");
  g_hash_table_insert (meta, "format", "pt");
  g_hash_table_insert (meta, "note", "héllo \"quoted\"");
  g_assert_true (gnn_state_dict_save (sd, path, meta, NULL));
  back = gnn_state_dict_load (path, NULL);
  g_assert_cmpstr (gnn_state_dict_get_metadata (back, "format"), ==, "pt");
  g_assert_cmpstr (gnn_state_dict_get_metadata (back, "own"), ==, "1");
  g_assert_cmpstr (gnn_state_dict_get_metadata (back, "note"), ==, "héllo \"quoted\"");
  mkeys = gnn_state_dict_get_metadata_keys (back);
  g_assert_cmpuint (g_strv_length (mkeys), ==, 3);
}

static void
test_views_saved_packed (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GnnTensor) m = arange2d (GNN_DTYPE_F32, 3, 4);
  g_autoptr(GnnTensor) mt = gnn_tensor_transpose (m, 0, 1, NULL);
  g_autofree char *path = tmp_path ("view.safetensors");
  GnnTensor *got;
  float *v;

  g_assert_false (gnn_tensor_is_contiguous (mt));
  gnn_state_dict_insert (sd, "t", mt);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  back = gnn_state_dict_load (path, NULL);
  got = gnn_state_dict_lookup (back, "t");
  g_assert_true (gnn_tensor_is_contiguous (got));
  g_assert_true (tensors_equal (got, mt));
  v = gnn_tensor_get_data (got);
  g_assert_cmpfloat (v[1], ==, 4.0f);   /* mt[0][1] = m[1][0] */
}

/* A view is packed before it is written; when that copy (64 MB here)
 * cannot be allocated, save fails with GNN_ERROR_MEMORY, leaves no file
 * (nor its temporary) and does not read NULL. */
static void
check_view_save_out_of_memory (gconstpointer data)
{
  const gint64 shape[] = { 4096, 4096 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) m = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, &error);
  g_autoptr(GnnTensor) mt = gnn_tensor_transpose (m, 0, 1, &error);
  g_autofree char *path = tmp_path ("oom.safetensors");
  g_autoptr(GDir) dir = NULL;

  g_assert_no_error (error);
  gnn_state_dict_insert (sd, "t", mt);
  gnn_test_cap_address_space (16u << 20);
  g_assert_false (gnn_state_dict_save (sd, path, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_MEMORY);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  dir = g_dir_open (tmp_dir, 0, NULL);
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    g_assert_null (strstr (name, "oom.safetensors"));
}

static void
test_view_save_out_of_memory (void)
{
  gnn_test_run_capped (check_view_save_out_of_memory, NULL);
}

static void
test_scalar_and_empty (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GnnTensor) scalar = gnn_tensor_new_scalar (7, GNN_DTYPE_I64);
  gint64 shape[] = { 0, 3 };
  g_autoptr(GnnTensor) empty = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, NULL);
  g_autofree char *path = tmp_path ("scalar.safetensors");

  gnn_state_dict_insert (sd, "n", scalar);
  gnn_state_dict_insert (sd, "e", empty);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  back = gnn_state_dict_load (path, NULL);
  g_assert_cmpuint (gnn_tensor_get_ndim (gnn_state_dict_lookup (back, "n")), ==, 0);
  g_assert_cmpfloat (gnn_tensor_item (gnn_state_dict_lookup (back, "n"), NULL), ==, 7);
  g_assert_true (tensors_equal (gnn_state_dict_lookup (back, "e"), empty));
}

static void
test_load_empty_file_dict (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnStateDict) back = NULL;
  g_autofree char *path = tmp_path ("nothing.safetensors");
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_state_dict_save (sd, path, NULL, &error));
  back = gnn_state_dict_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_state_dict_get_length (back), ==, 0);
}

/* Writes a file with an unpadded header by hand. */
static void
write_raw (const char *path, const char *header, const void *data, gsize data_len)
{
  GString *s = g_string_new (NULL);
  guint64 n = GUINT64_TO_LE (strlen (header));

  g_string_append_len (s, (const char *) &n, 8);
  g_string_append (s, header);
  g_string_append_len (s, data, data_len);
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
}

static void
test_unpadded_header_accepted (void)
{
  /* header of 61 bytes: the data starts at 69, misaligned for F32 (copied) */
  const char *header = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}    ";
  float values[] = { 1.5f, -2.0f };
  g_autofree char *path = tmp_path ("unpadded.safetensors");
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GError) error = NULL;
  float *v;

  g_assert_cmpuint ((8 + strlen (header)) % 4, !=, 0);
  write_raw (path, header, values, sizeof values);
  sd = gnn_state_dict_load (path, &error);
  g_assert_no_error (error);
  v = gnn_tensor_get_data (gnn_state_dict_lookup (sd, "a"));
  g_assert_cmpuint (((guintptr) v) % 4, ==, 0);
  g_assert_cmpfloat (v[0], ==, 1.5f);
  g_assert_cmpfloat (v[1], ==, -2.0f);
}

static void
test_zero_copy_borrows_mapping (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t = arange (GNN_DTYPE_F32, 1024);
  g_autofree char *path = tmp_path ("zc.safetensors");
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GnnTensor) keep = NULL;
  g_autoptr(GnnTensor) other = NULL;

  gnn_state_dict_insert (sd, "a", t);
  gnn_state_dict_insert (sd, "b", t);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  back = gnn_state_dict_load (path, NULL);
  keep = g_object_ref (gnn_state_dict_lookup (back, "a"));
  other = g_object_ref (gnn_state_dict_lookup (back, "b"));
  /* both tensors point into one mapping: b's data follows a's */
  g_assert_true ((guint8 *) gnn_tensor_get_data (other) ==
                 (guint8 *) gnn_tensor_get_data (keep) + 4096);
  /* the mapping outlives the state dict while a tensor uses it */
  g_clear_object (&back);
  g_assert_cmpfloat (((float *) gnn_tensor_get_data (keep))[1023], ==, 1023.0f);
}

static void
test_copy_flag (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t = arange (GNN_DTYPE_F32, 16);
  g_autofree char *path = tmp_path ("copy.safetensors");
  g_autoptr(GnnStateDict) back = NULL;
  GnnTensor *a, *b;

  gnn_state_dict_insert (sd, "a", t);
  gnn_state_dict_insert (sd, "b", t);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  back = gnn_state_dict_load_with_flags (path, GNN_LOAD_FLAGS_COPY, NULL);
  a = gnn_state_dict_lookup (back, "a");
  b = gnn_state_dict_lookup (back, "b");
  g_assert_false (gnn_tensor_shares_storage (a, b));
  g_assert_true ((guint8 *) gnn_tensor_get_data (b) != (guint8 *) gnn_tensor_get_data (a) + 64);
  /* the file can go away: nothing refers to it */
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_true (tensors_equal (a, t));
}

static void
test_writes_never_reach_file (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t = arange (GNN_DTYPE_F32, 8);
  g_autofree char *path = tmp_path ("cow.safetensors");
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GnnStateDict) again = NULL;
  g_autoptr(GError) error = NULL;

  gnn_state_dict_insert (sd, "w", t);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  g_assert_cmpint (g_chmod (path, 0444), ==, 0);    /* the file may be read-only */
  back = gnn_state_dict_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_fill_ (gnn_state_dict_lookup (back, "w"), 42, NULL));
  g_assert_cmpfloat (((float *) gnn_tensor_get_data (gnn_state_dict_lookup (back, "w")))[3], ==, 42.0f);
  again = gnn_state_dict_load (path, NULL);
  g_assert_true (tensors_equal (gnn_state_dict_lookup (again, "w"), t));
}

static guint
count_dir_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
test_save_replaces_atomically (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t1 = arange (GNN_DTYPE_F32, 4);
  g_autoptr(GnnTensor) t2 = arange (GNN_DTYPE_F64, 6);
  g_autofree char *dir = g_build_filename (tmp_dir, "atomic", NULL);
  g_autofree char *path = g_build_filename (dir, "m.safetensors", NULL);
  g_autoptr(GnnStateDict) old = NULL;
  g_autoptr(GnnStateDict) now = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  gnn_state_dict_insert (sd, "w", t1);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  old = gnn_state_dict_load (path, NULL);       /* maps the first file */

  gnn_state_dict_insert (sd, "w", t2);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);   /* no temporary left */
  now = gnn_state_dict_load (path, NULL);
  g_assert_true (tensors_equal (gnn_state_dict_lookup (now, "w"), t2));
  /* the old mapping still reads the old contents */
  g_assert_true (tensors_equal (gnn_state_dict_lookup (old, "w"), t1));

  /* a failing save leaves the target as it was, and no temporary */
  gnn_state_dict_insert (sd, "__metadata__", t1);
  g_assert_false (gnn_state_dict_save (sd, path, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NAME);
  g_assert_nonnull (strstr (error->message, "__metadata__"));
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);
  g_clear_object (&now);
  now = gnn_state_dict_load (path, NULL);
  g_assert_true (tensors_equal (gnn_state_dict_lookup (now, "w"), t2));
}

static void
test_save_unwritable_dir (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_state_dict_save (sd, "/nonexistent-dir/x.safetensors", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/x.safetensors"));
}

static void
test_load_missing_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("missing.safetensors");

  g_assert_null (gnn_state_dict_load (path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "No such file"));
}

static void
test_load_directory (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_state_dict_load (tmp_dir, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
}

static void
test_format_error_names_path (void)
{
  g_autofree char *path = tmp_path ("bad.safetensors");
  g_autoptr(GError) error = NULL;
  float v = 0;

  write_raw (path, "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}", &v, 4);
  g_assert_null (gnn_state_dict_load (path, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "tensor \"w\" has 4 bytes"));
}

static void
test_load_from_bytes (void)
{
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t = arange (GNN_DTYPE_I32, 5);
  g_autofree char *path = tmp_path ("bytes.safetensors");
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GnnStateDict) back = NULL;
  gsize len;

  gnn_state_dict_insert (sd, "i", t);
  g_assert_true (gnn_state_dict_save (sd, path, NULL, NULL));
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
  back = gnn_state_dict_load_from_bytes (bytes, GNN_LOAD_FLAGS_NONE, NULL);
  g_clear_pointer (&bytes, g_bytes_unref);     /* the tensor keeps the memory */
  g_assert_true (tensors_equal (gnn_state_dict_lookup (back, "i"), t));
}

static GnnModule *
make_model (void)
{
  g_autoptr(GnnLinear) fc1 = gnn_linear_new (4, 3, TRUE, NULL, NULL);
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new (3, 1e-5, 0.1, TRUE, TRUE, NULL);
  g_autoptr(GnnLinear) fc2 = gnn_linear_new (3, 2, FALSE, NULL, NULL);
  GnnModule *mods[] = { GNN_MODULE (fc1), GNN_MODULE (bn), GNN_MODULE (fc2) };

  return GNN_MODULE (gnn_sequential_new (mods, 3));
}

static void
test_module_save_load (void)
{
  g_autoptr(GnnModule) a = make_model ();
  g_autoptr(GnnModule) b = make_model ();
  g_autofree char *path = tmp_path ("model.safetensors");
  g_autoptr(GnnStateDict) sa = NULL;
  g_autoptr(GnnStateDict) sb = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) keys = NULL;

  g_assert_true (gnn_module_save (a, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_module_load (b, path, &error));
  g_assert_no_error (error);
  sa = gnn_module_state_dict (a);
  sb = gnn_module_state_dict (b);
  keys = gnn_state_dict_get_keys (sa);
  g_assert_cmpstr (keys[0], ==, "0.weight");
  g_assert_cmpstr (keys[6], ==, "1.num_batches_tracked");
  for (guint i = 0; keys[i] != NULL; i++)
    g_assert_true (tensors_equal (gnn_state_dict_lookup (sa, keys[i]),
                                  gnn_state_dict_lookup (sb, keys[i])));
}

static void
test_module_load_strict_atomic (void)
{
  g_autoptr(GnnModule) a = make_model ();
  g_autoptr(GnnLinear) other = gnn_linear_new (4, 3, TRUE, NULL, NULL);
  g_autoptr(GnnStateDict) before = NULL;
  g_autoptr(GnnTensor) w_before = NULL;
  g_autofree char *path = tmp_path ("strict.safetensors");
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_module_save (a, path, NULL, NULL));
  before = gnn_module_state_dict (GNN_MODULE (other));
  w_before = gnn_tensor_clone (gnn_state_dict_lookup (before, "weight"));
  g_assert_false (gnn_module_load (GNN_MODULE (other), path, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_nonnull (strstr (error->message, "Missing key(s) in state_dict: \"weight\", \"bias\"."));
  g_assert_nonnull (strstr (error->message, "Unexpected key(s) in state_dict: \"0.weight\""));
  g_assert_true (tensors_equal (gnn_state_dict_lookup (before, "weight"), w_before));
}

int
main (int argc, char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("gnn-io-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/io/safetensors/round-trip/all-dtypes", test_round_trip_all_dtypes);
  g_test_add_func ("/io/safetensors/round-trip/keeps-order", test_round_trip_keeps_order);
  g_test_add_func ("/io/safetensors/round-trip/metadata", test_metadata);
  g_test_add_func ("/io/safetensors/round-trip/views-packed", test_views_saved_packed);
  g_test_add_func ("/io/safetensors/round-trip/scalar-and-empty", test_scalar_and_empty);
  g_test_add_func ("/io/safetensors/save/view-out-of-memory", test_view_save_out_of_memory);
  g_test_add_func ("/io/safetensors/round-trip/empty-dict", test_load_empty_file_dict);
  g_test_add_func ("/io/safetensors/save/layout-padded", test_file_layout);
  g_test_add_func ("/io/safetensors/save/replaces-atomically", test_save_replaces_atomically);
  g_test_add_func ("/io/safetensors/save/unwritable-dir", test_save_unwritable_dir);
  g_test_add_func ("/io/safetensors/load/unpadded-header", test_unpadded_header_accepted);
  g_test_add_func ("/io/safetensors/load/zero-copy", test_zero_copy_borrows_mapping);
  g_test_add_func ("/io/safetensors/load/copy-flag", test_copy_flag);
  g_test_add_func ("/io/safetensors/load/writes-never-reach-file", test_writes_never_reach_file);
  g_test_add_func ("/io/safetensors/load/missing-file", test_load_missing_file);
  g_test_add_func ("/io/safetensors/load/directory", test_load_directory);
  g_test_add_func ("/io/safetensors/load/format-error-names-path", test_format_error_names_path);
  g_test_add_func ("/io/safetensors/load/from-bytes", test_load_from_bytes);
  g_test_add_func ("/io/module/save-load", test_module_save_load);
  g_test_add_func ("/io/module/load-strict-atomic", test_module_load_strict_atomic);

  ret = g_test_run ();
  gnn_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
