/* Reductions: sum, mean, max, min, argmax, softmax, log_softmax.
 * Expected numbers come from torch 1.13. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

/* x = [[1.5, -2, 3.25], [0.5, 4, -1]] */
static GnnTensor *
make_x (void)
{
  float v[] = { 1.5f, -2.0f, 3.25f, 0.5f, 4.0f, -1.0f };
  return gnn_tensor_new_from_floats (v, 6, (gint64[]) { 2, 3 }, 2, NULL);
}

/* arange (24.).reshape (2, 3, 4) */
static GnnTensor *
make_arange3 (GnnDType dtype)
{
  g_autoptr(GnnTensor) r = gnn_tensor_arange (0, 24, 1, dtype, NULL);
  return gnn_tensor_reshape (r, (gint64[]) { 2, 3, 4 }, 3, NULL);
}

/* (arange (24.) * 0.37 % 5).reshape (2, 3, 4) in float32 */
static const float z_values[24] = {
  0.0f, 0.37f, 0.74f, 1.11f, 1.48f, 1.85f, 2.22f, 2.5900001525878906f,
  2.9600000381469727f, 3.3299999237060547f, 3.700000047683716f, 4.070000171661377f,
  4.440000057220459f, 4.809999942779541f, 0.18000030517578125f, 0.5500001907348633f,
  0.9200000762939453f, 1.2899999618530273f, 1.6599998474121094f, 2.0300002098083496f,
  2.4000000953674316f, 2.7699999809265137f, 3.140000343322754f, 3.510000228881836f,
};

static GnnTensor *
make_z (void)
{
  return gnn_tensor_new_from_floats (z_values, 24, (gint64[]) { 2, 3, 4 }, 3, NULL);
}

/* --- sum ------------------------------------------------------------------ */

static void
test_sum_all (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_sum (x, NULL, 0, FALSE, &error);

  g_assert_no_error (error);
  gnn_test_assert_shape (s, NULL, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (s), ==, GNN_DTYPE_F32);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (s, NULL), 6.25, 1e-6);
}

static void
test_sum_all_keepdim (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GnnTensor) s = gnn_tensor_sum (x, NULL, 0, TRUE, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 1, 1 }, 2);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (s, NULL), 6.25, 1e-6);
}

static void
test_sum_dim0_rows_accumulate (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GnnTensor) s = gnn_tensor_sum (x, (gint[]) { 0 }, 1, FALSE, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 3 }, 1);
  gnn_test_assert_values (s, (double[]) { 2.0, 2.0, 2.25 }, 3, 1e-6);
}

static void
test_sum_last_dim_negative (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GnnTensor) s = gnn_tensor_sum (x, (gint[]) { -1 }, 1, TRUE, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 2, 1 }, 2);
  gnn_test_assert_values (s, (double[]) { 2.75, 3.5 }, 2, 1e-6);
}

static void
test_sum_several_dims (void)
{
  g_autoptr(GnnTensor) y = make_arange3 (GNN_DTYPE_F32);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (y, (gint[]) { 0, -1 }, 2, FALSE, NULL);
  g_autoptr(GnnTensor) k = gnn_tensor_sum (y, (gint[]) { 0, -1 }, 2, TRUE, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 3 }, 1);
  gnn_test_assert_values (s, (double[]) { 60, 92, 124 }, 3, 1e-5);
  gnn_test_assert_shape (k, (gint64[]) { 1, 3, 1 }, 3);
  gnn_test_assert_values (k, (double[]) { 60, 92, 124 }, 3, 1e-5);
}

static void
test_sum_transposed_view (void)
{
  g_autoptr(GnnTensor) y = make_arange3 (GNN_DTYPE_F64);
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (y, 0, 2, NULL);   /* [4, 3, 2] */
  g_autoptr(GnnTensor) s = gnn_tensor_sum (t, (gint[]) { 1 }, 1, FALSE, NULL);

  g_assert_false (gnn_tensor_is_contiguous (t));
  gnn_test_assert_shape (s, (gint64[]) { 4, 2 }, 2);
  g_assert_cmpint (gnn_tensor_get_dtype (s), ==, GNN_DTYPE_F64);
  /* y.transpose(0, 2).sum(1) */
  gnn_test_assert_values (s, (double[]) { 12, 48, 15, 51, 18, 54, 21, 57 }, 8, 1e-9);
}

static void
test_sum_narrowed_view (void)
{
  g_autoptr(GnnTensor) y = make_arange3 (GNN_DTYPE_F32);
  g_autoptr(GnnTensor) nv = gnn_tensor_narrow (y, 2, 1, 2, NULL);   /* y[:, :, 1:3] */
  g_autoptr(GnnTensor) s = gnn_tensor_sum (nv, (gint[]) { 2 }, 1, FALSE, NULL);
  g_autoptr(GnnTensor) a = gnn_tensor_sum (nv, NULL, 0, FALSE, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 2, 3 }, 2);
  gnn_test_assert_values (s, (double[]) { 3, 11, 19, 27, 35, 43 }, 6, 1e-5);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (a, NULL), 138, 1e-4);
}

static void
test_sum_int_gives_int64 (void)
{
  g_autoptr(GnnTensor) y = make_arange3 (GNN_DTYPE_I32);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (y, (gint[]) { 1 }, 1, FALSE, NULL);
  g_autoptr(GnnTensor) all = gnn_tensor_sum (y, NULL, 0, FALSE, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (s), ==, GNN_DTYPE_I64);
  gnn_test_assert_shape (s, (gint64[]) { 2, 4 }, 2);
  gnn_test_assert_values (s, (double[]) { 12, 15, 18, 21, 48, 51, 54, 57 }, 8, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (all), ==, GNN_DTYPE_I64);
  g_assert_cmpfloat (gnn_tensor_item (all, NULL), ==, 276);
}

static void
test_sum_bool_counts (void)
{
  guint8 v[] = { 1, 0, 1, 1, 0 };
  g_autoptr(GnnTensor) b = gnn_tensor_new_from_data (v, 5, GNN_DTYPE_BOOL, (gint64[]) { 5 }, 1, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (b, NULL, 0, FALSE, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (s), ==, GNN_DTYPE_I64);
  g_assert_cmpfloat (gnn_tensor_item (s, NULL), ==, 3);
}

static void
test_sum_int64_exact (void)
{
  gint64 v[] = { G_GINT64_CONSTANT (9007199254740993), 1, 1 };   /* 2^53 + 1 */
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s (v, 3, (gint64[]) { 3 }, 1, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (t, NULL, 0, FALSE, NULL);

  g_assert_cmpint (*(gint64 *) gnn_tensor_get_data (s), ==, G_GINT64_CONSTANT (9007199254740995));
}

static void
test_sum_float_accurate (void)
{
  /* torch gives 100000.0078125; a naive float loop drifts to ~100958 */
  gint64 shape[] = { 1000000 };
  g_autoptr(GnnTensor) t = gnn_tensor_full (shape, 1, 0.1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (t, NULL, 0, FALSE, NULL);

  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (s, NULL), 100000.0, 0.02);
}

static void
test_sum_empty_dim_is_zero (void)
{
  g_autoptr(GnnTensor) e = gnn_tensor_zeros ((gint64[]) { 0, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (e, (gint[]) { 0 }, 1, FALSE, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 3 }, 1);
  gnn_test_assert_values (s, (double[]) { 0, 0, 0 }, 3, 0);
}

static void
test_sum_scalar (void)
{
  g_autoptr(GnnTensor) t = gnn_tensor_new_scalar (3.5, GNN_DTYPE_F64);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (t, (gint[]) { -1 }, 1, TRUE, NULL);

  gnn_test_assert_shape (s, NULL, 0);
  g_assert_cmpfloat (gnn_tensor_item (s, NULL), ==, 3.5);
}

static void
test_sum_duplicate_dim_fails (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_sum (x, (gint[]) { 0, -2 }, 2, FALSE, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "dim 0 appears multiple times in the list of dims"));
}

static void
test_sum_dim_out_of_range_fails (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_sum (x, (gint[]) { 5 }, 1, FALSE, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message,
                            "Dimension out of range (expected to be in range of [-2, 1], but got 5)"));
}

/* --- mean ----------------------------------------------------------------- */

static void
test_mean_dims (void)
{
  g_autoptr(GnnTensor) y = make_arange3 (GNN_DTYPE_F32);
  g_autoptr(GnnTensor) m = gnn_tensor_mean (y, (gint[]) { 1 }, 1, FALSE, NULL);
  g_autoptr(GnnTensor) all = gnn_tensor_mean (y, NULL, 0, FALSE, NULL);

  gnn_test_assert_shape (m, (gint64[]) { 2, 4 }, 2);
  gnn_test_assert_values (m, (double[]) { 4, 5, 6, 7, 16, 17, 18, 19 }, 8, 1e-6);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (all, NULL), 11.5, 1e-6);
}

static void
test_mean_int_fails (void)
{
  g_autoptr(GnnTensor) y = make_arange3 (GNN_DTYPE_I64);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) m = gnn_tensor_mean (y, NULL, 0, FALSE, &error);

  g_assert_null (m);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message,
                            "mean(): could not infer output dtype. Input dtype must be either "
                            "a floating point or complex dtype. Got: Long"));
}

static void
test_mean_empty_is_nan (void)
{
  g_autoptr(GnnTensor) e = gnn_tensor_zeros ((gint64[]) { 0, 2 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) m = gnn_tensor_mean (e, (gint[]) { 0 }, 1, FALSE, NULL);

  gnn_test_assert_values (m, (double[]) { NAN, NAN }, 2, 0);
}

/* --- max / min ------------------------------------------------------------ */

static void
test_max_min_dims (void)
{
  g_autoptr(GnnTensor) z = make_z ();
  g_autoptr(GnnTensor) mx = gnn_tensor_max (z, (gint[]) { 1 }, 1, FALSE, NULL);
  g_autoptr(GnnTensor) mn = gnn_tensor_min (z, (gint[]) { 0, 2 }, 2, TRUE, NULL);

  gnn_test_assert_shape (mx, (gint64[]) { 2, 4 }, 2);
  gnn_test_assert_values (mx, (double[]) { 2.9600000381469727, 3.3299999237060547, 3.700000047683716,
                                  4.070000171661377, 4.440000057220459, 4.809999942779541,
                                  3.140000343322754, 3.510000228881836 }, 8, 0);
  gnn_test_assert_shape (mn, (gint64[]) { 1, 3, 1 }, 3);
  gnn_test_assert_values (mn, (double[]) { 0.0, 0.9200000762939453, 2.4000000953674316 }, 3, 0);
}

static void
test_max_all_and_transposed (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (x, 0, 1, NULL);
  g_autoptr(GnnTensor) all = gnn_tensor_max (x, NULL, 0, FALSE, NULL);
  g_autoptr(GnnTensor) cols = gnn_tensor_max (t, (gint[]) { -1 }, 1, FALSE, NULL);
  g_autoptr(GnnTensor) lo = gnn_tensor_min (t, (gint[]) { 0 }, 1, FALSE, NULL);

  g_assert_cmpfloat (gnn_tensor_item (all, NULL), ==, 4.0);
  gnn_test_assert_values (cols, (double[]) { 1.5, 4.0, 3.25 }, 3, 0);
  gnn_test_assert_values (lo, (double[]) { -2.0, -1.0 }, 2, 0);
}

static void
test_max_long_rows (void)
{
  /* long enough for the 8-lane horizontal path, maximum near the end */
  g_autoptr(GnnTensor) r = gnn_tensor_arange (0, 100, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) m = gnn_tensor_reshape (r, (gint64[]) { 2, 50 }, 2, NULL);
  g_autoptr(GnnTensor) mx = gnn_tensor_max (m, (gint[]) { 1 }, 1, FALSE, NULL);
  g_autoptr(GnnTensor) mn = gnn_tensor_min (m, (gint[]) { 1 }, 1, FALSE, NULL);

  gnn_test_assert_values (mx, (double[]) { 49, 99 }, 2, 0);
  gnn_test_assert_values (mn, (double[]) { 0, 50 }, 2, 0);
}

static void
test_max_keeps_int_dtype (void)
{
  gint64 v[] = { 3, -7, G_GINT64_CONSTANT (9007199254740993), 2 };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s (v, 4, (gint64[]) { 2, 2 }, 2, NULL);
  g_autoptr(GnnTensor) mx = gnn_tensor_max (t, NULL, 0, FALSE, NULL);
  g_autoptr(GnnTensor) mn = gnn_tensor_min (t, (gint[]) { 0 }, 1, FALSE, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (mx), ==, GNN_DTYPE_I64);
  g_assert_cmpint (*(gint64 *) gnn_tensor_get_data (mx), ==, G_GINT64_CONSTANT (9007199254740993));
  gnn_test_assert_values (mn, (double[]) { 3, -7 }, 2, 0);
}

static void
test_max_nan_propagates (void)
{
  float v[] = { 1, NAN, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (v, 20, (gint64[]) { 20 }, 1, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_reshape (t, (gint64[]) { 10, 2 }, 2, NULL);
  g_autoptr(GnnTensor) mx = gnn_tensor_max (t, NULL, 0, FALSE, NULL);
  g_autoptr(GnnTensor) mn = gnn_tensor_min (t, NULL, 0, FALSE, NULL);
  g_autoptr(GnnTensor) col = gnn_tensor_max (c, (gint[]) { 0 }, 1, FALSE, NULL);

  g_assert_true (isnan (gnn_tensor_item (mx, NULL)));
  g_assert_true (isnan (gnn_tensor_item (mn, NULL)));
  gnn_test_assert_values (col, (double[]) { 19, NAN }, 2, 0);
}

static void
test_max_empty_fails (void)
{
  g_autoptr(GnnTensor) e = gnn_tensor_zeros ((gint64[]) { 0, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_max (e, NULL, 0, FALSE, &e1);
  g_autoptr(GnnTensor) b = gnn_tensor_min (e, (gint[]) { 0 }, 1, FALSE, &e2);
  g_autoptr(GnnTensor) ok = gnn_tensor_max (e, (gint[]) { 1 }, 1, FALSE, NULL);

  g_assert_null (a);
  g_assert_error (e1, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (e1->message,
                            "Expected reduction dim to be specified for input.numel() == 0"));
  g_assert_null (b);
  g_assert_error (e2, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (e2->message, "min(): Expected reduction dim 0 to have non-zero size."));
  gnn_test_assert_shape (ok, (gint64[]) { 0 }, 1);
}

/* --- argmax --------------------------------------------------------------- */

static void
test_argmax_dims (void)
{
  g_autoptr(GnnTensor) z = make_z ();
  g_autoptr(GnnTensor) a1 = gnn_tensor_argmax (z, 1, FALSE, NULL);
  g_autoptr(GnnTensor) a0 = gnn_tensor_argmax (z, 0, TRUE, NULL);
  g_autoptr(GnnTensor) al = gnn_tensor_argmax (z, -1, FALSE, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (a1), ==, GNN_DTYPE_I64);
  gnn_test_assert_shape (a1, (gint64[]) { 2, 4 }, 2);
  gnn_test_assert_values (a1, (double[]) { 2, 2, 2, 2, 0, 0, 2, 2 }, 8, 0);
  gnn_test_assert_shape (a0, (gint64[]) { 1, 3, 4 }, 3);
  gnn_test_assert_values (a0, (double[]) { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 12, 0);
  /* z.argmax(-1) */
  gnn_test_assert_values (al, (double[]) { 3, 3, 3, 1, 3, 3 }, 6, 0);
}

static void
test_argmax_first_on_ties (void)
{
  float v[] = { 1, 5, 5, 2, 7, 7, 7, 0 };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (v, 8, (gint64[]) { 2, 4 }, 2, NULL);
  g_autoptr(GnnTensor) tt = gnn_tensor_transpose (t, 0, 1, NULL);
  g_autoptr(GnnTensor) rows = gnn_tensor_argmax (t, 1, FALSE, NULL);
  g_autoptr(GnnTensor) cols = gnn_tensor_argmax (tt, 0, FALSE, NULL);
  g_autoptr(GnnTensor) ones = gnn_tensor_ones ((gint64[]) { 3, 5 }, 2, GNN_DTYPE_I32, NULL);
  g_autoptr(GnnTensor) first = gnn_tensor_argmax (ones, 0, FALSE, NULL);

  gnn_test_assert_values (rows, (double[]) { 1, 0 }, 2, 0);
  gnn_test_assert_values (cols, (double[]) { 1, 0 }, 2, 0);
  gnn_test_assert_values (first, (double[]) { 0, 0, 0, 0, 0 }, 5, 0);
}

static void
test_argmax_nan_wins (void)
{
  float v[] = { 1, NAN, 9, NAN };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (v, 4, (gint64[]) { 4 }, 1, NULL);
  g_autoptr(GnnTensor) a = gnn_tensor_argmax (t, 0, FALSE, NULL);

  g_assert_cmpfloat (gnn_tensor_item (a, NULL), ==, 1);
}

static void
test_argmax_empty_dim_fails (void)
{
  g_autoptr(GnnTensor) e = gnn_tensor_zeros ((gint64[]) { 0, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_argmax (e, 0, FALSE, &error);
  g_autoptr(GnnTensor) ok = gnn_tensor_argmax (e, 1, FALSE, NULL);

  g_assert_null (a);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "argmax(): Expected reduction dim 0 to have non-zero size."));
  gnn_test_assert_shape (ok, (gint64[]) { 0 }, 1);
}

/* --- softmax -------------------------------------------------------------- */

static void
test_softmax_last_dim (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GnnTensor) s = gnn_tensor_softmax (x, -1, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 2, 3 }, 2);
  gnn_test_assert_values (s, (double[]) { 0.1473882794380188, 0.004450740292668343, 0.848160982131958,
                                 0.02912176214158535, 0.9643803238868713, 0.0064979433082044125 },
                 6, 1e-6);
}

static void
test_softmax_dim0 (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GnnTensor) s = gnn_tensor_softmax (x, 0, NULL);

  gnn_test_assert_values (s, (double[]) { 0.7310585975646973, 0.0024726232513785362, 0.9859364032745361,
                                 0.2689414322376251, 0.9975274205207825, 0.01406362745910883 },
                 6, 1e-6);
}

static void
test_softmax_middle_dim (void)
{
  g_autoptr(GnnTensor) z = make_z ();
  g_autoptr(GnnTensor) s = gnn_tensor_softmax (z, 1, NULL);

  gnn_test_assert_values (s, (double[]) {
    0.04050071910023689, 0.04050071910023689, 0.04050071910023689, 0.04050071910023689,
    0.1779174655675888, 0.1779174953699112, 0.1779174655675888, 0.1779174655675888,
    0.7815818190574646, 0.7815818190574646, 0.7815818190574646, 0.7815818190574646,
    0.8623453974723816, 0.8623453974723816, 0.04050072282552719, 0.04050071910023689,
    0.025524936616420746, 0.025524936616420746, 0.17791740596294403, 0.1779174655675888,
    0.11212965846061707, 0.11212965846061707, 0.7815818786621094, 0.7815818190574646 },
    24, 1e-6);
}

static void
test_softmax_transposed_input (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (x, 0, 1, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_softmax (t, 1, NULL);

  /* x.t().softmax(1) == x.softmax(0).t() */
  gnn_test_assert_shape (s, (gint64[]) { 3, 2 }, 2);
  gnn_test_assert_values (s, (double[]) { 0.7310585975646973, 0.2689414322376251,
                                 0.0024726232513785362, 0.9975274205207825,
                                 0.9859364032745361, 0.01406362745910883 }, 6, 1e-6);
}

static void
test_softmax_large_values_stable (void)
{
  float v[] = { 1000, 1001, 1002 };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (v, 3, (gint64[]) { 3 }, 1, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_softmax (t, 0, NULL);
  g_autoptr(GnnTensor) l = gnn_tensor_log_softmax (t, 0, NULL);

  gnn_test_assert_values (s, (double[]) { 0.09003057330846786, 0.2447284758090973, 0.6652409434318542 },
                 3, 1e-6);
  gnn_test_assert_values (l, (double[]) { -2.4076058864593506, -1.4076058864593506, -0.40760594606399536 },
                 3, 1e-5);
}

static void
test_log_softmax_dims (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GnnTensor) l0 = gnn_tensor_log_softmax (x, 0, NULL);
  g_autoptr(GnnTensor) l1 = gnn_tensor_log_softmax (x, 1, NULL);
  g_autoptr(GnnTensor) xd = gnn_tensor_to_dtype (x, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) ld = gnn_tensor_log_softmax (xd, -1, NULL);

  gnn_test_assert_values (l0, (double[]) { -0.31326165795326233, -6.002475738525391, -0.01416344940662384,
                                  -1.31326162815094, -0.0024756519123911858, -4.264163494110107 },
                 6, 1e-5);
  gnn_test_assert_values (l1, (double[]) { -1.914684772491455, -5.414684772491455, -0.16468483209609985,
                                  -3.5362696647644043, -0.03626956418156624, -5.036269664764404 },
                 6, 1e-5);
  g_assert_cmpint (gnn_tensor_get_dtype (ld), ==, GNN_DTYPE_F64);
  gnn_test_assert_values (ld, (double[]) { -1.914684772491455, -5.414684772491455, -0.16468483209609985,
                                  -3.5362696647644043, -0.03626956418156624, -5.036269664764404 },
                 6, 1e-6);
}

static void
test_softmax_int_fails (void)
{
  g_autoptr(GnnTensor) y = make_arange3 (GNN_DTYPE_I64);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_softmax (y, 0, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "\"softmax\" not implemented for 'Long'"));
}

static void
test_softmax_dim_out_of_range_fails (void)
{
  g_autoptr(GnnTensor) x = make_x ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_log_softmax (x, 2, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "but got 2"));
}

/* A slice whose sort buffers (36 bytes per element) do not fit: topk
 * fails with GNN_ERROR_MEMORY naming the op instead of aborting. */
static void
check_topk_out_of_memory (gconstpointer data)
{
  const gint64 shape[] = { 1, 8 << 20 };   /* 32 MB of float32, ~300 MB of buffers */
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, &error);
  g_autoptr(GnnTensor) top = NULL;

  g_assert_no_error (error);
  gnn_test_cap_address_space (64u << 20);
  top = gnn_tensor_topk (x, 1, 1, TRUE, TRUE, NULL, &error);
  g_assert_null (top);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_MEMORY);
  g_assert_nonnull (strstr (error->message, "topk: out of memory"));
}

static void
test_topk_out_of_memory (void)
{
  gnn_test_run_capped (check_topk_out_of_memory, NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor/sum/all", test_sum_all);
  g_test_add_func ("/tensor/topk/out-of-memory", test_topk_out_of_memory);
  g_test_add_func ("/tensor/sum/all-keepdim", test_sum_all_keepdim);
  g_test_add_func ("/tensor/sum/dim0-rows-accumulate", test_sum_dim0_rows_accumulate);
  g_test_add_func ("/tensor/sum/last-dim-negative", test_sum_last_dim_negative);
  g_test_add_func ("/tensor/sum/several-dims", test_sum_several_dims);
  g_test_add_func ("/tensor/sum/transposed-view", test_sum_transposed_view);
  g_test_add_func ("/tensor/sum/narrowed-view", test_sum_narrowed_view);
  g_test_add_func ("/tensor/sum/int-gives-int64", test_sum_int_gives_int64);
  g_test_add_func ("/tensor/sum/bool-counts", test_sum_bool_counts);
  g_test_add_func ("/tensor/sum/int64-exact", test_sum_int64_exact);
  g_test_add_func ("/tensor/sum/float-accurate", test_sum_float_accurate);
  g_test_add_func ("/tensor/sum/empty-dim-is-zero", test_sum_empty_dim_is_zero);
  g_test_add_func ("/tensor/sum/scalar", test_sum_scalar);
  g_test_add_func ("/tensor/sum/duplicate-dim-fails", test_sum_duplicate_dim_fails);
  g_test_add_func ("/tensor/sum/dim-out-of-range-fails", test_sum_dim_out_of_range_fails);
  g_test_add_func ("/tensor/mean/dims", test_mean_dims);
  g_test_add_func ("/tensor/mean/int-fails", test_mean_int_fails);
  g_test_add_func ("/tensor/mean/empty-is-nan", test_mean_empty_is_nan);
  g_test_add_func ("/tensor/max/dims", test_max_min_dims);
  g_test_add_func ("/tensor/max/all-and-transposed", test_max_all_and_transposed);
  g_test_add_func ("/tensor/max/long-rows", test_max_long_rows);
  g_test_add_func ("/tensor/max/keeps-int-dtype", test_max_keeps_int_dtype);
  g_test_add_func ("/tensor/max/nan-propagates", test_max_nan_propagates);
  g_test_add_func ("/tensor/max/empty-fails", test_max_empty_fails);
  g_test_add_func ("/tensor/argmax/dims", test_argmax_dims);
  g_test_add_func ("/tensor/argmax/first-on-ties", test_argmax_first_on_ties);
  g_test_add_func ("/tensor/argmax/nan-wins", test_argmax_nan_wins);
  g_test_add_func ("/tensor/argmax/empty-dim-fails", test_argmax_empty_dim_fails);
  g_test_add_func ("/tensor/softmax/last-dim", test_softmax_last_dim);
  g_test_add_func ("/tensor/softmax/dim0", test_softmax_dim0);
  g_test_add_func ("/tensor/softmax/middle-dim", test_softmax_middle_dim);
  g_test_add_func ("/tensor/softmax/transposed-input", test_softmax_transposed_input);
  g_test_add_func ("/tensor/softmax/large-values-stable", test_softmax_large_values_stable);
  g_test_add_func ("/tensor/softmax/int-fails", test_softmax_int_fails);
  g_test_add_func ("/tensor/softmax/dim-out-of-range-fails", test_softmax_dim_out_of_range_fails);
  g_test_add_func ("/tensor/log-softmax/dims", test_log_softmax_dims);

  return g_test_run ();
}
