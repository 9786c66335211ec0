/* gnn_set_num_threads () (torch.set_num_threads) and the kernels that
 * split their loops among Gnn's threads — Winograd and im2col conv2d forward
 * and backward with their GEMMs, bias gradient, max-pool forward and
 * backward, matmul — at 1, 2 and 3 threads (see
 * test_kernels_thread_counts). The pool itself: test-parallel-for.c. */
#include <math.h>
#include <string.h>
#include <cblas.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static void
test_num_threads (void)
{
  /* without a call, Gnn follows OpenBLAS */
  openblas_set_num_threads (2);
  g_assert_cmpuint (gnn_get_num_threads (), ==, 2);
  /* with one, Gnn splits products itself: OpenBLAS runs single-threaded */
  g_assert_true (gnn_set_num_threads (3, NULL));
  g_assert_cmpuint (gnn_get_num_threads (), ==, 3);
  g_assert_cmpint (openblas_get_num_threads (), ==, 1);
  g_assert_true (gnn_set_num_threads (1, NULL));
  g_assert_cmpuint (gnn_get_num_threads (), ==, 1);

  /* torch's message; nothing changes */
  for (gint bad = -1; bad <= 0; bad++)
    {
      g_autoptr (GError) error = NULL;

      g_assert_false (gnn_set_num_threads (bad, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_cmpstr (error->message, ==, "set_num_threads expects a positive integer");
      g_assert_cmpuint (gnn_get_num_threads (), ==, 1);
    }
  {
    g_autoptr (GError) error = NULL;

    g_assert_false (gnn_set_num_threads (1 << 20, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "1048576"));
    g_assert_cmpuint (gnn_get_num_threads (), ==, 1);
  }
}

static GnnTensor *
random_tensor (GRand        *rng,
               const gint64 *shape,
               guint         ndim)
{
  gint64 n = 1;
  g_autofree float *values = NULL;
  g_autoptr (GError) error = NULL;
  GnnTensor *t;

  for (guint i = 0; i < ndim; i++)
    n *= shape[i];
  values = g_new (float, n);
  for (gint64 i = 0; i < n; i++)
    values[i] = (float) g_rand_double_range (rng, -1.0, 1.0);
  t = gnn_tensor_new_from_floats (values, (gsize) n, shape, ndim, &error);
  g_assert_no_error (error);
  gnn_tensor_set_requires_grad (t, TRUE);
  return t;
}

#define N_PARTS 8

/* The outputs and gradients of conv (3×3 Winograd-sized and a 5×5 im2col
 * one, with bias) → relu → max_pool 2×2 → sum, as bytes. */
static GPtrArray *
conv_pool_results (guint threads)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (7);
  /* big enough that every split loop has several ranges */
  gint64 xs[] = { 40, 32, 15, 13 }, w3[] = { 32, 32, 3, 3 }, w5[] = { 8, 32, 5, 5 }, bs[] = { 8 };
  g_autoptr (GnnTensor) x = random_tensor (rng, xs, 4);
  g_autoptr (GnnTensor) wa = random_tensor (rng, w3, 4);
  g_autoptr (GnnTensor) wb = random_tensor (rng, w5, 4);
  g_autoptr (GnnTensor) b = random_tensor (rng, bs, 1);
  /* the pooled 8 × 7 × 6 features → 64 through matmul (its GEMMs split too) */
  gint64 fs[] = { 8 * 7 * 6, 64 };
  g_autoptr (GnnTensor) fw = random_tensor (rng, fs, 2);
  g_autoptr (GnnTensor) h1 = NULL, h2 = NULL, r = NULL, p = NULL, f = NULL, fc = NULL, loss = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GnnTensor *parts[N_PARTS];

  g_assert_true (gnn_set_num_threads (threads, NULL));
  h1 = gnn_tensor_conv2d (x, wa, NULL, 1, 1, 1, 1, 1, 1, 1, &error);
  g_assert_no_error (error);
  h2 = gnn_tensor_conv2d (h1, wb, b, 1, 1, 2, 2, 1, 1, 1, &error);
  g_assert_no_error (error);
  r = gnn_tensor_relu (h2, &error);
  p = gnn_tensor_max_pool2d (r, 2, 2, 0, 0, 0, 0, 1, 1, FALSE, &error);
  g_assert_no_error (error);
  f = gnn_tensor_flatten (p, 1, -1, &error);
  g_assert_no_error (error);
  fc = gnn_tensor_matmul (f, fw, &error);
  g_assert_no_error (error);
  loss = gnn_tensor_sum (fc, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);

  parts[0] = h2, parts[1] = p;
  parts[2] = gnn_tensor_get_grad (x), parts[3] = gnn_tensor_get_grad (wa);
  parts[4] = gnn_tensor_get_grad (wb), parts[5] = gnn_tensor_get_grad (b);
  parts[6] = fc, parts[7] = gnn_tensor_get_grad (fw);
  for (gsize i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_autoptr (GnnTensor) c = gnn_tensor_contiguous (parts[i]);

      g_assert_nonnull (gnn_tensor_get_data (c));
      g_ptr_array_add (all, g_bytes_new (gnn_tensor_get_data (c), gnn_tensor_get_nbytes (c)));
    }
  return all;
}

/* |got - want| ≤ 1e-5 · max |want|, element by element. */
static void
assert_close (GBytes *got,
              GBytes *want)
{
  gsize n, n_want;
  const float *g = g_bytes_get_data (got, &n), *w = g_bytes_get_data (want, &n_want);
  double scale = 0;

  g_assert_cmpuint (n, ==, n_want);
  n /= sizeof (float);
  for (gsize i = 0; i < n; i++)
    scale = MAX (scale, fabs (w[i]));
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (fabs ((double) g[i] - w[i]), <=, 1e-5 * scale);
}

/* Gnn's own loops split disjoint outputs, but the products' splits change
 * OpenBLAS's rounding (measured: C's columns in two calls differ from one
 * call in the last bit, as OpenBLAS's own threads do): so across thread
 * counts the results agree to float tolerance, and at one count they are
 * the same bytes every time (a race shows as run-to-run noise, a range
 * writing outside its outputs as an error of the values' own size). */
static void
test_kernels_thread_counts (void)
{
  g_autoptr (GPtrArray) one = conv_pool_results (1);

  for (guint threads = 2; threads <= 3; threads++)
    {
      g_autoptr (GPtrArray) first = conv_pool_results (threads);

      for (guint i = 0; i < N_PARTS; i++)
        assert_close (first->pdata[i], one->pdata[i]);
      for (gint round = 0; round < 3; round++)
        {
          g_autoptr (GPtrArray) again = conv_pool_results (threads);

          for (guint i = 0; i < N_PARTS; i++)
            g_assert_true (g_bytes_equal (again->pdata[i], first->pdata[i]));
        }
    }
}

#define N_NORM_PARTS 6

/* batch_norm (training) → relu → · ramp → sum on a map large enough that
 * the statistics, the normalization, relu's backward and the zero fill of
 * a fresh gradient all split: every result as bytes. */
static GPtrArray *
norm_relu_results (guint threads)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (11);
  gint64 xs[] = { 4, 16, 96, 96 }, cs[] = { 16 };
  g_autoptr (GnnTensor) x = random_tensor (rng, xs, 4);
  g_autoptr (GnnTensor) ramp = random_tensor (rng, xs, 4);
  g_autoptr (GnnTensor) w = random_tensor (rng, cs, 1);
  g_autoptr (GnnTensor) b = random_tensor (rng, cs, 1);
  g_autoptr (GnnTensor) zeros = NULL, y = NULL, r = NULL, m = NULL, loss = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GnnTensor *parts[N_NORM_PARTS];

  g_assert_true (gnn_set_num_threads (threads, NULL));
  gnn_tensor_set_requires_grad (ramp, FALSE);
  zeros = gnn_tensor_zeros (xs, 4, GNN_DTYPE_F32, &error);
  g_assert_no_error (error);
  y = gnn_tensor_batch_norm (x, NULL, NULL, w, b, TRUE, 0.1, 1e-5, &error);
  g_assert_no_error (error);
  r = gnn_tensor_relu (y, &error);
  m = gnn_tensor_mul (r, ramp, &error);
  loss = gnn_tensor_sum (m, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);

  parts[0] = y, parts[1] = r, parts[2] = gnn_tensor_get_grad (x);
  parts[3] = gnn_tensor_get_grad (w), parts[4] = gnn_tensor_get_grad (b), parts[5] = zeros;
  for (gsize i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_assert_nonnull (parts[i]);
      g_ptr_array_add (all, g_bytes_new (gnn_tensor_get_data (parts[i]), gnn_tensor_get_nbytes (parts[i])));
    }
  return all;
}

/* Without a matrix product in the way, the split loops (per-channel
 * statistics, elementwise passes, zero fills) give the same bytes at
 * every thread count. */
static void
test_norm_relu_same_bits (void)
{
  g_autoptr (GPtrArray) one = norm_relu_results (1);

  for (guint threads = 2; threads <= 3; threads++)
    {
      g_autoptr (GPtrArray) other = norm_relu_results (threads);

      for (guint i = 0; i < N_NORM_PARTS; i++)
        g_assert_true (g_bytes_equal (other->pdata[i], one->pdata[i]));
    }
  {
    const float *z = g_bytes_get_data (one->pdata[N_NORM_PARTS - 1], NULL);

    for (gsize i = 0; i < 4 * 16 * 96 * 96; i++)
      g_assert_cmpfloat (z[i], ==, 0.0f);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/num-threads", test_num_threads);
  g_test_add_func ("/parallel/kernels-thread-counts", test_kernels_thread_counts);
  g_test_add_func ("/parallel/norm-relu-same-bits", test_norm_relu_same_bits);
  return g_test_run ();
}
