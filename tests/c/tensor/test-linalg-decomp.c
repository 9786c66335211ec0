/* torch.linalg's qr, eigh, svd, lstsq, matrix norms and det's gradient at
 * a singular matrix from C. Expected numbers come from torch 1.13 on the
 * same inputs (float64). */
#include <math.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static GnnTensor *
matrix (const double *values,
        gint64        rows,
        gint64        cols)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_new_from_doubles (values, rows * cols, (gint64[]) { rows, cols }, 2,
                                              &error);

  g_assert_no_error (error);
  return t;
}

static const double a32[] = { 1, 2, 3, 4, 5, 6 };   /* [[1, 2], [3, 4], [5, 6]] */

static void
test_svdvals_and_gradient (void)
{
  g_autoptr(GnnTensor) a = matrix (a32, 3, 2);
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) total = NULL;
  g_autoptr(GError) error = NULL;
  static const double want_s[] = { 9.52551809156511, 0.5143005806586441 };
  static const double want_grad[] = { -0.5510032429894985, 0.7278246763805066, 0.13615851867190826,
                                      0.5610652289408111, 0.8233202803333143, 0.3943057815011161 };

  gnn_tensor_set_requires_grad (a, TRUE);
  s = gnn_tensor_linalg_svdvals (a, &error);
  g_assert_no_error (error);
  gnn_test_assert_values (s, want_s, 2, 1e-12);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (s), ==, "LinalgSvdBackward0");
  total = gnn_tensor_sum (s, NULL, 0, FALSE, &error);     /* the nuclear norm */
  g_assert_true (gnn_tensor_backward (total, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_values (gnn_tensor_get_grad (a), want_grad, 6, 1e-12);
}

static void
test_svd_reconstructs (void)
{
  g_autoptr(GnnTensor) a = matrix (a32, 3, 2);
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) vh = NULL;
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) us = NULL;
  g_autoptr(GnnTensor) back = NULL;
  g_autoptr(GError) error = NULL;

  u = gnn_tensor_linalg_svd (a, FALSE, &s, &vh, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (u, (gint64[]) { 3, 2 }, 2);
  gnn_test_assert_shape (vh, (gint64[]) { 2, 2 }, 2);
  d = gnn_tensor_diag_embed (s, 0, -2, -1, &error);
  us = gnn_tensor_matmul (u, d, &error);
  back = gnn_tensor_matmul (us, vh, &error);
  g_assert_no_error (error);
  gnn_test_assert_values (back, a32, 6, 1e-12);
}

static void
test_matrix_norms (void)
{
  g_autoptr(GnnTensor) a = matrix (a32, 3, 2);
  static const struct { const char *ord; double want; } cases[] = {
    { "fro", 9.539392014169456 }, { "nuc", 10.039818672223753 }, { "2", 9.52551809156511 },
    { "-2", 0.5143005806586441 }, { "1", 12.0 }, { "-1", 9.0 }, { "inf", 11.0 },
    { "-inf", 3.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) n = gnn_tensor_linalg_matrix_norm (a, cases[i].ord, -2, -1, FALSE,
                                                               &error);

      g_assert_no_error (error);
      gnn_test_assert_values (n, &cases[i].want, 1, 1e-12);
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnTensor) n = gnn_tensor_linalg_matrix_norm (a, "3", -2, -1, FALSE, &error);

    g_assert_null (n);
    g_assert_cmpstr (error->message, ==, "linalg.matrix_norm: Order 3 not supported.");
  }
}

static void
test_eigh_gradient (void)
{
  static const double b[] = { 2, 1, 1, 2 };
  static const double want_l[] = { 1, 3 }, weights[] = { 1, 2 };
  static const double want_grad[] = { 1.5, 0.5, 0.5, 1.5 };
  g_autoptr(GnnTensor) a = matrix (b, 2, 2);
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) l = NULL;
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnTensor) lw = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autoptr(GError) error = NULL;

  gnn_tensor_set_requires_grad (a, TRUE);
  l = gnn_tensor_linalg_eigh (a, NULL, &v, &error);
  g_assert_no_error (error);
  gnn_test_assert_values (l, want_l, 2, 1e-12);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (v), ==, "LinalgEighBackward0");
  w = gnn_tensor_new_from_doubles (weights, 2, (gint64[]) { 2 }, 1, &error);
  lw = gnn_tensor_mul (l, w, &error);
  loss = gnn_tensor_sum (lw, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  gnn_test_assert_values (gnn_tensor_get_grad (a), want_grad, 4, 1e-12);
}

static void
test_qr (void)
{
  static const double want_r[] = { -5.916079783099616, -7.437357441610946, 0.0, 0.8280786712108248 };
  static const double want_grad[] = { -1.7786057448846968, 0.7280543761993574, -1.0023463663567997,
                                      -0.2310663291001684, -0.2260869878289028, -1.190187034399694 };
  g_autoptr(GnnTensor) a = matrix (a32, 3, 2);
  g_autoptr(GnnTensor) r = NULL;
  g_autoptr(GnnTensor) q = NULL;
  g_autoptr(GnnTensor) sq = NULL;
  g_autoptr(GnnTensor) sr = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autoptr(GError) error = NULL;

  gnn_tensor_set_requires_grad (a, TRUE);
  q = gnn_tensor_linalg_qr (a, NULL, &r, &error);
  g_assert_no_error (error);
  gnn_test_assert_values (r, want_r, 4, 1e-12);
  sq = gnn_tensor_sum (q, NULL, 0, FALSE, &error);
  sr = gnn_tensor_sum (r, NULL, 0, FALSE, &error);
  loss = gnn_tensor_add (sq, sr, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_values (gnn_tensor_get_grad (a), want_grad, 6, 1e-12);
}

static void
test_lstsq (void)
{
  static const double bv[] = { 1, 2, 2 };
  static const double want_x[] = { -0.6666666666666667, 0.9166666666666669 };
  static const double want_res[] = { 0.16666666666666666 };
  g_autoptr(GnnTensor) a = matrix (a32, 3, 2);
  g_autoptr(GnnTensor) b = gnn_tensor_new_from_doubles (bv, 3, (gint64[]) { 3 }, 1, NULL);
  g_autoptr(GnnTensor) res = NULL;
  g_autoptr(GnnTensor) rank = NULL;
  g_autoptr(GnnTensor) sv = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GError) error = NULL;

  x = gnn_tensor_linalg_lstsq (a, b, -1, "gelsd", &res, &rank, &sv, &error);
  g_assert_no_error (error);
  gnn_test_assert_values (x, want_x, 2, 1e-12);
  gnn_test_assert_values (res, want_res, 1, 1e-12);
  g_assert_cmpint (gnn_tensor_get_dtype (rank), ==, GNN_DTYPE_I64);
  g_assert_cmpfloat (gnn_tensor_item (rank, NULL), ==, 2);
  g_clear_object (&x);
  g_clear_object (&res);
  x = gnn_tensor_linalg_lstsq (a, b, -1, "bad", NULL, NULL, NULL, &error);
  g_assert_null (x);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

/* torch 1.13's plain backward of det at an exactly singular matrix: zeros;
 * a regular matrix of the same batch keeps its cofactors. */
static void
test_det_singular_gradient (void)
{
  static const double m[] = { 1, 2, 2, 4, 1, 2, 3, 4 };
  static const double want[] = { 0, 0, 0, 0, 4, -3, -2, 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_new_from_doubles (m, 8, (gint64[]) { 2, 2, 2 }, 3, &error);
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) total = NULL;

  gnn_tensor_set_requires_grad (a, TRUE);
  d = gnn_tensor_linalg_det (a, &error);
  total = gnn_tensor_sum (d, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (total, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_values (gnn_tensor_get_grad (a), want, 8, 1e-12);
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) rect = gnn_tensor_ones ((gint64[]) { 4, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) none = gnn_tensor_linalg_eigh (rect, NULL, NULL, &error);

  g_assert_null (none);
  g_assert_cmpstr (error->message, ==,
                   "linalg.eigh: A must be batches of square matrices, but they are 4 by 3 matrices");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_linalg_qr (rect, "x", NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/linalg/svdvals-gradient", test_svdvals_and_gradient);
  g_test_add_func ("/linalg/svd-reconstructs", test_svd_reconstructs);
  g_test_add_func ("/linalg/matrix-norms", test_matrix_norms);
  g_test_add_func ("/linalg/eigh-gradient", test_eigh_gradient);
  g_test_add_func ("/linalg/qr", test_qr);
  g_test_add_func ("/linalg/lstsq", test_lstsq);
  g_test_add_func ("/linalg/det-singular-gradient", test_det_singular_gradient);
  g_test_add_func ("/linalg/errors", test_errors);
  return g_test_run ();
}
