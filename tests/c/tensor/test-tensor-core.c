/* Creation, element access, dtype conversion and copies. */
#include <string.h>
#include <gnn/gnn.h>

static void
test_zeros_shape (void)
{
  gint64 shape[] = { 2, 3 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, &error);
  guint ndim;
  const gint64 *s;

  g_assert_no_error (error);
  s = gnn_tensor_get_shape (t, &ndim);
  g_assert_cmpuint (ndim, ==, 2);
  g_assert_cmpint (s[0], ==, 2);
  g_assert_cmpint (s[1], ==, 3);
  g_assert_cmpint (gnn_tensor_get_numel (t), ==, 6);
  g_assert_true (gnn_tensor_is_contiguous (t));
  g_assert_cmpfloat (gnn_tensor_get_element (t, (gint64[]) { 1, 2 }, 2, NULL), ==, 0.0);
}

static void
test_negative_shape_fails (void)
{
  gint64 shape[] = { 2, -3 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, &error);

  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "[2, -3]"));
}

static void
test_from_floats_roundtrip (void)
{
  float v[] = { 1, 2, 3, 4, 5, 6 };
  gint64 shape[] = { 3, 2 };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (v, 6, shape, 2, NULL);
  g_autofree float *out = NULL;
  gsize n;

  out = gnn_tensor_to_floats (t, &n);
  g_assert_cmpuint (n, ==, 6);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (out[i], ==, v[i]);
  g_assert_cmpfloat (gnn_tensor_get_element (t, (gint64[]) { 2, 1 }, 2, NULL), ==, 6.0);
  g_assert_cmpfloat (gnn_tensor_get_element (t, (gint64[]) { -1, -2 }, 2, NULL), ==, 5.0);
}

static void
test_from_floats_count_mismatch (void)
{
  float v[] = { 1, 2, 3 };
  gint64 shape[] = { 2, 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (v, 3, shape, 2, &error);

  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "[2, 2]"));
}

static void
test_element_index_out_of_range (void)
{
  gint64 shape[] = { 2, 3 };
  g_autoptr(GnnTensor) t = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) error = NULL;

  gnn_tensor_get_element (t, (gint64[]) { 0, 3 }, 2, &error);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "index 3 is out of bounds for dimension 1 with size 3"));
}

static void
test_bytes_zero_copy (void)
{
  float v[] = { 1, 2, 3, 4 };
  gint64 shape[] = { 4 };
  g_autoptr(GBytes) bytes = g_bytes_new (v, sizeof v);
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_bytes (bytes, GNN_DTYPE_F32, shape, 1, NULL);
  g_autoptr(GBytes) back = gnn_tensor_get_bytes (t);

  g_assert_true (gnn_tensor_get_data (t) == g_bytes_get_data (bytes, NULL));
  g_assert_true (g_bytes_get_data (back, NULL) == g_bytes_get_data (bytes, NULL));
}

static void
test_to_dtype_and_half (void)
{
  float v[] = { 1.5f, -2.25f, 65504.0f, 1e-7f };
  gint64 shape[] = { 4 };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (v, 4, shape, 1, NULL);
  g_autoptr(GnnTensor) h = gnn_tensor_to_dtype (t, GNN_DTYPE_F16, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_to_dtype (t, GNN_DTYPE_BF16, NULL);
  g_autoptr(GnnTensor) i = gnn_tensor_to_dtype (t, GNN_DTYPE_I64, NULL);

  g_assert_cmpfloat (gnn_tensor_get_element (h, (gint64[]) { 0 }, 1, NULL), ==, 1.5);
  g_assert_cmpfloat (gnn_tensor_get_element (h, (gint64[]) { 1 }, 1, NULL), ==, -2.25);
  g_assert_cmpfloat (gnn_tensor_get_element (h, (gint64[]) { 2 }, 1, NULL), ==, 65504.0);
  /* 1e-7 is a half subnormal: nearest is 2^-24 * 2 = 1.19e-7 */
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (h, (gint64[]) { 3 }, 1, NULL), 1.1920929e-7, 1e-12);
  g_assert_cmpfloat (gnn_tensor_get_element (b, (gint64[]) { 1 }, 1, NULL), ==, -2.25);
  g_assert_cmpfloat (gnn_tensor_get_element (i, (gint64[]) { 1 }, 1, NULL), ==, -2.0);
  g_assert_cmpint (gnn_tensor_get_dtype (i), ==, GNN_DTYPE_I64);
}

static void
test_parameter_shares_storage (void)
{
  gint64 shape[] = { 3 };
  g_autoptr(GnnTensor) t = gnn_tensor_zeros (shape, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnParameter) p = gnn_parameter_new (t, TRUE);

  g_assert_true (GNN_IS_TENSOR (p));
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (p)));
  g_assert_true (gnn_tensor_shares_storage (t, GNN_TENSOR (p)));
  gnn_no_grad_push ();   /* a leaf that requires grad: written under no_grad */
  g_assert_true (gnn_tensor_fill_ (GNN_TENSOR (p), 7.0, NULL));
  gnn_no_grad_pop ();
  g_assert_cmpfloat (gnn_tensor_get_element (t, (gint64[]) { 2 }, 1, NULL), ==, 7.0);
}

static void
test_arange (void)
{
  g_autoptr(GnnTensor) t = gnn_tensor_arange (0, 10, 3, GNN_DTYPE_I64, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) bad = gnn_tensor_arange (0, 10, 0, GNN_DTYPE_I64, &error);

  g_assert_cmpint (gnn_tensor_get_numel (t), ==, 4);
  g_assert_cmpfloat (gnn_tensor_get_element (t, (gint64[]) { 3 }, 1, NULL), ==, 9.0);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/zeros/shape", test_zeros_shape);
  g_test_add_func ("/tensor/zeros/negative-shape-fails", test_negative_shape_fails);
  g_test_add_func ("/tensor/from-floats/roundtrip", test_from_floats_roundtrip);
  g_test_add_func ("/tensor/from-floats/count-mismatch", test_from_floats_count_mismatch);
  g_test_add_func ("/tensor/element/index-out-of-range", test_element_index_out_of_range);
  g_test_add_func ("/tensor/bytes/zero-copy", test_bytes_zero_copy);
  g_test_add_func ("/tensor/to-dtype/half-bfloat-int", test_to_dtype_and_half);
  g_test_add_func ("/tensor/parameter/shares-storage", test_parameter_shares_storage);
  g_test_add_func ("/tensor/arange/steps", test_arange);
  return g_test_run ();
}
