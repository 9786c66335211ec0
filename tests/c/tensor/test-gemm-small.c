/* The small-matrix float32 GEMM (lib/tensor/gnn-gemm-small.c, compiled into
 * this test) against OpenBLAS's sgemm on random shapes around the crossover,
 * in the four transpose combinations (x·Wᵀ forward, gᵀ·x and g·W backward),
 * with padded leading dimensions and with/without a bias; then the same
 * shapes through gnn_tensor_matmul (which picks one or the other by size)
 * and through Linear's fused no-grad path, against the recorded path.
 * Every CPU-level variant this machine runs (AVX2, AVX-512) is checked the
 * same way, directly and forced through GNN_CPU_LEVEL in a subprocess. */
#include <math.h>
#include <cblas.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"
#include "tensor/gnn-gemm-small-private.h"

typedef void (*SgemmSmall) (gboolean, gboolean, gint64, gint64, gint64, const float *, gint64,
                            const float *, gint64, const float *, float *, gint64);

static const char *const level_names[] = { "baseline", "avx2", "avx512" };

/* The variant of @level, or NULL when this build or CPU lacks it. */
static SgemmSmall
variant (guint level)
{
  if (level == 0)
    return gnn_sgemm_small_baseline;
#if defined(TEST_HAVE_CPU_VARIANTS) && defined(__x86_64__)
  __builtin_cpu_init ();
  if (level == 1 && __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    return gnn_sgemm_small_avx2;
  if (level == 2 && __builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512vl"))
    return gnn_sgemm_small_avx512;
#endif
  return NULL;
}

static float
uniform (GRand *rng)
{
  return (float) g_rand_double_range (rng, -1.0, 1.0);
}

static void
assert_close (const float *got,
              const float *want,
              gint64       m,
              gint64       n,
              gint64       ldc,
              gint64       k)
{
  /* k terms of |x| <= 1: rounding grows at most linearly with k */
  double tol = 1e-6 * (double) (k + 1) * 4;

  for (gint64 i = 0; i < m; i++)
    for (gint64 j = 0; j < n; j++)
      if (fabs (got[i * ldc + j] - want[i * ldc + j]) > tol)
        g_error ("C(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") = %g, OpenBLAS %g (m %"
                 G_GINT64_FORMAT " n %" G_GINT64_FORMAT " k %" G_GINT64_FORMAT ")",
                 i, j, got[i * ldc + j], want[i * ldc + j], m, n, k);
}

static void
check_kernel_shape (SgemmSmall kernel,
                    GRand   *rng,
                    gboolean ta,
                    gboolean tb,
                    gint64   m,
                    gint64   n,
                    gint64   k,
                    gboolean with_bias)
{
  gint64 pad_a = g_rand_int_range (rng, 0, 3), pad_b = g_rand_int_range (rng, 0, 3);
  gint64 lda = (ta ? m : k) + pad_a, ldb = (tb ? k : n) + pad_b, ldc = n;
  gint64 a_rows = ta ? k : m, b_rows = tb ? n : k;
  g_autofree float *a = g_new (float, a_rows * lda);
  g_autofree float *b = g_new (float, b_rows * ldb);
  g_autofree float *bias = g_new (float, n);
  g_autofree float *c = g_new (float, m * ldc);
  g_autofree float *want = g_new (float, m * ldc);

  for (gint64 i = 0; i < a_rows * lda; i++)
    a[i] = uniform (rng);
  for (gint64 i = 0; i < b_rows * ldb; i++)
    b[i] = uniform (rng);
  for (gint64 j = 0; j < n; j++)
    bias[j] = uniform (rng);
  for (gint64 i = 0; i < m; i++)
    for (gint64 j = 0; j < n; j++)
      {
        want[i * ldc + j] = with_bias ? bias[j] : 0.0f;
        c[i * ldc + j] = NAN;   /* the kernel must write every entry */
      }
  cblas_sgemm (CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
               m, n, k, 1.0f, a, lda, b, ldb, 1.0f, want, ldc);
  kernel (ta, tb, m, n, k, a, lda, b, ldb, with_bias ? bias : NULL, c, ldc);
  assert_close (c, want, m, n, ldc, k);
}

static void
test_kernel_vs_openblas (gconstpointer data)
{
  SgemmSmall kernel = variant (GPOINTER_TO_UINT (data));
  g_autoptr(GRand) rng = g_rand_new_with_seed (13);

  if (kernel == NULL)
    {
      g_test_skip ("this build or CPU lacks the variant");
      return;
    }
  /* every small shape (both sides of the 4/8/16-lane blocks), then random
   * ones up to twice the crossover's work */
  for (gint64 m = 1; m <= 9; m++)
    for (gint64 n = 1; n <= 18; n++)
      for (gint64 k = 1; k <= 18; k++)
        for (guint t = 0; t < 4; t++)
          check_kernel_shape (kernel, rng, t & 1, t >> 1, m, n, k, (m + n + k) % 2);
  for (guint iter = 0; iter < 2000; iter++)
    {
      gint64 m = g_rand_int_range (rng, 1, 40), n = g_rand_int_range (rng, 1, 40);
      gint64 k = g_rand_int_range (rng, 1, 40);

      if (m * n * k > 2 * GNN_SGEMM_SMALL_MAX_WORK_DOT && iter % 8 != 0)
        continue;
      check_kernel_shape (kernel, rng, iter & 1, (iter >> 1) & 1, m, n, k, (iter >> 2) & 1);
    }
  /* one row times Bᵀ up to the matrix-vector bound (8-row blocks, tails) */
  for (guint iter = 0; iter < 200; iter++)
    {
      gint64 n = g_rand_int_range (rng, 1, 130), k = g_rand_int_range (rng, 1, 130);

      check_kernel_shape (kernel, rng, FALSE, TRUE, 1, n, k, iter & 1);
    }
}

static GnnTensor *
random_tensor (GRand *rng, gint64 rows, gint64 cols)
{
  g_autofree float *v = g_new (float, rows * cols);

  for (gint64 i = 0; i < rows * cols; i++)
    v[i] = uniform (rng);
  return gnn_tensor_new_from_floats (v, rows * cols, (gint64[]) { rows, cols }, 2, NULL);
}

/* C = op(A)·op(B) through gnn_tensor_matmul, against a double loop. */
static void
check_matmul_shape (GRand *rng, gboolean ta, gboolean tb, gint64 m, gint64 n, gint64 k)
{
  g_autoptr(GnnTensor) a0 = ta ? random_tensor (rng, k, m) : random_tensor (rng, m, k);
  g_autoptr(GnnTensor) b0 = tb ? random_tensor (rng, n, k) : random_tensor (rng, k, n);
  g_autoptr(GnnTensor) a = ta ? gnn_tensor_transpose (a0, 0, 1, NULL) : g_object_ref (a0);
  g_autoptr(GnnTensor) b = tb ? gnn_tensor_transpose (b0, 0, 1, NULL) : g_object_ref (b0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, &error);
  g_autofree float *av = NULL, *bv = NULL, *cv = NULL;
  gsize na = 0, nb = 0, nc = 0;

  g_assert_no_error (error);
  av = gnn_tensor_to_floats (a, &na);   /* logical (row-major) order */
  bv = gnn_tensor_to_floats (b, &nb);
  cv = gnn_tensor_to_floats (c, &nc);
  g_assert_cmpuint (nc, ==, (gsize) (m * n));
  for (gint64 i = 0; i < m; i++)
    for (gint64 j = 0; j < n; j++)
      {
        double want = 0.0;

        for (gint64 p = 0; p < k; p++)
          want += (double) av[i * k + p] * bv[p * n + j];
        g_assert_cmpfloat_with_epsilon (cv[i * n + j], want, 1e-5 * (k + 1));
      }
}

static void
test_matmul_around_threshold (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (7);
  /* below, at and above the thresholds (128, 768, 1024) */
  const gint64 shapes[][3] = {
    { 1, 16, 16 }, { 2, 16, 16 }, { 1, 16, 32 }, { 1, 32, 32 }, { 8, 8, 8 }, { 8, 8, 9 },
    { 16, 1, 16 }, { 16, 16, 1 }, { 3, 5, 7 }, { 9, 9, 9 }, { 64, 64, 1 }, { 1, 64, 64 },
    { 4, 4, 8 }, { 4, 8, 4 }, { 2, 8, 8 }, { 3, 16, 16 }, { 1, 24, 32 }, { 1, 24, 33 },
    { 1, 32, 32 }, { 1, 32, 33 }, { 4, 16, 16 }, { 4, 16, 17 }, { 1, 96, 96 },
    { 1, 72, 128 }, { 1, 73, 128 }, { 1, 8, 1152 }, { 1, 9, 1024 }, { 1, 100, 93 },
  };

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (guint t = 0; t < 4; t++)
      check_matmul_shape (rng, t & 1, t >> 1, shapes[s][0], shapes[s][1], shapes[s][2]);
}

/* Linear's no-grad fused path gives what the recorded path gives. */
static void
test_linear_nograd_matches_recorded (void)
{
  const gint64 sizes[][3] = { { 1, 16, 16 }, { 4, 16, 16 }, { 1, 64, 64 }, { 3, 64, 10 }, { 1, 96, 96 }, { 1, 128, 72 }, { 1, 61, 83 },
                              { 2, 5, 1 }, { 1, 1, 7 }, { 33, 20, 30 } };
  g_autoptr(GRand) rng = g_rand_new_with_seed (99);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint bias = 0; bias < 2; bias++)
      {
        gint64 m = sizes[s][0], in = sizes[s][1], out = sizes[s][2];
        g_autoptr(GnnGenerator) gen = gnn_generator_new (s);
        g_autoptr(GnnLinear) lin = gnn_linear_new (in, out, bias, gen, NULL);
        g_autoptr(GnnTensor) x = random_tensor (rng, m, in);
        g_autoptr(GnnTensor) recorded = gnn_module_call (GNN_MODULE (lin), x, NULL);
        g_autoptr(GnnTensor) fused = NULL;
        g_autofree float *rv = NULL, *fv = NULL;
        gsize nr = 0, nf = 0;

        g_assert_nonnull (gnn_tensor_get_grad_fn_name (recorded));
        gnn_no_grad_push ();
        fused = gnn_module_call (GNN_MODULE (lin), x, NULL);
        gnn_no_grad_pop ();
        g_assert_null (gnn_tensor_get_grad_fn_name (fused));
        gnn_test_assert_shape (fused, (gint64[]) { m, out }, 2);
        rv = gnn_tensor_to_floats (recorded, &nr);
        fv = gnn_tensor_to_floats (fused, &nf);
        g_assert_cmpuint (nr, ==, nf);
        for (gsize i = 0; i < nr; i++)
          g_assert_cmpfloat_with_epsilon (fv[i], rv[i], 1e-5 * (in + 1));
      }
}

static void test_matmul_around_threshold (void);
static void test_linear_nograd_matches_recorded (void);

/* The library's dispatcher forced to one level (read once per process, so
 * in a subprocess): matmul and Linear still give the right numbers. */
static void
test_forced_level (gconstpointer data)
{
  guint level = GPOINTER_TO_UINT (data);

  if (variant (level) == NULL)
    {
      g_test_skip ("this build or CPU lacks the variant");
      return;
    }
  if (g_test_subprocess ())
    {
      g_setenv ("GNN_CPU_LEVEL", level_names[level], TRUE);
      test_matmul_around_threshold ();
      test_linear_nograd_matches_recorded ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint level = 0; level < G_N_ELEMENTS (level_names); level++)
    {
      g_autofree char *kernel = g_strdup_printf ("/tensor/gemm-small/kernel-vs-openblas/%s",
                                                 level_names[level]);
      g_autofree char *forced = g_strdup_printf ("/tensor/gemm-small/forced/%s",
                                                 level_names[level]);

      g_test_add_data_func (kernel, GUINT_TO_POINTER (level), test_kernel_vs_openblas);
      g_test_add_data_func (forced, GUINT_TO_POINTER (level), test_forced_level);
    }
  g_test_add_func ("/tensor/gemm-small/matmul-around-threshold", test_matmul_around_threshold);
  g_test_add_func ("/tensor/gemm-small/linear-nograd-matches-recorded",
                   test_linear_nograd_matches_recorded);
  return g_test_run ();
}
