/* test-autograd.c: gradient checks against central finite differences (in
 * float64) for every differentiable op, graph lifetime, grad mode, losses.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"

#include "gradcheck-util.h"

/* --- op table ------------------------------------------------------------- */

#define E error
static GnnTensor *b_add (GnnTensor **in, GError **E) { return gnn_tensor_add (in[0], in[1], E); }
static GnnTensor *b_sub (GnnTensor **in, GError **E) { return gnn_tensor_sub (in[0], in[1], E); }
static GnnTensor *b_mul (GnnTensor **in, GError **E) { return gnn_tensor_mul (in[0], in[1], E); }
static GnnTensor *b_div (GnnTensor **in, GError **E) { return gnn_tensor_div (in[0], in[1], E); }
static GnnTensor *b_add_scalar (GnnTensor **in, GError **E) { return gnn_tensor_add_scalar (in[0], 2.5, E); }
static GnnTensor *b_mul_scalar (GnnTensor **in, GError **E) { return gnn_tensor_mul_scalar (in[0], -1.5, E); }
static GnnTensor *b_pow3 (GnnTensor **in, GError **E) { return gnn_tensor_pow (in[0], 3.0, E); }
static GnnTensor *b_pow2 (GnnTensor **in, GError **E) { return gnn_tensor_pow (in[0], 2.0, E); }
static GnnTensor *b_powh (GnnTensor **in, GError **E) { return gnn_tensor_pow (in[0], 0.5, E); }
static GnnTensor *b_relu (GnnTensor **in, GError **E) { return gnn_tensor_relu (in[0], E); }
static GnnTensor *b_gelu (GnnTensor **in, GError **E) { return gnn_tensor_gelu (in[0], E); }
static GnnTensor *b_tanh (GnnTensor **in, GError **E) { return gnn_tensor_tanh (in[0], E); }
static GnnTensor *b_sigmoid (GnnTensor **in, GError **E) { return gnn_tensor_sigmoid (in[0], E); }
static GnnTensor *b_exp (GnnTensor **in, GError **E) { return gnn_tensor_exp (in[0], E); }
static GnnTensor *b_log (GnnTensor **in, GError **E) { return gnn_tensor_log (in[0], E); }
static GnnTensor *b_neg (GnnTensor **in, GError **E) { return gnn_tensor_neg (in[0], E); }
static GnnTensor *b_abs (GnnTensor **in, GError **E) { return gnn_tensor_abs (in[0], E); }
static GnnTensor *b_sqrt (GnnTensor **in, GError **E) { return gnn_tensor_sqrt (in[0], E); }
static GnnTensor *b_sum_all (GnnTensor **in, GError **E) { return gnn_tensor_sum (in[0], NULL, 0, FALSE, E); }
static GnnTensor *b_sum_dim (GnnTensor **in, GError **E) { return gnn_tensor_sum (in[0], (gint[]) { -1 }, 1, FALSE, E); }
static GnnTensor *b_sum_keep (GnnTensor **in, GError **E) { return gnn_tensor_sum (in[0], (gint[]) { 0, 2 }, 2, TRUE, E); }
static GnnTensor *b_mean_dim (GnnTensor **in, GError **E) { return gnn_tensor_mean (in[0], (gint[]) { 1 }, 1, FALSE, E); }
static GnnTensor *b_mean_all (GnnTensor **in, GError **E) { return gnn_tensor_mean (in[0], NULL, 0, FALSE, E); }
static GnnTensor *b_max_dim (GnnTensor **in, GError **E) { return gnn_tensor_max (in[0], (gint[]) { 1 }, 1, TRUE, E); }
static GnnTensor *b_min_all (GnnTensor **in, GError **E) { return gnn_tensor_min (in[0], NULL, 0, FALSE, E); }
static GnnTensor *b_softmax (GnnTensor **in, GError **E) { return gnn_tensor_softmax (in[0], 1, E); }
static GnnTensor *b_log_softmax (GnnTensor **in, GError **E) { return gnn_tensor_log_softmax (in[0], -1, E); }
static GnnTensor *b_matmul (GnnTensor **in, GError **E) { return gnn_tensor_matmul (in[0], in[1], E); }
static GnnTensor *b_cat (GnnTensor **in, GError **E) { return gnn_tensor_cat (in, 2, 1, E); }
static GnnTensor *b_stack (GnnTensor **in, GError **E) { return gnn_tensor_stack (in, 2, -1, E); }
static GnnTensor *b_reshape (GnnTensor **in, GError **E) { return gnn_tensor_reshape (in[0], SHAPE (3, -1), E); }
static GnnTensor *
b_reshape_t (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (in[0], 0, 1, E);
  return gnn_tensor_reshape (t, SHAPE (-1), E);
}
static GnnTensor *b_view (GnnTensor **in, GError **E) { return gnn_tensor_view (in[0], SHAPE (6, 2), E); }
static GnnTensor *b_flatten (GnnTensor **in, GError **E) { return gnn_tensor_flatten (in[0], 1, -1, E); }
static GnnTensor *b_squeeze (GnnTensor **in, GError **E) { return gnn_tensor_squeeze (in[0], 1, E); }
static GnnTensor *b_unsqueeze (GnnTensor **in, GError **E) { return gnn_tensor_unsqueeze (in[0], 0, E); }
static GnnTensor *b_narrow (GnnTensor **in, GError **E) { return gnn_tensor_narrow (in[0], 1, 1, 2, E); }
static GnnTensor *b_select (GnnTensor **in, GError **E) { return gnn_tensor_select (in[0], 0, -1, E); }
static GnnTensor *b_transpose (GnnTensor **in, GError **E) { return gnn_tensor_transpose (in[0], 0, 2, E); }
static GnnTensor *b_permute (GnnTensor **in, GError **E) { return gnn_tensor_permute (in[0], (gint[]) { 2, 0, 1 }, 3, E); }
static GnnTensor *b_expand (GnnTensor **in, GError **E) { return gnn_tensor_expand (in[0], SHAPE (2, 3, 4), E); }
static GnnTensor *
b_index_select (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = gnn_tensor_new_from_int64s ((gint64[]) { 2, 0, 2 }, 3, SHAPE (3), NULL);
  return gnn_tensor_index_select (in[0], 1, idx, E);
}
static GnnTensor *
b_contiguous (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (in[0], 0, 1, E);
  return gnn_tensor_contiguous (t);
}
static GnnTensor *b_clone (GnnTensor **in, GError **E) { return gnn_tensor_clone (in[0]); }
static GnnTensor *
b_to_dtype (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) f = gnn_tensor_to_dtype (in[0], GNN_DTYPE_F32, E);
  g_autoptr(GnnTensor) sq = gnn_tensor_mul (f, f, E);
  return gnn_tensor_to_dtype (sq, GNN_DTYPE_F64, E);
}
static GnnTensor *
b_where (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) zero = gnn_tensor_new_scalar (0.0, GNN_DTYPE_F64);
  g_autoptr(GnnTensor) cond = gnn_tensor_gt (in[0], zero, E);
  return gnn_tensor_where (cond, in[0], in[1], E);
}
static GnnTensor *b_conv2d (GnnTensor **in, GError **E) { return gnn_tensor_conv2d (in[0], in[1], in[2], 2, 1, 1, 0, 1, 2, 1, E); }
static GnnTensor *b_conv2d_groups (GnnTensor **in, GError **E) { return gnn_tensor_conv2d (in[0], in[1], NULL, 1, 1, 1, 1, 1, 1, 2, E); }
static GnnTensor *b_max_pool (GnnTensor **in, GError **E) { return gnn_tensor_max_pool2d (in[0], 2, 2, 0, 0, 1, 0, 1, 1, FALSE, E); }
static GnnTensor *b_avg_pool (GnnTensor **in, GError **E) { return gnn_tensor_avg_pool2d (in[0], 3, 2, 2, 1, 1, 1, TRUE, FALSE, 0, E); }
static GnnTensor *b_layer_norm (GnnTensor **in, GError **E) { return gnn_tensor_layer_norm (in[0], SHAPE (4), in[1], in[2], 1e-5, E); }
static GnnTensor *
b_batch_norm_train (GnnTensor **in, GError **E)
{
  return gnn_tensor_batch_norm (in[0], NULL, NULL, in[1], in[2], TRUE, 0.1, 1e-5, E);
}
static GnnTensor *
b_batch_norm_eval (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) rm = gnn_tensor_new_from_doubles ((double[]) { 0.1, -0.2, 0.3 }, 3, SHAPE (3), NULL);
  g_autoptr(GnnTensor) rv = gnn_tensor_new_from_doubles ((double[]) { 0.5, 1.5, 2.0 }, 3, SHAPE (3), NULL);
  return gnn_tensor_batch_norm (in[0], rm, rv, in[1], in[2], FALSE, 0.1, 1e-5, E);
}
static GnnTensor *
b_embedding (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = gnn_tensor_new_from_int64s ((gint64[]) { 1, 3, 1, 0 }, 4, SHAPE (2, 2), NULL);
  return gnn_tensor_embedding (in[0], idx, E);
}
static GnnTensor *
b_cross_entropy (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s ((gint64[]) { 1, 0, 3, -100 }, 4, SHAPE (4), NULL);
  return gnn_cross_entropy (in[0], t, NULL, -100, GNN_REDUCTION_MEAN, 0.1, E);
}
static GnnTensor *
b_cross_entropy_w (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s ((gint64[]) { 1, 0, 3, 2 }, 4, SHAPE (4), NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_new_from_doubles ((double[]) { 1, 2, 0.5, 3, 1.5 }, 5, SHAPE (5), NULL);
  return gnn_cross_entropy (in[0], t, w, -100, GNN_REDUCTION_MEAN, 0.2, E);
}
static GnnTensor *
b_nll (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s ((gint64[]) { 1, 0, 3, 2 }, 4, SHAPE (4), NULL);
  return gnn_nll_loss (in[0], t, NULL, -100, GNN_REDUCTION_SUM, E);
}
static GnnTensor *b_mse (GnnTensor **in, GError **E) { return gnn_mse_loss (in[0], in[1], GNN_REDUCTION_MEAN, E); }
static GnnTensor *
b_bce (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_doubles ((double[]) { 1, 0, 0.3, 1, 0, 0.5 }, 6, SHAPE (2, 3), NULL);
  g_autoptr(GnnTensor) pw = gnn_tensor_new_from_doubles ((double[]) { 2, 0.5, 1 }, 3, SHAPE (3), NULL);
  return gnn_binary_cross_entropy_with_logits (in[0], t, NULL, pw, GNN_REDUCTION_MEAN, E);
}
#undef E

static const Case cases[] = {
  { "add/broadcast", b_add, 2, { { 2, 3, 4 }, { 3, 1 } }, { 3, 2 }, { 0, 0 } },
  { "sub/broadcast", b_sub, 2, { { 3, 1 }, { 2, 3, 4 } }, { 2, 3 }, { 0, 0 } },
  { "mul/broadcast", b_mul, 2, { { 2, 3, 4 }, { 4 } }, { 3, 1 }, { 0, 0 } },
  { "div/broadcast", b_div, 2, { { 2, 3 }, { 2, 1 } }, { 2, 2 }, { 0, 3 } },
  { "add-scalar", b_add_scalar, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "mul-scalar", b_mul_scalar, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "pow/3", b_pow3, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "pow/2", b_pow2, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "pow/half", b_powh, 1, { { 2, 3 } }, { 2 }, { 2 } },
  { "relu", b_relu, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "gelu", b_gelu, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "tanh", b_tanh, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "sigmoid", b_sigmoid, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "exp", b_exp, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "log", b_log, 1, { { 3, 4 } }, { 2 }, { 2 } },
  { "neg", b_neg, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "abs", b_abs, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "sqrt", b_sqrt, 1, { { 3, 4 } }, { 2 }, { 2 } },
  { "sum/all", b_sum_all, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "sum/dim", b_sum_dim, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "sum/keepdim", b_sum_keep, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "mean/dim", b_mean_dim, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "mean/all", b_mean_all, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "max/dim", b_max_dim, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "min/all", b_min_all, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "softmax", b_softmax, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "log-softmax", b_log_softmax, 1, { { 3, 5 } }, { 2 }, { 0 } },
  { "matmul/mm", b_matmul, 2, { { 3, 4 }, { 4, 2 } }, { 2, 2 }, { 0, 0 } },
  { "matmul/dot", b_matmul, 2, { { 4 }, { 4 } }, { 1, 1 }, { 0, 0 } },
  { "matmul/mv", b_matmul, 2, { { 3, 4 }, { 4 } }, { 2, 1 }, { 0, 0 } },
  { "matmul/vm", b_matmul, 2, { { 4 }, { 4, 2 } }, { 1, 2 }, { 0, 0 } },
  { "matmul/batched-broadcast", b_matmul, 2, { { 2, 1, 3, 4 }, { 3, 4, 2 } }, { 4, 3 }, { 0, 0 } },
  { "matmul/batched-vector", b_matmul, 2, { { 4 }, { 2, 4, 3 } }, { 1, 3 }, { 0, 0 } },
  { "cat", b_cat, 2, { { 2, 3 }, { 2, 2 } }, { 2, 2 }, { 0, 0 } },
  { "stack", b_stack, 2, { { 2, 3 }, { 2, 3 } }, { 2, 2 }, { 0, 0 } },
  { "reshape", b_reshape, 1, { { 2, 3, 2 } }, { 3 }, { 0 } },
  { "reshape/copy", b_reshape_t, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "view", b_view, 1, { { 2, 3, 2 } }, { 3 }, { 0 } },
  { "flatten", b_flatten, 1, { { 2, 3, 2 } }, { 3 }, { 0 } },
  { "squeeze", b_squeeze, 1, { { 2, 1, 3 } }, { 3 }, { 0 } },
  { "unsqueeze", b_unsqueeze, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "narrow", b_narrow, 1, { { 2, 4 } }, { 2 }, { 0 } },
  { "select", b_select, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "transpose", b_transpose, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "permute", b_permute, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "expand", b_expand, 1, { { 3, 1 } }, { 2 }, { 0 } },
  { "index-select", b_index_select, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "contiguous", b_contiguous, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "clone", b_clone, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "where", b_where, 2, { { 2, 3 }, { 3 } }, { 2, 1 }, { 0, 0 } },
  { "conv2d", b_conv2d, 3, { { 2, 2, 5, 6 }, { 3, 2, 3, 2 }, { 3 } }, { 4, 4, 1 }, { 0, 0, 0 } },
  { "conv2d/groups", b_conv2d_groups, 2, { { 4, 4, 4 }, { 4, 2, 3, 3 } }, { 3, 4 }, { 0, 0 } },
  { "max-pool2d", b_max_pool, 1, { { 2, 2, 4, 5 } }, { 4 }, { 0 } },
  { "avg-pool2d", b_avg_pool, 1, { { 2, 5, 4 } }, { 3 }, { 0 } },
  { "layer-norm", b_layer_norm, 3, { { 3, 4 }, { 4 }, { 4 } }, { 2, 1, 1 }, { 0, 1, 0 } },
  { "batch-norm/train", b_batch_norm_train, 3, { { 4, 3, 2 }, { 3 }, { 3 } }, { 3, 1, 1 }, { 0, 1, 0 } },
  { "batch-norm/eval", b_batch_norm_eval, 3, { { 4, 3 }, { 3 }, { 3 } }, { 2, 1, 1 }, { 0, 1, 0 } },
  { "embedding", b_embedding, 1, { { 4, 3 } }, { 2 }, { 0 } },
  { "loss/cross-entropy", b_cross_entropy, 1, { { 4, 5 } }, { 2 }, { 0 } },
  { "loss/cross-entropy-weighted", b_cross_entropy_w, 1, { { 4, 5 } }, { 2 }, { 0 } },
  { "loss/nll", b_nll, 1, { { 4, 5 } }, { 2 }, { 0 } },
  { "loss/mse", b_mse, 2, { { 2, 3 }, { 2, 3 } }, { 2, 2 }, { 0, 0 } },
  { "loss/bce-with-logits", b_bce, 1, { { 2, 3 } }, { 2 }, { 0 } },
};

/* --- graph behaviour -------------------------------------------------------- */

static GnnTensor *
scalar_param (double v)
{
  GnnTensor *t = gnn_tensor_new_scalar (v, GNN_DTYPE_F64);

  gnn_tensor_set_requires_grad (t, TRUE);
  return t;
}

static void
test_accumulates (void)
{
  g_autoptr(GnnTensor) x = scalar_param (3.0);
  g_autoptr(GError) error = NULL;

  for (int i = 0; i < 2; i++)
    {
      g_autoptr(GnnTensor) y = gnn_tensor_mul (x, x, &error);

      g_assert_true (gnn_tensor_backward (y, NULL, FALSE, &error));
    }
  g_assert_cmpfloat (gnn_tensor_item (gnn_tensor_get_grad (x), NULL), ==, 12.0);
}

static void
test_retain_graph (void)
{
  g_autoptr(GnnTensor) x = scalar_param (2.0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_tensor_exp (x, &error);

  g_assert_true (gnn_tensor_backward (y, NULL, TRUE, &error));
  g_assert_true (gnn_tensor_backward (y, NULL, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (gnn_tensor_get_grad (x), NULL), 2 * exp (2.0), 1e-12);
}

static void
test_freed_graph (void)
{
  g_autoptr(GnnTensor) x = scalar_param (2.0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_tensor_exp (x, &error);

  g_assert_true (gnn_tensor_backward (y, NULL, FALSE, &error));
  g_assert_false (gnn_tensor_backward (y, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "Trying to backward through the graph a second time"));
}

static void
test_non_scalar (void)
{
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_tensor_mul_scalar (x, 2.0, &error);
  g_autoptr(GnnTensor) g = gnn_tensor_new_from_doubles ((double[]) { 1, 2, 3 }, 3, SHAPE (3), NULL);
  g_autofree double *gx = NULL;

  g_assert_false (gnn_tensor_backward (y, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==, "grad can be implicitly created only for scalar outputs");
  g_clear_error (&error);
  g_assert_true (gnn_tensor_backward (y, g, FALSE, &error));
  gx = gnn_tensor_to_doubles (gnn_tensor_get_grad (x), NULL);
  g_assert_cmpfloat (gx[2], ==, 6.0);
}

static void
test_no_requires_grad (void)
{
  g_autoptr(GnnTensor) x = gnn_tensor_new_scalar (1.0, GNN_DTYPE_F64);
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_tensor_backward (x, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==, "element 0 of tensors does not require grad and does not have a grad_fn");
}

static void
test_no_grad_mode (void)
{
  g_autoptr(GnnTensor) x = scalar_param (2.0);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) z = NULL;

  g_assert_true (gnn_is_grad_enabled ());
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    g_assert_false (gnn_is_grad_enabled ());
    y = gnn_tensor_mul (x, x, NULL);
    g_assert_true (gnn_tensor_add_ (x, y, NULL));   /* optimizers update leaves in place */
  }
  g_assert_true (gnn_is_grad_enabled ());
  g_assert_false (gnn_tensor_get_requires_grad (y));
  g_assert_true (gnn_tensor_is_leaf (y));
  g_assert_null (gnn_tensor_get_grad_fn_name (y));
  g_assert_cmpfloat (gnn_tensor_item (x, NULL), ==, 6.0);
  z = gnn_tensor_mul (x, x, NULL);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (z), ==, "MulBackward0");
  g_assert_false (gnn_tensor_is_leaf (z));
}

static void
test_leaf_inplace (void)
{
  g_autoptr(GnnTensor) x = scalar_param (2.0);
  g_autoptr(GnnTensor) one = gnn_tensor_new_scalar (1.0, GNN_DTYPE_F64);
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_tensor_add_ (x, one, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==, "a leaf Variable that requires grad is being used in an in-place operation.");
  g_assert_cmpfloat (gnn_tensor_item (x, NULL), ==, 2.0);
}

/* y = x @ w (fresh, nothing saved its values), y += b in place: the add is
 * rebased onto y's history as in PyTorch (this is how Linear adds its bias). */
static void
test_inplace_rebase (void)
{
  g_autoptr(GnnTensor) x = randn (SHAPE (2, 3), 0);
  g_autoptr(GnnTensor) w = randn (SHAPE (3, 4), 0);
  g_autoptr(GnnTensor) b = randn (SHAPE (4), 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_tensor_matmul (x, w, &error);
  g_autoptr(GnnTensor) s = NULL;
  g_autofree double *gb = NULL;

  g_assert_true (gnn_tensor_add_ (y, b, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "AddBackward0");
  g_assert_true (gnn_tensor_relu_ (y, &error));
  s = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
  g_assert_nonnull (gnn_tensor_get_grad (w));
  gb = gnn_tensor_to_doubles (gnn_tensor_get_grad (b), NULL);
  for (int j = 0; j < 4; j++)
    g_assert_true (gb[j] >= 0 && gb[j] <= 2);
}

/* An in-place op on a tensor whose values a node saved is allowed, as in
 * torch; the backward that would read them fails (test-version.c has the
 * cases). */
static void
test_inplace_saved_refused (void)
{
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_tensor_exp (x, &error);
  g_autoptr(GnnTensor) one = gnn_tensor_new_scalar (1.0, GNN_DTYPE_F64);
  g_autoptr(GnnTensor) s = NULL;

  g_assert_true (gnn_tensor_add_ (y, one, &error));
  s = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "which is output 0 of ExpBackward0, is at version 1"));
}

static void
test_long_chain (void)
{
  g_autoptr(GnnTensor) x = scalar_param (1.0);
  g_autoptr(GnnTensor) y = g_object_ref (x);
  g_autoptr(GError) error = NULL;

  for (int i = 0; i < 100000; i++)
    {
      GnnTensor *next = gnn_tensor_add_scalar (y, 0.0, &error);

      g_object_unref (y);
      y = next;
    }
  g_assert_true (gnn_tensor_backward (y, NULL, FALSE, &error));
  g_assert_cmpfloat (gnn_tensor_item (gnn_tensor_get_grad (x), NULL), ==, 1.0);
}

/* float64 -> float32 -> float64: the gradient comes back as float64 */
static void
test_to_dtype (void)
{
  g_autoptr(GnnTensor) x = randn (SHAPE (2, 3), 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = b_to_dtype (&x, &error);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_autofree double *xv = gnn_tensor_to_doubles (x, NULL);
  g_autofree double *gv = NULL;

  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "ToCopyBackward0");
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (gnn_tensor_get_grad (x)), ==, GNN_DTYPE_F64);
  gv = gnn_tensor_to_doubles (gnn_tensor_get_grad (x), NULL);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat_with_epsilon (gv[i], 2 * xv[i], 1e-6);
}

static void
test_detach (void)
{
  g_autoptr(GnnTensor) x = scalar_param (2.0);
  g_autoptr(GnnTensor) y = gnn_tensor_mul (x, x, NULL);
  g_autoptr(GnnTensor) d = gnn_tensor_detach (y);

  g_assert_false (gnn_tensor_get_requires_grad (d));
  g_assert_true (gnn_tensor_is_leaf (d));
  g_assert_true (gnn_tensor_shares_storage (d, y));
}

static void
test_repr_grad_fn (void)
{
  g_autoptr(GnnTensor) x = scalar_param (2.0);
  g_autoptr(GnnTensor) y = gnn_tensor_add (x, x, NULL);
  g_autofree char *s = gnn_tensor_to_string (y);

  g_assert_nonnull (strstr (s, "grad_fn=<AddBackward0>"));
}

/* A 2-layer MLP on a small batch: every parameter's gradient matches
 * central differences. */
static GnnTensor *
mlp (GnnTensor **in, GError **error)
{
  g_autoptr(GnnTensor) h = gnn_tensor_matmul (in[0], in[1], error);
  g_autoptr(GnnTensor) hb = gnn_tensor_add (h, in[2], error);
  g_autoptr(GnnTensor) a = gnn_tensor_relu (hb, error);
  g_autoptr(GnnTensor) o = gnn_tensor_matmul (a, in[3], error);
  g_autoptr(GnnTensor) ob = gnn_tensor_add (o, in[4], error);
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s ((gint64[]) { 0, 2, 1, 2, 0 }, 5, SHAPE (5), NULL);

  return gnn_cross_entropy (ob, t, NULL, -100, GNN_REDUCTION_MEAN, 0.0, error);
}

static void
test_mlp (void)
{
  GnnTensor *in[5];

  in[0] = randn (SHAPE (5, 4), 0);
  gnn_tensor_set_requires_grad (in[0], FALSE);
  in[1] = randn (SHAPE (4, 8), 0);
  in[2] = randn (SHAPE (8), 0);
  in[3] = randn (SHAPE (8, 3), 0);
  in[4] = randn (SHAPE (3), 0);
  gradcheck (mlp, in, 5, 1e-5);
  free_inputs (in, 5);
}

static void
test_parameter_grad (void)
{
  g_autoptr(GnnTensor) data = gnn_tensor_new_from_doubles ((double[]) { 1, 2 }, 2, SHAPE (2), NULL);
  g_autoptr(GnnParameter) p = gnn_parameter_new (data, TRUE);
  g_autoptr(GnnTensor) y = gnn_tensor_mul (GNN_TENSOR (p), GNN_TENSOR (p), NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_sum (y, NULL, 0, FALSE, NULL);
  g_autofree double *g = NULL;

  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, NULL));
  g = gnn_tensor_to_doubles (gnn_tensor_get_grad (GNN_TENSOR (p)), NULL);
  g_assert_cmpfloat (g[0], ==, 2.0);
  g_assert_cmpfloat (g[1], ==, 4.0);
}

/* An elementwise backward makes an expanded output gradient contiguous
 * first; when that copy (64 MB here) cannot be allocated, backward fails
 * with GNN_ERROR_MEMORY instead of reading NULL. */
static void
check_unary_out_of_memory (gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros (SHAPE (4096, 4096), GNN_DTYPE_F32, &error);
  g_autoptr(GnnTensor) y = NULL;

  g_assert_no_error (error);
  gnn_tensor_set_requires_grad (x, TRUE);
  y = gnn_tensor_tanh (x, &error);
  g_assert_no_error (error);
  gnn_test_backward_out_of_memory (y);
}

static void
test_unary_out_of_memory (void)
{
  gnn_test_run_capped (check_unary_out_of_memory, NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strconcat ("/autograd/gradcheck/", cases[i].path, NULL);

      g_test_add_data_func (path, &cases[i], test_gradcheck);
    }
  g_test_add_func ("/autograd/backward/accumulates", test_accumulates);
  g_test_add_func ("/autograd/backward/retain-graph", test_retain_graph);
  g_test_add_func ("/autograd/backward/freed-graph", test_freed_graph);
  g_test_add_func ("/autograd/backward/non-scalar", test_non_scalar);
  g_test_add_func ("/autograd/backward/no-requires-grad", test_no_requires_grad);
  g_test_add_func ("/autograd/backward/long-chain", test_long_chain);
  g_test_add_func ("/autograd/backward/parameter", test_parameter_grad);
  g_test_add_func ("/autograd/backward/mlp", test_mlp);
  g_test_add_func ("/autograd/backward/unary-out-of-memory", test_unary_out_of_memory);
  g_test_add_func ("/autograd/grad-mode/no-grad", test_no_grad_mode);
  g_test_add_func ("/autograd/inplace/leaf-error", test_leaf_inplace);
  g_test_add_func ("/autograd/inplace/rebase", test_inplace_rebase);
  g_test_add_func ("/autograd/inplace/saved-refused", test_inplace_saved_refused);
  g_test_add_func ("/autograd/detach", test_detach);
  g_test_add_func ("/autograd/to-dtype", test_to_dtype);
  g_test_add_func ("/autograd/repr/grad-fn", test_repr_grad_fn);
  return g_test_run ();
}
