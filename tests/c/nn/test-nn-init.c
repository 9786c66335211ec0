/* nn.init: gains and fans (PyTorch's numbers), the deterministic fills
 * exactly, orthogonal_'s orthogonality, the random fills' bounds and
 * moments with a fixed generator, the fill outside autograd, errors. */
#include <math.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"

static GnnTensor *
zeros (const gint64 *shape,
       guint         ndim)
{
  return gnn_tensor_zeros (shape, ndim, GNN_DTYPE_F32, NULL);
}

static void
test_gains (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpfloat (gnn_init_calculate_gain ("conv_transpose2d", NAN, NULL), ==, 1.0);
  g_assert_cmpfloat (gnn_init_calculate_gain ("sigmoid", NAN, NULL), ==, 1.0);
  g_assert_cmpfloat (gnn_init_calculate_gain ("tanh", NAN, NULL), ==, 5.0 / 3);
  g_assert_cmpfloat (gnn_init_calculate_gain ("relu", NAN, NULL), ==, sqrt (2.0));
  g_assert_cmpfloat (gnn_init_calculate_gain ("leaky_relu", NAN, NULL), ==, sqrt (2.0 / 1.0001));
  g_assert_cmpfloat (gnn_init_calculate_gain ("leaky_relu", 0.2, NULL), ==, sqrt (2.0 / 1.04));
  g_assert_cmpfloat (gnn_init_calculate_gain ("selu", NAN, NULL), ==, 0.75);
  g_assert_cmpfloat (gnn_init_calculate_gain ("gelu", NAN, &error), ==, 0);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Unsupported nonlinearity gelu");
}

static void
test_fans (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) conv = zeros ((const gint64[]) { 8, 3, 5, 2 }, 4);
  g_autoptr(GnnTensor) vec = zeros ((const gint64[]) { 8 }, 1);
  gint64 fan_in = 0, fan_out = 0;

  g_assert_true (gnn_init_calculate_fan_in_and_fan_out (conv, &fan_in, &fan_out, &error));
  g_assert_cmpint (fan_in, ==, 30);
  g_assert_cmpint (fan_out, ==, 80);
  g_assert_false (gnn_init_calculate_fan_in_and_fan_out (vec, &fan_in, &fan_out, &error));
  g_assert_cmpstr (error->message, ==, "Fan in and fan out can not be computed for tensor with "
                   "fewer than 2 dimensions");
}

static void
test_eye_dirac (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) e = zeros ((const gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) d = zeros ((const gint64[]) { 4, 2, 3 }, 3);
  g_autoptr(GnnTensor) bad = zeros ((const gint64[]) { 3, 2, 3 }, 3);
  const double eye[] = { 1, 0, 0, 0, 1, 0 };
  /* groups 2: out channels 0, 1 then 2, 3 take input channels 0, 1 */
  const double dirac[] = { 0, 1, 0, 0, 0, 0,  0, 0, 0, 0, 1, 0,
                           0, 1, 0, 0, 0, 0,  0, 0, 0, 0, 1, 0 };

  g_assert_true (gnn_init_eye_ (e, &error));
  gnn_test_assert_values (e, eye, 6, 0);
  g_assert_true (gnn_init_dirac_ (d, 2, &error));
  gnn_test_assert_values (d, dirac, 24, 0);
  g_assert_false (gnn_init_dirac_ (bad, 2, &error));
  g_assert_cmpstr (error->message, ==, "dim 0 must be divisible by groups");
  g_clear_error (&error);
  g_assert_false (gnn_init_eye_ (d, &error));
  g_assert_cmpstr (error->message, ==, "Only tensors with 2 dimensions are supported");
}

/* W Wᵀ (or Wᵀ W, the smaller) is gain² I. */
static void
test_orthogonal (void)
{
  const gint64 shapes[][3] = { { 6, 4, 1 }, { 3, 8, 1 }, { 4, 2, 3 } };
  g_autoptr(GnnGenerator) gen = gnn_generator_new (7);

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) w = zeros (shapes[s], 3);
      g_autofree double *v = NULL;
      gint64 rows = shapes[s][0], cols = shapes[s][1] * shapes[s][2];
      gboolean by_rows = rows <= cols;
      gint64 k = by_rows ? rows : cols;

      g_assert_true (gnn_init_orthogonal_ (w, 2.0, gen, &error));
      v = gnn_tensor_to_doubles (w, NULL);
      for (gint64 i = 0; i < k; i++)
        for (gint64 j = 0; j < k; j++)
          {
            double dot = 0;

            for (gint64 l = 0; l < (by_rows ? cols : rows); l++)
              dot += by_rows ? v[i * cols + l] * v[j * cols + l] : v[l * cols + i] * v[l * cols + j];
            g_assert_cmpfloat_with_epsilon (dot, i == j ? 4.0 : 0.0, 1e-5);
          }
    }
}

/* mean, standard deviation, smallest and largest element of @t */
static void
moments (GnnTensor *t,
         double    *mean,
         double    *std,
         double    *lo,
         double    *hi)
{
  gsize n = 0;
  g_autofree double *v = gnn_tensor_to_doubles (t, &n);
  double s = 0, s2 = 0;

  *lo = INFINITY, *hi = -INFINITY;
  for (gsize i = 0; i < n; i++)
    {
      s += v[i], s2 += v[i] * v[i];
      *lo = MIN (*lo, v[i]), *hi = MAX (*hi, v[i]);
    }
  *mean = s / (double) n;
  *std = sqrt (s2 / (double) n - *mean * *mean);
}

static void
test_random_fills (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (11);
  const gint64 shape[2] = { 256, 128 };
  g_autoptr(GnnTensor) ku = zeros (shape, 2);
  g_autoptr(GnnTensor) kn = zeros (shape, 2);
  g_autoptr(GnnTensor) xu = zeros (shape, 2);
  g_autoptr(GnnTensor) tn = zeros (shape, 2);
  g_autoptr(GnnTensor) sp = zeros ((const gint64[]) { 10, 200 }, 2);
  double mean, std, lo, hi, bound;
  g_autofree double *s = NULL;

  /* kaiming_uniform_ (a=√5, fan_in): bound 1 / √fan_in */
  g_assert_true (gnn_init_kaiming_uniform_ (ku, sqrt (5.0), "fan_in", "leaky_relu", gen, &error));
  bound = 1 / sqrt (128.0);
  moments (ku, &mean, &std, &lo, &hi);
  g_assert_cmpfloat (hi, <=, bound);
  g_assert_cmpfloat (lo, >=, -bound);
  g_assert_cmpfloat_with_epsilon (std, bound / sqrt (3.0), 0.01 * bound);
  /* kaiming_normal_ (relu, fan_out): std √2 / √256 */
  g_assert_true (gnn_init_kaiming_normal_ (kn, 0, "fan_out", "relu", gen, &error));
  moments (kn, &mean, &std, &lo, &hi);
  g_assert_cmpfloat_with_epsilon (mean, 0, 0.002);
  g_assert_cmpfloat_with_epsilon (std, sqrt (2.0) / 16, 0.002);
  /* xavier_uniform_: bound gain √(6 / (fan_in + fan_out)) */
  g_assert_true (gnn_init_xavier_uniform_ (xu, 1.5, gen, &error));
  moments (xu, &mean, &std, &lo, &hi);
  g_assert_cmpfloat (hi, <=, 1.5 * sqrt (6.0 / 384));
  g_assert_cmpfloat (hi, >, 0.99 * 1.5 * sqrt (6.0 / 384));
  /* trunc_normal_ (0, 1, -0.5, 1.5): inside the cutoffs, the truncated mean */
  g_assert_true (gnn_init_trunc_normal_ (tn, 0.0, 1.0, -0.5, 1.5, gen, &error));
  moments (tn, &mean, &std, &lo, &hi);
  g_assert_cmpfloat (lo, >=, -0.5);
  g_assert_cmpfloat (hi, <=, 1.5);
  /* the truncated mean (φ(-0.5) - φ(1.5)) / (Φ(1.5) - Φ(-0.5)), within 5 standard errors */
  g_assert_cmpfloat_with_epsilon (mean, 0.35627, 0.015);
  /* sparse_: ⌈0.25 × 10⌉ = 3 zeros per column */
  g_assert_true (gnn_init_sparse_ (sp, 0.25, 0.5, gen, &error));
  s = gnn_tensor_to_doubles (sp, NULL);
  for (gint64 c = 0; c < 200; c++)
    {
      guint z = 0;

      for (gint64 r = 0; r < 10; r++)
        z += s[r * 200 + c] == 0;
      g_assert_cmpuint (z, ==, 3);
    }
  g_assert_no_error (error);
}

/* A parameter is filled in place, without autograd; the same generator
 * state gives the same values. */
static void
test_outside_autograd (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) z = zeros ((const gint64[]) { 4, 3 }, 2);
  g_autoptr(GnnParameter) p = gnn_parameter_new (z, TRUE);
  g_autoptr(GnnTensor) again = zeros ((const gint64[]) { 4, 3 }, 2);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);

  g_assert_true (gnn_init_xavier_normal_ (GNN_TENSOR (p), 1.0, gen, &error));
  g_assert_true (gnn_init_orthogonal_ (GNN_TENSOR (p), 1.0, gen, &error));
  g_assert_true (gnn_tensor_is_leaf (GNN_TENSOR (p)));
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (p)));
  gnn_generator_manual_seed (gen, 3);
  g_assert_true (gnn_init_xavier_normal_ (again, 1.0, gen, &error));
  g_assert_true (gnn_init_orthogonal_ (again, 1.0, gen, &error));
  g_assert_true (gnn_tensor_equal (GNN_TENSOR (p), again));
  g_assert_true (gnn_init_ones_ (GNN_TENSOR (p), &error));
  g_assert_cmpfloat (gnn_tensor_get_element (GNN_TENSOR (p), (const gint64[]) { 3, 2 }, 2, NULL),
                     ==, 1.0);
  g_assert_no_error (error);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) w = zeros ((const gint64[]) { 3, 2 }, 2);

  g_assert_false (gnn_init_kaiming_uniform_ (w, 0, "fan_middle", NULL, NULL, &error));
  g_assert_cmpstr (error->message, ==,
                   "Mode fan_middle not supported, please use one of ['fan_in', 'fan_out']");
  g_clear_error (&error);
  g_assert_false (gnn_init_kaiming_normal_ (w, 0, NULL, "gelu", NULL, &error));
  g_assert_cmpstr (error->message, ==, "Unsupported nonlinearity gelu");
  g_clear_error (&error);
  g_assert_false (gnn_init_sparse_ (w, 0.5, 0.01, NULL, NULL) && FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/init/gains", test_gains);
  g_test_add_func ("/nn/init/fans", test_fans);
  g_test_add_func ("/nn/init/eye-dirac", test_eye_dirac);
  g_test_add_func ("/nn/init/orthogonal", test_orthogonal);
  g_test_add_func ("/nn/init/random-fills", test_random_fills);
  g_test_add_func ("/nn/init/outside-autograd", test_outside_autograd);
  g_test_add_func ("/nn/init/errors", test_errors);
  return g_test_run ();
}
