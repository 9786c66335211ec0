/* Random initialization: uniform_, normal_, kaiming_uniform_, kaiming_normal_. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

static GnnTensor *
new_zeros (const gint64 *shape,
           guint         ndim,
           GnnDType      dtype)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_zeros (shape, ndim, dtype, &error);

  g_assert_no_error (error);
  return t;
}

static void
stats (GnnTensor *t,
       double    *mean,
       double    *std,
       double    *min,
       double    *max)
{
  gsize n;
  g_autofree double *v = gnn_tensor_to_doubles (t, &n);
  double s = 0, ss = 0;

  *min = INFINITY;
  *max = -INFINITY;
  for (gsize i = 0; i < n; i++)
    {
      s += v[i];
      *min = MIN (*min, v[i]);
      *max = MAX (*max, v[i]);
    }
  *mean = s / n;
  for (gsize i = 0; i < n; i++)
    ss += (v[i] - *mean) * (v[i] - *mean);
  *std = sqrt (ss / (n - 1));
}

static void
test_uniform_range_and_stats (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 200, 500 }, 2, GNN_DTYPE_F32);
  g_autoptr(GError) error = NULL;
  double mean, std, min, max;

  g_assert_true (gnn_tensor_uniform_ (t, -2.0, 3.0, gen, &error));
  g_assert_no_error (error);
  stats (t, &mean, &std, &min, &max);
  g_assert_cmpfloat (min, >=, -2.0);
  g_assert_cmpfloat (max, <, 3.0);
  g_assert_cmpfloat (min, <, -1.99);
  g_assert_cmpfloat (max, >, 2.99);
  /* U(-2, 3): mean 0.5, std 5 / sqrt(12) = 1.4434 */
  g_assert_cmpfloat_with_epsilon (mean, 0.5, 0.02);
  g_assert_cmpfloat_with_epsilon (std, 5.0 / sqrt (12.0), 0.01);
}

static void
test_uniform_float64 (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (2);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 10000 }, 1, GNN_DTYPE_F64);
  double mean, std, min, max;

  g_assert_true (gnn_tensor_uniform_ (t, 0.0, 1.0, gen, NULL));
  stats (t, &mean, &std, &min, &max);
  g_assert_cmpfloat (min, >=, 0.0);
  g_assert_cmpfloat (max, <, 1.0);
  g_assert_cmpfloat_with_epsilon (mean, 0.5, 0.02);
}

static void
test_uniform_half_in_range (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnTensor) h = new_zeros ((gint64[]) { 20000 }, 1, GNN_DTYPE_F16);
  g_autoptr(GnnTensor) b = new_zeros ((gint64[]) { 20000 }, 1, GNN_DTYPE_BF16);
  double mean, std, min, max;

  /* Rounding to half or bfloat16 would often hit the excluded bound. */
  g_assert_true (gnn_tensor_uniform_ (h, 0.0, 1.0, gen, NULL));
  stats (h, &mean, &std, &min, &max);
  g_assert_cmpfloat (min, >=, 0.0);
  g_assert_cmpfloat (max, <, 1.0);
  g_assert_true (gnn_tensor_uniform_ (b, 0.0, 1.0, gen, NULL));
  stats (b, &mean, &std, &min, &max);
  g_assert_cmpfloat (min, >=, 0.0);
  g_assert_cmpfloat (max, <, 1.0);
  g_assert_cmpfloat_with_epsilon (mean, 0.5, 0.02);
}

static void
test_uniform_empty_range (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 5 }, 1, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) expected = gnn_tensor_full ((gint64[]) { 5 }, 1, 1.5, GNN_DTYPE_F32, NULL);

  g_assert_true (gnn_tensor_uniform_ (t, 1.5, 1.5, gen, NULL));
  g_assert_true (gnn_tensor_equal (t, expected));
}

static void
test_normal_stats (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (4);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 100000 }, 1, GNN_DTYPE_F32);
  g_autoptr(GError) error = NULL;
  double mean, std, min, max;

  g_assert_true (gnn_tensor_normal_ (t, 3.0, 2.0, gen, &error));
  g_assert_no_error (error);
  stats (t, &mean, &std, &min, &max);
  g_assert_cmpfloat_with_epsilon (mean, 3.0, 0.03);
  g_assert_cmpfloat_with_epsilon (std, 2.0, 0.03);
  /* Unbounded: some samples beyond 3 sigma on both sides. */
  g_assert_cmpfloat (min, <, 3.0 - 3 * 2.0);
  g_assert_cmpfloat (max, >, 3.0 + 3 * 2.0);
}

static void
test_normal_float64 (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (5);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 50000 }, 1, GNN_DTYPE_F64);
  double mean, std, min, max;

  g_assert_true (gnn_tensor_normal_ (t, -1.0, 0.5, gen, NULL));
  stats (t, &mean, &std, &min, &max);
  g_assert_cmpfloat_with_epsilon (mean, -1.0, 0.01);
  g_assert_cmpfloat_with_epsilon (std, 0.5, 0.01);
}

static void
test_same_seed_same_values (void)
{
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (42);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (42);
  g_autoptr(GnnGenerator) g3 = gnn_generator_new (43);
  g_autoptr(GnnTensor) a = new_zeros ((gint64[]) { 64, 33 }, 2, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) b = new_zeros ((gint64[]) { 64, 33 }, 2, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) c = new_zeros ((gint64[]) { 64, 33 }, 2, GNN_DTYPE_F32);

  g_assert_true (gnn_tensor_normal_ (a, 0, 1, g1, NULL));
  g_assert_true (gnn_tensor_normal_ (b, 0, 1, g2, NULL));
  g_assert_true (gnn_tensor_normal_ (c, 0, 1, g3, NULL));
  g_assert_true (gnn_tensor_equal (a, b));
  g_assert_false (gnn_tensor_equal (a, c));

  g_assert_true (gnn_tensor_kaiming_uniform_ (a, 0, g1, NULL));
  g_assert_true (gnn_tensor_kaiming_uniform_ (b, 0, g2, NULL));
  g_assert_true (gnn_tensor_equal (a, b));
}

static void
test_generator_advances (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (7);
  g_autoptr(GnnTensor) a = new_zeros ((gint64[]) { 100 }, 1, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) b = new_zeros ((gint64[]) { 100 }, 1, GNN_DTYPE_F32);

  g_assert_true (gnn_tensor_uniform_ (a, 0, 1, gen, NULL));
  g_assert_true (gnn_tensor_uniform_ (b, 0, 1, gen, NULL));
  g_assert_false (gnn_tensor_equal (a, b));
}

static void
test_view_untouched_outside (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (8);
  g_autoptr(GnnTensor) t = gnn_tensor_full ((gint64[]) { 6, 8 }, 2, -100.0, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) tt = gnn_tensor_transpose (t, 0, 1, NULL);
  g_autoptr(GnnTensor) v = gnn_tensor_narrow (tt, 0, 2, 3, NULL);   /* columns 2..4 of t */
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_tensor_is_contiguous (v));
  g_assert_true (gnn_tensor_uniform_ (v, 0.0, 1.0, gen, &error));
  g_assert_no_error (error);
  for (gint64 i = 0; i < 6; i++)
    for (gint64 j = 0; j < 8; j++)
      {
        double x = gnn_tensor_get_element (t, (gint64[]) { i, j }, 2, NULL);

        if (j >= 2 && j < 5)
          {
            g_assert_cmpfloat (x, >=, 0.0);
            g_assert_cmpfloat (x, <, 1.0);
          }
        else
          g_assert_cmpfloat (x, ==, -100.0);
      }
}

static void
test_view_same_values_as_contiguous (void)
{
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (9);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (9);
  g_autoptr(GnnTensor) base = new_zeros ((gint64[]) { 5, 4 }, 2, GNN_DTYPE_F64);
  g_autoptr(GnnTensor) view = gnn_tensor_transpose (base, 0, 1, NULL);
  g_autoptr(GnnTensor) packed = new_zeros ((gint64[]) { 4, 5 }, 2, GNN_DTYPE_F64);

  /* Row-major order of the view: same sequence as a packed tensor. */
  g_assert_true (gnn_tensor_normal_ (view, 0, 1, g1, NULL));
  g_assert_true (gnn_tensor_normal_ (packed, 0, 1, g2, NULL));
  g_assert_true (gnn_tensor_equal (view, packed));
}

/* Uniform fills are counter-based (element k of the fill, row-major, has
 * its own value): a strided view, filled in many inner runs, gets the same
 * values as a packed tensor from the same generator state, at both float
 * dtypes, including runs longer than the strided path's block and runs
 * that start at an odd element (float32 takes two elements per mix). */
static void
test_uniform_view_same_values_as_contiguous (void)
{
  const GnnDType dtypes[] = { GNN_DTYPE_F32, GNN_DTYPE_F64 };

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      g_autoptr(GnnGenerator) g1 = gnn_generator_new (19);
      g_autoptr(GnnGenerator) g2 = gnn_generator_new (19);
      g_autoptr(GnnTensor) base = new_zeros ((gint64[]) { 301, 7 }, 2, dtypes[d]);
      g_autoptr(GnnTensor) view = gnn_tensor_transpose (base, 0, 1, NULL);
      g_autoptr(GnnTensor) packed = new_zeros ((gint64[]) { 7, 301 }, 2, dtypes[d]);

      g_assert_true (gnn_tensor_uniform_ (view, -2, 3, g1, NULL));
      g_assert_true (gnn_tensor_uniform_ (packed, -2, 3, g2, NULL));
      g_assert_true (gnn_tensor_equal (view, packed));
      /* both generators advanced alike */
      g_assert_cmpuint (gnn_generator_next_u64 (g1), ==, gnn_generator_next_u64 (g2));
    }
}

/* A range one float wide: a + (b - a)·u rounds to b for half the draws;
 * every value must still be below b. */
static void
test_uniform_one_ulp_range (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (23);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 4096 }, 1, GNN_DTYPE_F32);
  g_autofree float *v = NULL;
  float b = nextafterf (1.0f, 2.0f);
  gsize len = 0;

  g_assert_true (gnn_tensor_uniform_ (t, 1.0, b, gen, NULL));
  v = gnn_tensor_to_floats (t, &len);
  for (gsize i = 0; i < len; i++)
    g_assert_cmpfloat (v[i], ==, 1.0f);
}

static void
test_kaiming_uniform_bound (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (10);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 64, 8, 3, 3 }, 4, GNN_DTYPE_F32);
  double fan_in = 8 * 3 * 3;
  double a = 0.2;
  double bound = sqrt (2.0 / (1 + a * a)) * sqrt (3.0 / fan_in);
  double mean, std, min, max;

  g_assert_true (gnn_tensor_kaiming_uniform_ (t, a, gen, NULL));
  stats (t, &mean, &std, &min, &max);
  g_assert_cmpfloat (min, >=, -bound);
  g_assert_cmpfloat (max, <, bound);
  g_assert_cmpfloat (max, >, 0.98 * bound);
  g_assert_cmpfloat (min, <, -0.98 * bound);
  g_assert_cmpfloat_with_epsilon (mean, 0.0, 0.03 * bound);
  g_assert_cmpfloat_with_epsilon (std, bound / sqrt (3.0), 0.03 * bound);
}

static void
test_kaiming_normal_std (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (11);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 1000, 50 }, 2, GNN_DTYPE_F32);
  double expected = sqrt (2.0) / sqrt (50.0);
  double mean, std, min, max;

  g_assert_true (gnn_tensor_kaiming_normal_ (t, 0, gen, NULL));
  stats (t, &mean, &std, &min, &max);
  g_assert_cmpfloat_with_epsilon (mean, 0.0, 0.02 * expected);
  g_assert_cmpfloat_with_epsilon (std, expected, 0.02 * expected);
}

static void
test_int_dtype_fails (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (12);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_I64);
  g_autoptr(GnnTensor) zeros = new_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_I64);
  GError *error = NULL;

  g_assert_false (gnn_tensor_uniform_ (t, 0, 1, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "int64"));
  g_clear_error (&error);
  g_assert_false (gnn_tensor_normal_ (t, 0, 1, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (gnn_tensor_kaiming_uniform_ (t, 0, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (gnn_tensor_kaiming_normal_ (t, 0, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_true (gnn_tensor_equal (t, zeros));
}

static void
test_kaiming_one_dim_fails (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (13);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 5 }, 1, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) s = gnn_tensor_new_scalar (0, GNN_DTYPE_F32);
  GError *error = NULL;

  g_assert_false (gnn_tensor_kaiming_uniform_ (t, 0, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Fan in and fan out can not be computed for tensor "
                                            "with fewer than 2 dimensions"));
  g_clear_error (&error);
  g_assert_false (gnn_tensor_kaiming_normal_ (s, 0, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "fewer than 2 dimensions"));
  g_clear_error (&error);
}

static void
test_kaiming_empty_is_noop (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (14);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 0, 3 }, 2, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) v = new_zeros ((gint64[]) { 0 }, 1, GNN_DTYPE_F32);
  g_autoptr(GError) error = NULL;

  /* Like torch: "Initializing zero-element tensors is a no-op". */
  g_assert_true (gnn_tensor_kaiming_uniform_ (t, 0, gen, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_kaiming_normal_ (v, 0, gen, &error));
  g_assert_no_error (error);
}

static void
test_bad_bounds_fail (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (15);
  g_autoptr(GnnTensor) t = new_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) zeros = new_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_F32);
  GError *error = NULL;

  g_assert_false (gnn_tensor_uniform_ (t, 2, 1, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "from=2 > to=1"));
  g_clear_error (&error);
  g_assert_false (gnn_tensor_uniform_ (t, NAN, 1, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "from is out of bounds"));
  g_clear_error (&error);
  g_assert_false (gnn_tensor_normal_ (t, 0, -1, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "normal expects std >= 0.0, but found std -1"));
  g_clear_error (&error);
  g_assert_true (gnn_tensor_equal (t, zeros));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor/init/uniform/range-and-stats", test_uniform_range_and_stats);
  g_test_add_func ("/tensor/init/uniform/float64", test_uniform_float64);
  g_test_add_func ("/tensor/init/uniform/half-in-range", test_uniform_half_in_range);
  g_test_add_func ("/tensor/init/uniform/empty-range", test_uniform_empty_range);
  g_test_add_func ("/tensor/init/uniform/bad-bounds", test_bad_bounds_fail);
  g_test_add_func ("/tensor/init/normal/stats", test_normal_stats);
  g_test_add_func ("/tensor/init/normal/float64", test_normal_float64);
  g_test_add_func ("/tensor/init/same-seed-same-values", test_same_seed_same_values);
  g_test_add_func ("/tensor/init/generator-advances", test_generator_advances);
  g_test_add_func ("/tensor/init/view-untouched-outside", test_view_untouched_outside);
  g_test_add_func ("/tensor/init/view-same-values-as-contiguous",
                   test_view_same_values_as_contiguous);
  g_test_add_func ("/tensor/init/uniform/view-same-values-as-contiguous",
                   test_uniform_view_same_values_as_contiguous);
  g_test_add_func ("/tensor/init/uniform/one-ulp-range", test_uniform_one_ulp_range);
  g_test_add_func ("/tensor/init/kaiming-uniform/bound", test_kaiming_uniform_bound);
  g_test_add_func ("/tensor/init/kaiming-uniform/empty-noop", test_kaiming_empty_is_noop);
  g_test_add_func ("/tensor/init/kaiming-normal/std", test_kaiming_normal_std);
  g_test_add_func ("/tensor/init/int-dtype-fails", test_int_dtype_fails);
  g_test_add_func ("/tensor/init/kaiming-one-dim-fails", test_kaiming_one_dim_fails);

  return g_test_run ();
}
