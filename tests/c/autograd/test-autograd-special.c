/* test-autograd-special.c: values and gradient checks of torch's special
 * functions (erfc, erfinv, lgamma, digamma, logit), nan_to_num, hypot,
 * fmax / fmin, the in-place comparisons, cummax / cummin, logcumsumexp and
 * mode
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <float.h>

#include "gnn-test-util.h"
#include "gradcheck-util.h"

#define E error

/* a x + b, recorded: maps the test inputs into an op's domain */
static GnnTensor *
affine (GnnTensor *x,
        double     a,
        double     b,
        GError   **error)
{
  g_autoptr(GnnTensor) scaled = gnn_tensor_mul_scalar (x, a, error);

  return scaled != NULL ? gnn_tensor_add_scalar (scaled, b, error) : NULL;
}

static GnnTensor *b_erfc (GnnTensor **in, GError **E) { return gnn_tensor_erfc (in[0], E); }
static GnnTensor *b_lgamma (GnnTensor **in, GError **E) { return gnn_tensor_lgamma (in[0], E); }
static GnnTensor *b_digamma (GnnTensor **in, GError **E) { return gnn_tensor_digamma (in[0], E); }
static GnnTensor *b_hypot (GnnTensor **in, GError **E) { return gnn_tensor_hypot (in[0], in[1], E); }
static GnnTensor *b_fmax (GnnTensor **in, GError **E) { return gnn_tensor_fmax (in[0], in[1], E); }
static GnnTensor *b_fmin (GnnTensor **in, GError **E) { return gnn_tensor_fmin (in[0], in[1], E); }
static GnnTensor *
b_nan_to_num (GnnTensor **in, GError **E)
{
  return gnn_tensor_nan_to_num (in[0], 0.0, NAN, NAN, E);
}
static GnnTensor *
b_erfinv (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) x = affine (in[0], 0.9, 0.0, E);

  return x != NULL ? gnn_tensor_erfinv (x, E) : NULL;
}
static GnnTensor *
b_logit (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) x = affine (in[0], 0.4, 0.5, E);

  return x != NULL ? gnn_tensor_logit (x, -1.0, E) : NULL;
}
static GnnTensor *
b_logit_eps (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) x = affine (in[0], 0.4, 0.5, E);

  return x != NULL ? gnn_tensor_logit (x, 0.2, E) : NULL;
}
static GnnTensor *
b_digamma_ (GnnTensor **in, GError **E)
{
  GnnTensor *t = gnn_tensor_clone (in[0]);

  if (!gnn_tensor_digamma_ (t, E))
    g_clear_object (&t);
  return t;
}
static GnnTensor *
b_cummax (GnnTensor **in, GError **E)
{
  return gnn_tensor_cummax (in[0], 1, NULL, E);
}
static GnnTensor *
b_cummin (GnnTensor **in, GError **E)
{
  return gnn_tensor_cummin (in[0], 0, NULL, E);
}
static GnnTensor *
b_logcumsumexp (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) x = affine (in[0], 20.0, 0.0, E);

  return x != NULL ? gnn_tensor_logcumsumexp (x, -1, E) : NULL;
}
static GnnTensor *
b_mode (GnnTensor **in, GError **E)
{
  return gnn_tensor_mode (in[0], 0, TRUE, NULL, E);
}
#undef E

static const Case cases[] = {
  { "cummax", b_cummax, 1, { { 3, 5 } }, { 2 }, { 0 } },
  { "cummin", b_cummin, 1, { { 4, 3 } }, { 2 }, { 0 } },
  { "logcumsumexp", b_logcumsumexp, 1, { { 3, 6 } }, { 2 }, { 0 } },
  { "mode", b_mode, 1, { { 4, 3 } }, { 2 }, { 0 } },
  { "erfc", b_erfc, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "erfinv", b_erfinv, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "lgamma", b_lgamma, 1, { { 3, 4 } }, { 2 }, { 2 } },
  { "digamma", b_digamma, 1, { { 3, 4 } }, { 2 }, { 2 } },
  { "digamma-negative", b_digamma, 1, { { 7 } }, { 1 }, { -2.5 } },
  { "inplace/digamma_", b_digamma_, 1, { { 5 } }, { 1 }, { 3 } },
  { "logit", b_logit, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "logit-eps", b_logit_eps, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "nan-to-num", b_nan_to_num, 1, { { 6 } }, { 1 }, { 0 } },
  { "hypot", b_hypot, 2, { { 2, 3 }, { 3 } }, { 2, 1 }, { 0, 0 } },
  { "fmax", b_fmax, 2, { { 2, 3 }, { 3 } }, { 2, 1 }, { 0, 0 } },
  { "fmin", b_fmin, 2, { { 2, 3 }, { 2, 3 } }, { 2, 2 }, { 0, 0 } },
};

static GnnTensor *
doubles (const double *v,
         gint64        n)
{
  return gnn_tensor_new_from_doubles (v, n, &n, 1, NULL);
}

/* Known values (digamma (1) = -γ, lgamma (1/2) = log √π, erfinv (1/2)). */
static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = doubles ((double[]) { 1.0, 0.5, -1.5 }, 3);
  g_autoptr(GnnTensor) half = doubles ((double[]) { 0.5, -1.0, 1.0, 2.0 }, 4);
  g_autoptr(GnnTensor) dg = gnn_tensor_digamma (x, &error);
  g_autoptr(GnnTensor) lg = gnn_tensor_lgamma (x, &error);
  g_autoptr(GnnTensor) ei = gnn_tensor_erfinv (half, &error);
  g_autoptr(GnnTensor) ec = gnn_tensor_erfc (x, &error);
  g_autofree double *e = NULL;

  g_assert_no_error (error);
  gnn_test_assert_values (dg, (double[]) { -0.57721566490153286, -1.9635100260214235,
                                           0.70315664064524319 }, 3, 1e-12);
  gnn_test_assert_values (lg, (double[]) { 0.0, 0.57236494292470008, 0.86004701537648098 },
                          3, 1e-12);
  gnn_test_assert_values (ec, (double[]) { 0.15729920705028513, 0.47950012218695346,
                                           1.9661051464753108 }, 3, 1e-12);
  e = gnn_tensor_to_doubles (ei, NULL);
  g_assert_cmpfloat_with_epsilon (e[0], 0.47693627620446987, 1e-12);
  g_assert_true (isinf (e[1]) && e[1] < 0);
  g_assert_true (isinf (e[2]) && e[2] > 0);
  g_assert_true (isnan (e[3]));
}

static void
test_digamma_poles (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = doubles ((double[]) { 0.0, -0.0, -2.0 }, 3);
  g_autoptr(GnnTensor) d = gnn_tensor_digamma (x, &error);
  g_autofree double *v = gnn_tensor_to_doubles (d, NULL);

  g_assert_true (isinf (v[0]) && v[0] < 0);
  g_assert_true (isinf (v[1]) && v[1] > 0);
  g_assert_true (isnan (v[2]));
}

static void
test_nan_to_num (void)
{
  g_autoptr(GError) error = NULL;
  float in[] = { 1.5f, NAN, INFINITY, -INFINITY };
  gint64 n = 4;
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats (in, n, &n, 1, NULL);
  g_autoptr(GnnTensor) dflt = gnn_tensor_nan_to_num (x, 0.0, NAN, NAN, &error);
  g_autoptr(GnnTensor) set = gnn_tensor_nan_to_num (x, -1.0, 7.0, -7.0, &error);

  g_assert_no_error (error);
  gnn_test_assert_values (dflt, (double[]) { 1.5, 0.0, FLT_MAX, -FLT_MAX }, 4, 0);
  gnn_test_assert_values (set, (double[]) { 1.5, -1.0, 7.0, -7.0 }, 4, 0);
  g_assert_true (gnn_tensor_nan_to_num_ (x, 2.0, 3.0, 4.0, &error));
  gnn_test_assert_values (x, (double[]) { 1.5, 2.0, 3.0, 4.0 }, 4, 0);
}

static void
test_fmax_nan (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = doubles ((double[]) { 1.0, NAN, NAN, 4.0 }, 4);
  g_autoptr(GnnTensor) b = doubles ((double[]) { NAN, 2.0, NAN, 3.0 }, 4);
  g_autoptr(GnnTensor) hi = gnn_tensor_fmax (a, b, &error);
  g_autoptr(GnnTensor) lo = gnn_tensor_fmin (a, b, &error);
  g_autofree double *h = gnn_tensor_to_doubles (hi, NULL);
  g_autofree double *l = gnn_tensor_to_doubles (lo, NULL);

  g_assert_no_error (error);
  g_assert_cmpfloat (h[0], ==, 1.0);
  g_assert_cmpfloat (h[1], ==, 2.0);
  g_assert_true (isnan (h[2]));
  g_assert_cmpfloat (h[3], ==, 4.0);
  g_assert_cmpfloat (l[3], ==, 3.0);
}

static void
test_hypot_refuses_integers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_ones ((gint64[]) { 2 }, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) r = gnn_tensor_hypot (a, a, &error);

  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==, "\"hypot_cpu\" not implemented for 'Long'");
}

/* eq_ and the others write 1/0 in self's dtype; gradients are zero. */
static void
test_compare_inplace (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) leaf = doubles ((double[]) { 1.0, 2.0, 3.0 }, 3);
  g_autoptr(GnnTensor) two = gnn_tensor_new_wrapped_number (2.0);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) z = NULL;
  g_autoptr(GnnTensor) s = NULL;
  gboolean (*ops[]) (GnnTensor *, GnnTensor *, GError **) = {
    gnn_tensor_eq_, gnn_tensor_ne_, gnn_tensor_lt_, gnn_tensor_le_, gnn_tensor_gt_, gnn_tensor_ge_,
  };
  const double expect[][3] = { { 0, 1, 0 }, { 1, 0, 1 }, { 1, 0, 0 }, { 1, 1, 0 },
                               { 0, 0, 1 }, { 0, 1, 1 } };

  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      g_autoptr(GnnTensor) t = gnn_tensor_clone (leaf);

      g_assert_true (ops[k] (t, two, &error));
      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_F64);
      gnn_test_assert_values (t, expect[k], 3, 0);
    }
  gnn_tensor_set_requires_grad (leaf, TRUE);
  /* a leaf requiring grad cannot change in place */
  g_assert_false (gnn_tensor_eq_ (leaf, two, &error));
  g_clear_error (&error);
  y = gnn_tensor_mul_scalar (leaf, 1.0, &error);
  g_assert_true (gnn_tensor_ge_ (y, two, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "GeBackward0");
  z = gnn_tensor_mul_scalar (leaf, 1.0, &error);
  g_assert_true (gnn_tensor_lt_ (z, leaf, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (z), ==, "LtBackward1");
  s = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_values (gnn_tensor_get_grad (leaf), (double[]) { 0, 0, 0 }, 3, 0);
}

static void
test_node_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 2);
  g_autoptr(GnnTensor) a = gnn_tensor_erfc (x, &error);
  g_autoptr(GnnTensor) b = gnn_tensor_lgamma (x, &error);
  g_autoptr(GnnTensor) c = gnn_tensor_nan_to_num (x, 0, NAN, NAN, &error);
  g_autoptr(GnnTensor) d = gnn_tensor_fmin (x, x, &error);
  g_autoptr(GnnTensor) h = gnn_tensor_hypot (x, x, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (a), ==, "ErfcBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (b), ==, "LgammaBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (c), ==, "NanToNumBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (d), ==, "FminBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (h), ==, "HypotBackward0");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/autograd/special/%s", cases[i].path);

      g_test_add_data_func (path, &cases[i], test_gradcheck);
    }
  g_test_add_func ("/autograd/special/values", test_values);
  g_test_add_func ("/autograd/special/digamma-poles", test_digamma_poles);
  g_test_add_func ("/autograd/special/nan-to-num-values", test_nan_to_num);
  g_test_add_func ("/autograd/special/fmax-nan", test_fmax_nan);
  g_test_add_func ("/autograd/special/hypot-refuses-integers", test_hypot_refuses_integers);
  g_test_add_func ("/autograd/special/compare-inplace", test_compare_inplace);
  g_test_add_func ("/autograd/special/node-names", test_node_names);
  return g_test_run ();
}
