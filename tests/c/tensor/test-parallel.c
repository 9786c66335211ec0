/* gnn_set_num_threads () (torch.set_num_threads) and the kernels that
 * split their loops among Gnn's threads — Winograd and im2col conv2d forward
 * and backward, bias gradient, max-pool forward and backward — which must
 * give the same bytes with 1, 2 and 3 threads (a range that wrote outside
 * its own outputs, as a first Winograd split did, shows up as a difference
 * or as run-to-run noise). The pool itself: test-parallel-for.c. */
#include <cblas.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static void
test_num_threads (void)
{
  gnn_set_num_threads (3);
  g_assert_cmpuint (gnn_get_num_threads (), ==, 3);
  /* OpenBLAS follows, like torch.set_num_threads and MKL/OpenMP */
  g_assert_cmpint (openblas_get_num_threads (), ==, 3);
  gnn_set_num_threads (1);
  g_assert_cmpuint (gnn_get_num_threads (), ==, 1);
  g_assert_cmpint (openblas_get_num_threads (), ==, 1);

  if (g_test_undefined ())
    {
      g_test_expect_message ("Gnn", G_LOG_LEVEL_CRITICAL, "*n >= 1*");
      gnn_set_num_threads (0);
      g_test_assert_expected_messages ();
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

/* The outputs and gradients of conv (3×3 Winograd-sized and a 5×5 im2col
 * one, with bias) → relu → max_pool 2×2 → sum, as bytes. */
static GBytes *
conv_pool_results (guint threads)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (7);
  /* big enough that every split loop has several ranges */
  gint64 xs[] = { 40, 32, 15, 13 }, w3[] = { 32, 32, 3, 3 }, w5[] = { 8, 32, 5, 5 }, bs[] = { 8 };
  g_autoptr (GnnTensor) x = random_tensor (rng, xs, 4);
  g_autoptr (GnnTensor) wa = random_tensor (rng, w3, 4);
  g_autoptr (GnnTensor) wb = random_tensor (rng, w5, 4);
  g_autoptr (GnnTensor) b = random_tensor (rng, bs, 1);
  g_autoptr (GnnTensor) h1 = NULL, h2 = NULL, r = NULL, p = NULL, loss = NULL;
  g_autoptr (GError) error = NULL;
  GByteArray *all = g_byte_array_new ();
  GnnTensor *parts[6];

  gnn_set_num_threads (threads);
  /* OpenBLAS's own threads may split a GEMM's sums differently (measured:
   * the bytes differ at 2 threads); this test is about Gnn's splits */
  openblas_set_num_threads (1);
  h1 = gnn_tensor_conv2d (x, wa, NULL, 1, 1, 1, 1, 1, 1, 1, &error);
  g_assert_no_error (error);
  h2 = gnn_tensor_conv2d (h1, wb, b, 1, 1, 2, 2, 1, 1, 1, &error);
  g_assert_no_error (error);
  r = gnn_tensor_relu (h2, &error);
  p = gnn_tensor_max_pool2d (r, 2, 2, 0, 0, 0, 0, 1, 1, FALSE, &error);
  g_assert_no_error (error);
  loss = gnn_tensor_sum (p, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);

  parts[0] = h2, parts[1] = p;
  parts[2] = gnn_tensor_get_grad (x), parts[3] = gnn_tensor_get_grad (wa);
  parts[4] = gnn_tensor_get_grad (wb), parts[5] = gnn_tensor_get_grad (b);
  for (gsize i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_autoptr (GnnTensor) c = gnn_tensor_contiguous (parts[i]);

      g_assert_nonnull (gnn_tensor_get_data (c));
      g_byte_array_append (all, gnn_tensor_get_data (c), (guint) gnn_tensor_get_nbytes (c));
    }
  return g_byte_array_free_to_bytes (all);
}

static void
test_kernels_same_bytes (void)
{
  g_autoptr (GBytes) one = conv_pool_results (1);

  for (guint threads = 2; threads <= 3; threads++)
    for (gint round = 0; round < 3; round++)
      {
        g_autoptr (GBytes) many = conv_pool_results (threads);

        g_assert_true (g_bytes_equal (one, many));
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/num-threads", test_num_threads);
  g_test_add_func ("/parallel/kernels-same-bytes", test_kernels_same_bytes);
  return g_test_run ();
}
