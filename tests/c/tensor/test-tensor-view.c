/* Views share storage; reshape/view/transpose/narrow/select/expand follow PyTorch. */
#include <string.h>
#include <gnn/gnn.h>

static GnnTensor *
arange_shaped (const gint64 *shape, guint ndim)
{
  gint64 n = 1;
  g_autoptr(GnnTensor) flat = NULL;

  for (guint d = 0; d < ndim; d++)
    n *= shape[d];
  flat = gnn_tensor_arange (0, (double) n, 1, GNN_DTYPE_F32, NULL);
  return gnn_tensor_reshape (flat, shape, ndim, NULL);
}

static double
at2 (GnnTensor *t, gint64 i, gint64 j)
{
  return gnn_tensor_get_element (t, (gint64[]) { i, j }, 2, NULL);
}

static void
test_transpose_shares_storage (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) tt = gnn_tensor_transpose (t, 0, 1, NULL);
  const gint64 *strides = gnn_tensor_get_strides (tt, NULL);

  g_assert_true (gnn_tensor_shares_storage (t, tt));
  g_assert_false (gnn_tensor_is_contiguous (tt));
  g_assert_cmpint (strides[0], ==, 1);
  g_assert_cmpint (strides[1], ==, 3);
  g_assert_cmpfloat (at2 (tt, 2, 1), ==, 5.0);
  gnn_tensor_set_element (tt, (gint64[]) { 2, 0 }, 2, 42.0, NULL);
  g_assert_cmpfloat (at2 (t, 0, 2), ==, 42.0);
}

static void
test_contiguous_copies_only_when_needed (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) same = gnn_tensor_contiguous (t);
  g_autoptr(GnnTensor) tt = gnn_tensor_transpose (t, 0, 1, NULL);
  g_autoptr(GnnTensor) packed = gnn_tensor_contiguous (tt);
  g_autofree float *v = NULL;
  float expected[] = { 0, 3, 1, 4, 2, 5 };
  gsize n;

  g_assert_true (same == t);
  g_assert_false (gnn_tensor_shares_storage (tt, packed));
  g_assert_true (gnn_tensor_is_contiguous (packed));
  v = gnn_tensor_to_floats (packed, &n);
  g_assert_cmpmem (v, n * sizeof (float), expected, sizeof expected);
}

static void
test_view_infers_dim (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 4, 6 }, 2);
  g_autoptr(GnnTensor) v = gnn_tensor_view (t, (gint64[]) { -1, 3, 2 }, 3, NULL);
  const gint64 *shape = gnn_tensor_get_shape (v, NULL);

  g_assert_cmpint (shape[0], ==, 4);
  g_assert_true (gnn_tensor_shares_storage (t, v));
  g_assert_cmpfloat (gnn_tensor_get_element (v, (gint64[]) { 1, 2, 1 }, 3, NULL), ==, 11.0);
}

static void
test_view_invalid_size_message (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 2, 3 }, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) v = gnn_tensor_view (t, (gint64[]) { 4, 2 }, 2, &error);

  g_assert_null (v);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "shape '[4, 2]' is invalid for input of size 6");
}

static void
test_view_of_transpose_fails_reshape_copies (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) tt = gnn_tensor_transpose (t, 0, 1, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) v = gnn_tensor_view (tt, (gint64[]) { 6 }, 1, &error);
  g_autoptr(GnnTensor) r = gnn_tensor_reshape (tt, (gint64[]) { 6 }, 1, NULL);

  g_assert_null (v);
  g_assert_nonnull (strstr (error->message, "Use .reshape(...) instead."));
  g_assert_false (gnn_tensor_shares_storage (tt, r));
  g_assert_cmpfloat (gnn_tensor_get_element (r, (gint64[]) { 1 }, 1, NULL), ==, 3.0);
}

static void
test_two_inferred_dims_fail (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 2, 3 }, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) r = gnn_tensor_reshape (t, (gint64[]) { -1, -1 }, 2, &error);

  g_assert_null (r);
  g_assert_cmpstr (error->message, ==, "only one dimension can be inferred");
}

static void
test_narrow_and_select (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 3, 4 }, 2);
  g_autoptr(GnnTensor) n = gnn_tensor_narrow (t, 1, 1, 2, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_select (t, 0, -1, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) bad = gnn_tensor_select (t, 0, 3, &error);

  g_assert_cmpint (gnn_tensor_get_size (n, 1, NULL), ==, 2);
  g_assert_cmpfloat (at2 (n, 2, 0), ==, 9.0);
  g_assert_cmpuint (gnn_tensor_get_ndim (s), ==, 1);
  g_assert_cmpfloat (gnn_tensor_get_element (s, (gint64[]) { 3 }, 1, NULL), ==, 11.0);
  g_assert_null (bad);
  g_assert_cmpstr (error->message, ==,
                   "select(): index 3 out of range for tensor of size [3, 4] at dimension 0");
}

static void
test_narrow_out_of_range (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 3, 4 }, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) n = gnn_tensor_narrow (t, 1, 3, 2, &error);

  g_assert_null (n);
  g_assert_cmpstr (error->message, ==, "start (3) + length (2) exceeds dimension size (4).");
}

static void
test_dim_out_of_range_message (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 3, 4 }, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) n = gnn_tensor_transpose (t, 0, 2, &error);

  g_assert_null (n);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==,
                   "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

static void
test_permute_and_flatten (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 2, 3, 4 }, 3);
  g_autoptr(GnnTensor) p = gnn_tensor_permute (t, (gint[]) { 2, 0, 1 }, 3, NULL);
  g_autoptr(GnnTensor) f = gnn_tensor_flatten (t, 1, -1, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) bad = gnn_tensor_permute (t, (gint[]) { 0, 0, 1 }, 3, &error);

  g_assert_cmpint (gnn_tensor_get_size (p, 0, NULL), ==, 4);
  /* p[3, 1, 2] == t[1, 2, 3] == 23 */
  g_assert_cmpfloat (gnn_tensor_get_element (p, (gint64[]) { 3, 1, 2 }, 3, NULL), ==, 23.0);
  g_assert_cmpint (gnn_tensor_get_size (f, 1, NULL), ==, 12);
  g_assert_true (gnn_tensor_shares_storage (t, f));
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

static void
test_squeeze_unsqueeze (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) u = gnn_tensor_unsqueeze (t, 0, NULL);
  g_autoptr(GnnTensor) u2 = gnn_tensor_unsqueeze (t, -1, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_squeeze (u, 0, NULL);
  g_autoptr(GnnTensor) keep = gnn_tensor_squeeze (u2, 0, NULL);

  g_assert_cmpuint (gnn_tensor_get_ndim (u), ==, 2);
  g_assert_cmpint (gnn_tensor_get_size (u, 0, NULL), ==, 1);
  g_assert_cmpint (gnn_tensor_get_size (u2, 1, NULL), ==, 1);
  g_assert_cmpuint (gnn_tensor_get_ndim (s), ==, 1);
  g_assert_cmpuint (gnn_tensor_get_ndim (keep), ==, 2);
}

static void
test_expand_broadcast_view (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 3, 1 }, 2);
  g_autoptr(GnnTensor) e = gnn_tensor_expand (t, (gint64[]) { 2, 3, 4 }, 3, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) bad = gnn_tensor_expand (t, (gint64[]) { 2, 4 }, 2, &error);
  g_autoptr(GnnTensor) packed = NULL;

  g_assert_cmpint (gnn_tensor_get_strides (e, NULL)[2], ==, 0);
  g_assert_cmpfloat (gnn_tensor_get_element (e, (gint64[]) { 1, 2, 3 }, 3, NULL), ==, 2.0);
  packed = gnn_tensor_contiguous (e);
  g_assert_cmpint (gnn_tensor_get_numel (packed), ==, 24);
  g_assert_null (bad);
  g_assert_cmpstr (error->message, ==,
                   "The expanded size of the tensor (2) must match the existing size (3) at "
                   "non-singleton dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 1]");
}

static void
test_index_select (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 3, 4 }, 2);
  gint64 idx[] = { 2, 0, -1 };
  g_autoptr(GnnTensor) index = gnn_tensor_new_from_int64s (idx, 3, (gint64[]) { 3 }, 1, NULL);
  g_autoptr(GnnTensor) r = gnn_tensor_index_select (t, 0, index, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_index_select (t, 1, index, NULL);
  gint64 bad_idx[] = { 4 };
  g_autoptr(GnnTensor) bad_index = gnn_tensor_new_from_int64s (bad_idx, 1, (gint64[]) { 1 }, 1, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) bad = gnn_tensor_index_select (t, 0, bad_index, &error);

  g_assert_cmpint (gnn_tensor_get_size (r, 0, NULL), ==, 3);
  g_assert_cmpfloat (at2 (r, 0, 1), ==, 9.0);
  g_assert_cmpfloat (at2 (r, 1, 1), ==, 1.0);
  g_assert_cmpfloat (at2 (r, 2, 3), ==, 11.0);
  g_assert_cmpfloat (at2 (c, 1, 1), ==, 4.0);
  g_assert_cmpfloat (at2 (c, 1, 2), ==, 7.0);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "index out of range in self"));
}

static void
test_copy_broadcasts_and_converts (void)
{
  g_autoptr(GnnTensor) dst = gnn_tensor_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) row = gnn_tensor_arange (1, 4, 1, GNN_DTYPE_I32, NULL);
  g_autoptr(GnnTensor) wrong = gnn_tensor_arange (0, 4, 1, GNN_DTYPE_I32, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_tensor_copy_ (dst, row, NULL));
  g_assert_cmpfloat (at2 (dst, 1, 2), ==, 3.0);
  g_assert_false (gnn_tensor_copy_ (dst, wrong, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpfloat (at2 (dst, 1, 2), ==, 3.0);
}

static void
test_copy_between_overlapping_views (void)
{
  g_autoptr(GnnTensor) t = arange_shaped ((gint64[]) { 5 }, 1);
  g_autoptr(GnnTensor) head = gnn_tensor_narrow (t, 0, 0, 4, NULL);
  g_autoptr(GnnTensor) tail = gnn_tensor_narrow (t, 0, 1, 4, NULL);
  g_autofree float *v = NULL;
  float expected[] = { 0, 0, 1, 2, 3 };

  g_assert_true (gnn_tensor_copy_ (tail, head, NULL));
  v = gnn_tensor_to_floats (t, NULL);
  g_assert_cmpmem (v, sizeof expected, expected, sizeof expected);
}

static void
test_fill_view_only (void)
{
  g_autoptr(GnnTensor) t = gnn_tensor_zeros ((gint64[]) { 3, 3 }, 2, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) col = gnn_tensor_select (t, 1, 1, NULL);

  gnn_tensor_fill_ (col, 5, NULL);
  g_assert_cmpfloat (at2 (t, 2, 1), ==, 5.0);
  g_assert_cmpfloat (at2 (t, 2, 2), ==, 0.0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/transpose/shares-storage", test_transpose_shares_storage);
  g_test_add_func ("/tensor/contiguous/copies-only-when-needed", test_contiguous_copies_only_when_needed);
  g_test_add_func ("/tensor/view/infers-dim", test_view_infers_dim);
  g_test_add_func ("/tensor/view/invalid-size-message", test_view_invalid_size_message);
  g_test_add_func ("/tensor/view/transposed-fails-reshape-copies", test_view_of_transpose_fails_reshape_copies);
  g_test_add_func ("/tensor/reshape/two-inferred-dims-fail", test_two_inferred_dims_fail);
  g_test_add_func ("/tensor/narrow-select/values", test_narrow_and_select);
  g_test_add_func ("/tensor/narrow/out-of-range", test_narrow_out_of_range);
  g_test_add_func ("/tensor/transpose/dim-out-of-range-message", test_dim_out_of_range_message);
  g_test_add_func ("/tensor/permute-flatten/values", test_permute_and_flatten);
  g_test_add_func ("/tensor/squeeze-unsqueeze/shapes", test_squeeze_unsqueeze);
  g_test_add_func ("/tensor/expand/broadcast-view", test_expand_broadcast_view);
  g_test_add_func ("/tensor/index-select/rows-and-columns", test_index_select);
  g_test_add_func ("/tensor/copy/broadcasts-and-converts", test_copy_broadcasts_and_converts);
  g_test_add_func ("/tensor/copy/overlapping-views", test_copy_between_overlapping_views);
  g_test_add_func ("/tensor/fill/view-only", test_fill_view_only);
  return g_test_run ();
}
