/* test-tensor-sample.c: multinomial and bernoulli — draws forced by the
 * weights, without-replacement draws distinct, frequencies near the
 * weights, repeatability from a seeded generator, the zero-gradient nodes,
 * torch's messages.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "gnn-test-util.h"

static GnnTensor *
floats (const float *v, gsize n, const gint64 *shape, guint ndim)
{
  return gnn_tensor_new_from_floats (v, n, shape, ndim, NULL);
}

static void
test_multinomial (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (7);
  g_autoptr(GnnTensor) rows = floats ((float[]) { 0, 0, 1, 3, 0, 0 }, 6, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) forced = gnn_tensor_multinomial (rows, 4, TRUE, gen, &error);
  g_autoptr(GnnTensor) six = floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6, (gint64[]) { 6 }, 1);
  g_autoptr(GnnTensor) perm = gnn_tensor_multinomial (six, 6, FALSE, gen, &error);
  g_autoptr(GnnTensor) coin = floats ((float[]) { 1, 3 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) many = gnn_tensor_multinomial (coin, 8000, TRUE, gen, &error);
  const gint64 *f, *p, *m;
  gboolean seen[6] = { FALSE, };
  gint64 ones = 0;

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (forced), ==, GNN_DTYPE_I64);
  f = gnn_tensor_get_data (forced);
  for (gint i = 0; i < 4; i++)
    {
      g_assert_cmpint (f[i], ==, 2);
      g_assert_cmpint (f[4 + i], ==, 0);
    }
  p = gnn_tensor_get_data (perm);
  for (gint i = 0; i < 6; i++)
    {
      g_assert_false (seen[p[i]]);
      seen[p[i]] = TRUE;
    }
  m = gnn_tensor_get_data (many);
  for (gint i = 0; i < 8000; i++)
    ones += m[i];
  g_assert_cmpfloat (fabs (ones / 8000.0 - 0.75), <, 0.03);
}

static void
test_repeatable (void)
{
  g_autoptr(GnnGenerator) a = gnn_generator_new (11);
  g_autoptr(GnnGenerator) b = gnn_generator_new (11);
  g_autoptr(GnnTensor) w = gnn_tensor_ones ((gint64[]) { 50 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_multinomial (w, 20, FALSE, a, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_multinomial (w, 20, FALSE, b, NULL);

  g_assert_cmpmem (gnn_tensor_get_data (x), 20 * sizeof (gint64),
                   gnn_tensor_get_data (y), 20 * sizeof (gint64));
}

static void
test_bernoulli (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnTensor) p = floats ((float[]) { 0, 1, 1, 0 }, 4, (gint64[]) { 4 }, 1);
  g_autoptr(GnnTensor) draws = NULL;
  g_autoptr(GnnTensor) half = gnn_tensor_full ((gint64[]) { 4 }, 1, 0.5, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) sampled = NULL;
  g_autoptr(GnnTensor) weighted = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autoptr(GnnTensor) grad_sum = NULL;
  GnnTensor *grad;
  g_autoptr(GnnTensor) big = gnn_tensor_zeros ((gint64[]) { 20000 }, 1, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) mean = NULL;
  const float *d;

  draws = gnn_tensor_bernoulli (p, gen, &error);
  g_assert_no_error (error);
  d = gnn_tensor_get_data (draws);
  g_assert_cmpfloat (d[0], ==, 0);
  g_assert_cmpfloat (d[1], ==, 1);
  g_assert_cmpfloat (d[2], ==, 1);
  g_assert_cmpfloat (d[3], ==, 0);

  /* in the graph: BernoulliBackward0, a zero gradient */
  gnn_tensor_set_requires_grad (half, TRUE);
  sampled = gnn_tensor_bernoulli (half, gen, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (sampled), ==, "BernoulliBackward0");
  weighted = gnn_tensor_mul_scalar (sampled, 2, &error);
  loss = gnn_tensor_sum (weighted, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  grad = gnn_tensor_get_grad (half);
  g_assert_nonnull (grad);
  grad_sum = gnn_tensor_sum (grad, NULL, 0, FALSE, NULL);
  g_assert_cmpfloat (gnn_tensor_item (grad_sum, NULL), ==, 0);

  g_assert_true (gnn_tensor_bernoulli_ (big, 0.3, gen, &error));
  mean = gnn_tensor_mean (big, NULL, 0, FALSE, &error);
  g_assert_cmpfloat (fabs (gnn_tensor_item (mean, NULL) - 0.3), <, 0.02);
}

/* torch's messages. */
static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) cube = gnn_tensor_ones ((gint64[]) { 2, 2, 2 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) ints = gnn_tensor_ones ((gint64[]) { 2 }, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) two = gnn_tensor_ones ((gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) bad = floats ((float[]) { -1, 1 }, 2, (gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) zero = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) big = floats ((float[]) { 1.5f }, 1, (gint64[]) { 1 }, 1);

  g_assert_null (gnn_tensor_multinomial (cube, 1, TRUE, NULL, &error));
  g_assert_cmpstr (error->message, ==, "prob_dist must be 1 or 2 dim");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_multinomial (ints, 1, TRUE, NULL, &error));
  g_assert_cmpstr (error->message, ==, "multinomial only supports floating-point dtypes for "
                   "input, got: Long");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_multinomial (two, 3, FALSE, NULL, &error));
  g_assert_cmpstr (error->message, ==, "cannot sample n_sample > prob_dist.size(-1) samples "
                   "without replacement");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_multinomial (bad, 1, TRUE, NULL, &error));
  g_assert_cmpstr (error->message, ==, "probability tensor contains either `inf`, `nan` or "
                   "element < 0");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_multinomial (zero, 1, TRUE, NULL, &error));
  g_assert_cmpstr (error->message, ==, "invalid multinomial distribution (sum of probabilities "
                   "<= 0)");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bernoulli (big, NULL, &error));
  g_assert_true (g_str_has_prefix (error->message, "Expected p_in >= 0 && p_in <= 1"));
  g_clear_error (&error);
  g_assert_false (gnn_tensor_bernoulli_ (two, 2, NULL, &error));
  g_assert_cmpstr (error->message, ==, "bernoulli_ expects p to be in [0, 1], but got p=2");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/sample/multinomial", test_multinomial);
  g_test_add_func ("/tensor/sample/repeatable", test_repeatable);
  g_test_add_func ("/tensor/sample/bernoulli", test_bernoulli);
  g_test_add_func ("/tensor/sample/errors", test_errors);
  return g_test_run ();
}
