/* The counter-based normal fill (gnn-random-fill.c) and rand/randn/_like:
 * moments and a Kolmogorov–Smirnov test over 10⁶ draws, the same bits for
 * contiguous and strided fills and for 1 and 2 threads, reproducibility,
 * and the constructors' shapes, dtypes and errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gnn/gnn.h>

#define N_DRAWS 1000000

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Mean, variance, skewness and excess kurtosis against N(0, 1) within 5
 * standard errors, and the KS distance to Φ below its 0.1 % critical value
 * 1.95 / √n. Also checks the tails are reached (~63 values beyond 4σ are
 * expected in 10⁶) and nothing is beyond float32's 5.8σ reach. */
static void
assert_standard_normal (GnnTensor *t)
{
  gsize n = 0;
  g_autofree double *v = gnn_tensor_to_doubles (t, &n);
  double m1 = 0, m2 = 0, m3 = 0, m4 = 0, d = 0, se = 1.0 / sqrt ((double) n);
  gsize beyond4 = 0;

  g_assert_cmpuint (n, ==, N_DRAWS);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_true (isfinite (v[i]));
      m1 += v[i];
      beyond4 += fabs (v[i]) > 4.0;
    }
  m1 /= (double) n;
  for (gsize i = 0; i < n; i++)
    {
      double x = v[i] - m1, x2 = x * x;

      m2 += x2;
      m3 += x2 * x;
      m4 += x2 * x2;
    }
  m2 /= (double) n;
  m3 = m3 / (double) n / pow (m2, 1.5);
  m4 = m4 / (double) n / (m2 * m2) - 3.0;
  g_assert_cmpfloat (fabs (m1), <, 5 * se);
  g_assert_cmpfloat (fabs (m2 - 1.0), <, 5 * sqrt (2.0) * se);
  g_assert_cmpfloat (fabs (m3), <, 5 * sqrt (6.0) * se);
  g_assert_cmpfloat (fabs (m4), <, 5 * sqrt (24.0) * se);
  g_assert_cmpuint (beyond4, >, 20);
  g_assert_cmpuint (beyond4, <, 130);

  qsort (v, n, sizeof *v, compare_doubles);
  g_assert_cmpfloat (fabs (v[0]), <, 6.0);
  g_assert_cmpfloat (fabs (v[n - 1]), <, 6.0);
  for (gsize i = 0; i < n; i++)
    {
      double cdf = 0.5 * erfc (-v[i] / G_SQRT2);

      d = MAX (d, MAX (fabs (cdf - (double) i / (double) n),
                       fabs ((double) (i + 1) / (double) n - cdf)));
    }
  g_assert_cmpfloat (d, <, 1.95 * se);
}

static GnnTensor *
randn_or_die (const gint64 *shape,
              guint         ndim,
              GnnDType      dtype,
              GnnGenerator *gen)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_randn (shape, ndim, dtype, gen, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

/* Bitwise equality of all elements in row-major order (float → double is
 * exact and injective for finite values). */
static void
assert_same_bits (GnnTensor *a,
                  GnnTensor *b)
{
  gsize na = 0, nb = 0;
  g_autofree double *va = gnn_tensor_to_doubles (a, &na);
  g_autofree double *vb = gnn_tensor_to_doubles (b, &nb);

  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpmem (va, na * sizeof *va, vb, nb * sizeof *vb);
}

static void
test_moments_and_ks (gconstpointer data)
{
  GnnDType dtype = GPOINTER_TO_INT (data);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (2024);
  g_autoptr(GnnTensor) t = randn_or_die ((gint64[]) { 1000, 1000 }, 2, dtype, gen);

  g_assert_cmpint (gnn_tensor_get_dtype (t), ==, dtype);
  assert_standard_normal (t);
}

/* normal_ (mean, std) is mean + std · the standard draw of the same
 * generator state (within the dtype's rounding). */
static void
test_mean_std (gconstpointer data)
{
  GnnDType dtype = GPOINTER_TO_INT (data);
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (5);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (5);
  g_autoptr(GnnTensor) std = randn_or_die ((gint64[]) { 4097 }, 1, dtype, g1);
  g_autoptr(GnnTensor) t = gnn_tensor_empty ((gint64[]) { 4097 }, 1, dtype, NULL);
  g_autofree double *a = NULL, *b = NULL;
  double tol = dtype == GNN_DTYPE_F32 ? 1e-5 : 1e-13;

  g_assert_true (gnn_tensor_normal_ (t, 3.0, 0.25, g2, NULL));
  a = gnn_tensor_to_doubles (std, NULL);
  b = gnn_tensor_to_doubles (t, NULL);
  for (gsize i = 0; i < 4097; i++)
    g_assert_cmpfloat_with_epsilon (b[i], 3.0 + 0.25 * a[i], tol);
}

/* Views filled in many inner runs, of odd lengths (runs starting in the
 * middle of a Box–Muller pair), longer than the fill's block of pairs, and
 * with a non-unit inner stride, get the values of a packed tensor of their
 * shape from the same generator state. */
static void
test_strided_same_bits (gconstpointer data)
{
  GnnDType dtype = GPOINTER_TO_INT (data);
  const gint64 bases[][2] = { { 9, 11 }, { 3, 1001 }, { 7, 5 } };

  for (guint c = 0; c < G_N_ELEMENTS (bases); c++)
    {
      g_autoptr(GnnGenerator) g1 = gnn_generator_new (77 + c);
      g_autoptr(GnnGenerator) g2 = gnn_generator_new (77 + c);
      g_autoptr(GnnTensor) base = gnn_tensor_zeros (bases[c], 2, dtype, NULL);
      g_autoptr(GnnTensor) view = NULL;
      g_autoptr(GnnTensor) packed = NULL;
      guint nd;
      const gint64 *shape;

      if (c < 2)   /* columns 1 .. n - 2: unit stride, odd row length */
        view = gnn_tensor_narrow (base, 1, 1, bases[c][1] - 2, NULL);
      else         /* the transpose: inner stride 5 */
        view = gnn_tensor_transpose (base, 0, 1, NULL);
      g_assert_false (gnn_tensor_is_contiguous (view));
      shape = gnn_tensor_get_shape (view, &nd);
      packed = gnn_tensor_zeros (shape, nd, dtype, NULL);
      g_assert_true (gnn_tensor_normal_ (view, 0, 1, g1, NULL));
      g_assert_true (gnn_tensor_normal_ (packed, 0, 1, g2, NULL));
      assert_same_bits (view, packed);
    }
}

static void
test_same_seed_same_values (gconstpointer data)
{
  GnnDType dtype = GPOINTER_TO_INT (data);
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (11);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (11);
  g_autoptr(GnnGenerator) g3 = gnn_generator_new (12);
  g_autoptr(GnnTensor) a = randn_or_die ((gint64[]) { 3, 333 }, 2, dtype, g1);
  g_autoptr(GnnTensor) b = randn_or_die ((gint64[]) { 3, 333 }, 2, dtype, g2);
  g_autoptr(GnnTensor) c = randn_or_die ((gint64[]) { 3, 333 }, 2, dtype, g3);
  g_autoptr(GnnTensor) next = randn_or_die ((gint64[]) { 3, 333 }, 2, dtype, g1);
  g_autoptr(GBytes) state = gnn_generator_get_state (g2);
  g_autoptr(GnnTensor) replay = NULL;

  assert_same_bits (a, b);
  g_assert_false (gnn_tensor_equal (a, c));      /* another seed */
  g_assert_false (gnn_tensor_equal (a, next));   /* the generator moved on */
  /* restoring a state replays the draw that followed it */
  g_assert_true (gnn_generator_set_state (g3, state, NULL));
  replay = randn_or_die ((gint64[]) { 3, 333 }, 2, dtype, g3);
  assert_same_bits (replay, next);
}

/* The fill is split among the intra-op threads by element ranges; the
 * values depend only on the generator state and the element's index. */
static void
test_thread_count_independent (gconstpointer data)
{
  GnnDType dtype = GPOINTER_TO_INT (data);
  guint saved = gnn_get_num_threads ();
  g_autoptr(GnnTensor) one = NULL;
  g_autoptr(GnnTensor) two = NULL;
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (3);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (3);

  g_assert_true (gnn_set_num_threads (1, NULL));
  one = randn_or_die ((gint64[]) { 1000003 }, 1, dtype, g1);
  g_assert_true (gnn_set_num_threads (2, NULL));
  two = randn_or_die ((gint64[]) { 1000003 }, 1, dtype, g2);
  g_assert_true (gnn_set_num_threads ((gint) saved, NULL));
  assert_same_bits (one, two);
}

/* rand: U[0, 1), contiguous, of the shape and dtype asked, the same values
 * as uniform_ from the same state; the _like variants follow their
 * argument's shape and dtype even for a strided one. */
static void
test_constructors (void)
{
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (21);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (21);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) g0 = gnn_generator_new (20);
  g_autoptr(GnnTensor) u = gnn_tensor_rand ((gint64[]) { 4, 0, 3 }, 3, GNN_DTYPE_F32, g0, &error);
  g_autoptr(GnnTensor) r = gnn_tensor_rand ((gint64[]) { 50, 40 }, 2, GNN_DTYPE_F64, g1, &error);
  g_autoptr(GnnTensor) ref = gnn_tensor_empty ((gint64[]) { 50, 40 }, 2, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) scalar = gnn_tensor_randn (NULL, 0, GNN_DTYPE_F32, g1, &error);
  g_autoptr(GnnTensor) half = gnn_tensor_randn ((gint64[]) { 8 }, 1, GNN_DTYPE_F16, g1, &error);
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (r, 0, 1, NULL);
  g_autoptr(GnnTensor) like = gnn_tensor_randn_like (t, g1, &error);
  g_autoptr(GnnTensor) ulike = gnn_tensor_rand_like (half, g1, &error);
  g_autofree double *v = NULL;
  gsize n = 0;
  guint nd = 0;
  const gint64 *shape;

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_numel (u), ==, 0);
  g_assert_cmpint (gnn_tensor_get_ndim (u), ==, 3);
  g_assert_true (gnn_tensor_uniform_ (ref, 0, 1, g2, NULL));
  assert_same_bits (r, ref);
  v = gnn_tensor_to_doubles (r, &n);
  for (gsize i = 0; i < n; i++)
    g_assert_true (v[i] >= 0.0 && v[i] < 1.0);
  g_assert_cmpint (gnn_tensor_get_ndim (scalar), ==, 0);
  g_assert_cmpint (gnn_tensor_get_numel (scalar), ==, 1);
  g_assert_cmpint (gnn_tensor_get_dtype (half), ==, GNN_DTYPE_F16);
  shape = gnn_tensor_get_shape (like, &nd);
  g_assert_cmpuint (nd, ==, 2);
  g_assert_cmpint (shape[0], ==, 40);
  g_assert_cmpint (shape[1], ==, 50);
  g_assert_cmpint (gnn_tensor_get_dtype (like), ==, GNN_DTYPE_F64);
  g_assert_true (gnn_tensor_is_contiguous (like));
  g_assert_cmpint (gnn_tensor_get_dtype (ulike), ==, GNN_DTYPE_F16);
  g_assert_cmpint (gnn_tensor_get_numel (ulike), ==, 8);
}

/* Under the meta default device: a meta tensor and no draws. */
static void
test_meta_no_draws (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (4);
  g_autoptr(GBytes) before = gnn_generator_get_state (gen);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GnnTensor) t = NULL;
  GnnDevice saved = gnn_set_default_device (GNN_DEVICE_META);

  t = gnn_tensor_randn ((gint64[]) { 1000, 1000 }, 2, GNN_DTYPE_F32, gen, NULL);
  gnn_set_default_device (saved);
  g_assert_nonnull (t);
  g_assert_true (gnn_tensor_is_meta (t));
  after = gnn_generator_get_state (gen);
  g_assert_true (g_bytes_equal (before, after));
}

static void
assert_fails (GnnTensor  *t,
              GError     *error,
              gint        code,
              const char *message)
{
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

/* Bad sizes and non-floating dtypes fail with a GError (torch's message for
 * the dtype) and draw nothing. */
static void
test_bad_input (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (6);
  g_autoptr(GBytes) before = gnn_generator_get_state (gen);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GnnTensor) ints = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) bools = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_BOOL, NULL);
  GError *error = NULL;
  GnnTensor *t;

  t = gnn_tensor_randn ((gint64[]) { 2, -1 }, 2, GNN_DTYPE_F32, gen, &error);
  assert_fails (t, error, GNN_ERROR_SHAPE, NULL);
  g_assert_nonnull (strstr (error->message, "negative dimension -1"));
  g_clear_error (&error);
  t = gnn_tensor_rand ((gint64[]) { -3 }, 1, GNN_DTYPE_F64, gen, &error);
  assert_fails (t, error, GNN_ERROR_SHAPE, NULL);
  g_clear_error (&error);
  t = gnn_tensor_randn ((gint64[]) { G_MAXINT64 / 2, 4 }, 2, GNN_DTYPE_F32, gen, &error);
  assert_fails (t, error, GNN_ERROR_SHAPE, NULL);
  g_assert_nonnull (strstr (error->message, "overflows"));
  g_clear_error (&error);
  t = gnn_tensor_rand ((gint64[]) { G_MAXINT64, G_MAXINT64 }, 2, GNN_DTYPE_F64, gen, &error);
  assert_fails (t, error, GNN_ERROR_SHAPE, NULL);
  g_clear_error (&error);

  t = gnn_tensor_randn ((gint64[]) { 2 }, 1, GNN_DTYPE_I64, gen, &error);
  assert_fails (t, error, GNN_ERROR_DTYPE, "\"normal_kernel_cpu\" not implemented for 'Long'");
  g_clear_error (&error);
  t = gnn_tensor_rand ((gint64[]) { 2 }, 1, GNN_DTYPE_I32, gen, &error);
  assert_fails (t, error, GNN_ERROR_DTYPE, "\"check_uniform_bounds\" not implemented for 'Int'");
  g_clear_error (&error);
  t = gnn_tensor_randn_like (bools, gen, &error);
  assert_fails (t, error, GNN_ERROR_DTYPE, "\"normal_kernel_cpu\" not implemented for 'Bool'");
  g_clear_error (&error);
  t = gnn_tensor_rand_like (ints, gen, &error);
  assert_fails (t, error, GNN_ERROR_DTYPE, "\"check_uniform_bounds\" not implemented for 'Long'");
  g_clear_error (&error);

  after = gnn_generator_get_state (gen);
  g_assert_true (g_bytes_equal (before, after));
}

int
main (int argc, char **argv)
{
  const struct { const char *name; GnnDType dtype; } dtypes[] = {
    { "float32", GNN_DTYPE_F32 }, { "float64", GNN_DTYPE_F64 },
  };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
    {
      gconstpointer d = GINT_TO_POINTER (dtypes[i].dtype);
      g_autofree char *moments = g_strdup_printf ("/tensor/randn/%s/moments-ks", dtypes[i].name);
      g_autofree char *mean_std = g_strdup_printf ("/tensor/randn/%s/mean-std", dtypes[i].name);
      g_autofree char *strided = g_strdup_printf ("/tensor/randn/%s/strided-same-bits",
                                                  dtypes[i].name);
      g_autofree char *seed = g_strdup_printf ("/tensor/randn/%s/same-seed", dtypes[i].name);
      g_autofree char *threads = g_strdup_printf ("/tensor/randn/%s/thread-count-independent",
                                                  dtypes[i].name);

      g_test_add_data_func (moments, d, test_moments_and_ks);
      g_test_add_data_func (mean_std, d, test_mean_std);
      g_test_add_data_func (strided, d, test_strided_same_bits);
      g_test_add_data_func (seed, d, test_same_seed_same_values);
      g_test_add_data_func (threads, d, test_thread_count_independent);
    }
  g_test_add_func ("/tensor/randn/constructors", test_constructors);
  g_test_add_func ("/tensor/randn/meta-no-draws", test_meta_no_draws);
  g_test_add_func ("/tensor/randn/bad-input", test_bad_input);
  return g_test_run ();
}
