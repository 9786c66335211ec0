/* test-tensor-search.c: searchsorted, bucketize, isin, unique_consecutive,
 * cummax / cummin positions and mode against values torch 1.13 gives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "gnn-test-util.h"

static GnnTensor *
vec (const double *v,
     gint64        n)
{
  return gnn_tensor_new_from_doubles (v, n, &n, 1, NULL);
}

static void
assert_int64s (GnnTensor    *t,
               const gint64 *expected,
               gsize         n)
{
  g_autofree double *v = NULL;
  gsize got = 0;

  g_assert_nonnull (t);
  g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_I64);
  v = gnn_tensor_to_doubles (t, &got);
  g_assert_cmpuint (got, ==, n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (v[i], ==, (double) expected[i]);
}

static void
test_searchsorted (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) seq = vec ((double[]) { 1, 3, 5, 7 }, 4);
  g_autoptr(GnnTensor) values = vec ((double[]) { 3, 6, 9, 0, NAN }, 5);
  g_autoptr(GnnTensor) left = gnn_tensor_searchsorted (seq, values, FALSE, FALSE, NULL, &error);
  g_autoptr(GnnTensor) right = gnn_tensor_searchsorted (seq, values, TRUE, FALSE, NULL, &error);
  g_autoptr(GnnTensor) bucket = gnn_tensor_bucketize (values, seq, TRUE, FALSE, &error);
  g_autoptr(GnnTensor) unsorted = vec ((double[]) { 3, 1, 2 }, 3);
  g_autoptr(GnnTensor) sorter = gnn_tensor_new_from_int64s ((gint64[]) { 1, 2, 0 }, 3,
                                                            (gint64[]) { 3 }, 1, NULL);
  g_autoptr(GnnTensor) probe = vec ((double[]) { 1.5, 2.5 }, 2);
  g_autoptr(GnnTensor) sorted_by = gnn_tensor_searchsorted (unsorted, probe, FALSE, FALSE,
                                                            sorter, &error);

  g_assert_no_error (error);
  assert_int64s (left, (gint64[]) { 1, 3, 4, 0, 4 }, 5);
  assert_int64s (right, (gint64[]) { 2, 3, 4, 0, 4 }, 5);
  g_assert_cmpint (gnn_tensor_get_dtype (bucket), ==, GNN_DTYPE_I32);
  assert_int64s (sorted_by, (gint64[]) { 1, 2 }, 2);
}

static void
test_searchsorted_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) rows = gnn_tensor_zeros ((gint64[]) { 2, 2 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) three = gnn_tensor_zeros ((gint64[]) { 3, 1 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) r = gnn_tensor_searchsorted (rows, three, FALSE, FALSE, NULL, &error);

  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "boundaries tensor [2, 2] and input value tensor [3, 1]"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bucketize (three, rows, FALSE, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "boundaries tensor must be 1 dimension, but got dim(2)");
}

static void
test_isin_unique_consecutive (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = vec ((double[]) { 1, 1, 2, 2, 3, 1, 1, NAN }, 8);
  g_autoptr(GnnTensor) test = vec ((double[]) { 2, NAN, 1 }, 3);
  g_autoptr(GnnTensor) in = gnn_tensor_isin (x, test, FALSE, FALSE, &error);
  g_autoptr(GnnTensor) inverse = NULL;
  g_autoptr(GnnTensor) counts = NULL;
  g_autoptr(GnnTensor) runs = gnn_tensor_unique_consecutive (x, &inverse, &counts, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (in), ==, GNN_DTYPE_BOOL);
  gnn_test_assert_values (in, (double[]) { 1, 1, 1, 1, 0, 1, 1, 0 }, 8, 0);
  g_assert_cmpint (gnn_tensor_get_numel (runs), ==, 5);
  assert_int64s (inverse, (gint64[]) { 0, 0, 1, 1, 2, 3, 3, 4 }, 8);
  assert_int64s (counts, (gint64[]) { 2, 2, 1, 2, 1 }, 5);
}

static void
test_cummax_mode (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = vec ((double[]) { 1, 3, 3, 2, 3 }, 5);
  g_autoptr(GnnTensor) hi_index = NULL;
  g_autoptr(GnnTensor) lo_index = NULL;
  g_autoptr(GnnTensor) mode_index = NULL;
  g_autoptr(GnnTensor) hi = gnn_tensor_cummax (x, 0, &hi_index, &error);
  g_autoptr(GnnTensor) lo = gnn_tensor_cummin (x, -1, &lo_index, &error);
  g_autoptr(GnnTensor) y = vec ((double[]) { 1, 2, 2, 1, 3 }, 5);
  g_autoptr(GnnTensor) m = gnn_tensor_mode (y, -1, FALSE, &mode_index, &error);

  g_assert_no_error (error);
  gnn_test_assert_values (hi, (double[]) { 1, 3, 3, 3, 3 }, 5, 0);
  assert_int64s (hi_index, (gint64[]) { 0, 1, 2, 2, 4 }, 5);
  assert_int64s (lo_index, (gint64[]) { 0, 0, 0, 0, 0 }, 5);
  gnn_test_assert_values (lo, (double[]) { 1, 1, 1, 1, 1 }, 5, 0);
  gnn_test_assert_values (m, (double[]) { 1 }, 1, 0);
  assert_int64s (mode_index, (gint64[]) { 3 }, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/search/searchsorted", test_searchsorted);
  g_test_add_func ("/tensor/search/searchsorted-errors", test_searchsorted_errors);
  g_test_add_func ("/tensor/search/isin-unique-consecutive", test_isin_unique_consecutive);
  g_test_add_func ("/tensor/search/cummax-mode", test_cummax_mode);
  return g_test_run ();
}
