/* test-autograd-function.c: custom autograd functions written in C
 * (GnnAutogradFunction subclasses) joining the graph, and the graph seen
 * through GnnGradFn (names, next_functions).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "gradcheck-util.h"

/* --- a two-output function: (x + y, x · y) ---------------------------------- */

#define TEST_TYPE_SUM_PROD (test_sum_prod_get_type ())
G_DECLARE_FINAL_TYPE (TestSumProd, test_sum_prod, TEST, SUM_PROD, GnnAutogradFunction)

struct _TestSumProd
{
  GnnAutogradFunction parent_instance;
  gboolean            wrong_count;       /* backward returns one gradient too few */
  gboolean            saw_needs[2];
  gboolean            saw_null_grad;
};

G_DEFINE_FINAL_TYPE (TestSumProd, test_sum_prod, GNN_TYPE_AUTOGRAD_FUNCTION)

static GPtrArray *
tensors (guint n, ...)
{
  GPtrArray *a = g_ptr_array_new ();
  va_list ap;

  va_start (ap, n);
  for (guint i = 0; i < n; i++)
    {
      GnnTensor *t = va_arg (ap, GnnTensor *);

      g_ptr_array_add (a, t);
    }
  va_end (ap);
  return a;
}

static GPtrArray *
sum_prod_forward (GnnAutogradFunction *fn,
                  GnnAutogradContext  *ctx,
                  GPtrArray           *inputs,
                  GError             **error)
{
  GnnTensor *x = inputs->pdata[0], *y = inputs->pdata[1];
  g_autoptr(GPtrArray) saved = tensors (2, x, y);

  g_assert_false (gnn_is_grad_enabled ());
  gnn_autograd_context_save_for_backward (ctx, saved);
  return tensors (2, gnn_tensor_add (x, y, error), gnn_tensor_mul (x, y, error));
}

static GPtrArray *
sum_prod_backward (GnnAutogradFunction *fn,
                   GnnAutogradContext  *ctx,
                   GPtrArray           *grad_outputs,
                   GError             **error)
{
  TestSumProd *self = TEST_SUM_PROD (fn);
  g_autoptr(GPtrArray) saved = gnn_autograd_context_get_saved_tensors (ctx, error);
  GnnTensor *x, *y, *g0 = grad_outputs->pdata[0], *g1 = grad_outputs->pdata[1];
  g_autoptr(GnnTensor) g1y = NULL;
  g_autoptr(GnnTensor) g1x = NULL;

  if (saved == NULL)
    return NULL;
  x = saved->pdata[0];
  y = saved->pdata[1];
  self->saw_needs[0] = gnn_autograd_context_needs_input_grad (ctx, 0);
  self->saw_needs[1] = gnn_autograd_context_needs_input_grad (ctx, 1);
  g1y = gnn_tensor_mul (g1, y, error);
  g1x = gnn_tensor_mul (g1, x, error);
  g_ptr_array_foreach (saved, (GFunc) (void (*) (void)) g_object_unref, NULL);
  if (self->wrong_count)
    return tensors (1, gnn_tensor_add (g0, g1y, error));
  return tensors (2, gnn_tensor_add (g0, g1y, error), gnn_tensor_add (g0, g1x, error));
}

static void
test_sum_prod_class_init (TestSumProdClass *klass)
{
  GNN_AUTOGRAD_FUNCTION_CLASS (klass)->forward = sum_prod_forward;
  GNN_AUTOGRAD_FUNCTION_CLASS (klass)->backward = sum_prod_backward;
}

static void
test_sum_prod_init (TestSumProd *self)
{
}

static void
unref_all (GPtrArray *a)
{
  g_ptr_array_foreach (a, (GFunc) (void (*) (void)) g_object_unref, NULL);
  g_ptr_array_unref (a);
}

/* (x + y) · 2 + sum (x · y · r) through the function: gradients of both
 * inputs from both outputs, against finite differences. */
static GnnTensor *
b_sum_prod (GnnTensor **in,
            GError    **error)
{
  g_autoptr(GnnAutogradFunction) fn = g_object_new (TEST_TYPE_SUM_PROD, "name", "SumProd", NULL);
  g_autoptr(GPtrArray) inputs = tensors (2, in[0], in[1]);
  GPtrArray *out = gnn_autograd_function_apply (fn, inputs, error);
  g_autoptr(GnnTensor) two = gnn_tensor_new_wrapped_number (2.0);
  g_autoptr(GnnTensor) twice = NULL;
  GnnTensor *result;

  if (out == NULL)
    return NULL;
  twice = gnn_tensor_mul (out->pdata[0], two, error);
  result = gnn_tensor_add (twice, out->pdata[1], error);
  unref_all (out);
  return result;
}

static const Case sum_prod_case = {
  "sum-prod", b_sum_prod, 2, { { 2, 3 }, { 2, 3 } }, { 2, 2 }, { 0, 0 }
};

static void
test_custom_names_and_edges (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 0);
  g_autoptr(GnnTensor) y = gnn_tensor_ones (SHAPE (3), GNN_DTYPE_F64, NULL);
  g_autoptr(GnnAutogradFunction) fn = g_object_new (TEST_TYPE_SUM_PROD, "name", "SumProd", NULL);
  g_autoptr(GPtrArray) inputs = tensors (2, x, y);
  GPtrArray *out = gnn_autograd_function_apply (fn, inputs, &error);
  g_autoptr(GnnGradFn) f0 = NULL;
  g_autoptr(GnnGradFn) f1 = NULL;
  g_autoptr(GnnGradFn) again = NULL;
  g_autoptr(GnnGradFn) leaf = NULL;
  guint nr = 99;

  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, 2);
  f0 = gnn_tensor_get_grad_fn (out->pdata[0]);
  f1 = gnn_tensor_get_grad_fn (out->pdata[1]);
  again = gnn_tensor_get_grad_fn (out->pdata[0]);
  g_assert_cmpstr (gnn_grad_fn_get_name (f0), ==, "SumProdBackward");
  g_assert_true (f0 == again);                       /* one object while alive */
  g_assert_true (gnn_grad_fn_equal (f0, f1));        /* one node, two outputs */
  g_assert_cmpuint (gnn_grad_fn_get_n_next_functions (f0), ==, 2);
  leaf = gnn_grad_fn_get_next_function (f0, 0, &nr);
  g_assert_cmpstr (gnn_grad_fn_get_name (leaf), ==, "AccumulateGrad");
  g_assert_true (gnn_grad_fn_get_variable (leaf) == x);
  g_assert_cmpuint (nr, ==, 0);
  g_assert_null (gnn_grad_fn_get_next_function (f0, 1, NULL));   /* y needs no grad */
  unref_all (out);
}

/* An output no gradient reaches gets zeros (materialized); needs_input_grad
 * says which inputs want one. */
static void
test_custom_materialize_and_needs (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 0);
  g_autoptr(GnnTensor) y = gnn_tensor_full (SHAPE (3), 2.0, GNN_DTYPE_F64, NULL);
  g_autoptr(TestSumProd) fn = g_object_new (TEST_TYPE_SUM_PROD, NULL);
  g_autoptr(GPtrArray) inputs = tensors (2, x, y);
  GPtrArray *out = gnn_autograd_function_apply (GNN_AUTOGRAD_FUNCTION (fn), inputs, &error);
  g_autoptr(GnnTensor) loss = gnn_tensor_sum (out->pdata[1], NULL, 0, FALSE, &error);

  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (fn->saw_needs[0]);
  g_assert_false (fn->saw_needs[1]);
  gnn_test_assert_values (gnn_tensor_get_grad (x), (double[]) { 2, 2, 2 }, 3, 0);
  unref_all (out);
}

static void
test_custom_wrong_gradient_count (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 0);
  g_autoptr(TestSumProd) fn = g_object_new (TEST_TYPE_SUM_PROD, "name", "Bad", NULL);
  g_autoptr(GPtrArray) inputs = tensors (2, x, x);
  GPtrArray *out = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  fn->wrong_count = TRUE;
  out = gnn_autograd_function_apply (GNN_AUTOGRAD_FUNCTION (fn), inputs, &error);
  loss = gnn_tensor_sum (out->pdata[0], NULL, 0, FALSE, &error);
  g_assert_false (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==, "function BadBackward returned an incorrect number of "
                   "gradients (expected 2, got 1)");
  unref_all (out);
}

/* Saved tensors are freed by backward: a second one fails like torch. */
static void
test_custom_saved_freed (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 0);
  g_autoptr(GnnAutogradFunction) fn = g_object_new (TEST_TYPE_SUM_PROD, NULL);
  g_autoptr(GPtrArray) inputs = tensors (2, x, x);
  GPtrArray *out = gnn_autograd_function_apply (fn, inputs, &error);
  g_autoptr(GnnTensor) loss = gnn_tensor_sum (out->pdata[1], NULL, 0, FALSE, &error);

  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_false (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_true (g_str_has_prefix (error->message, "Trying to backward through the graph"));
  unref_all (out);
}

/* Without an input that requires grad, nothing joins a graph; a bare
 * function has no forward. */
static void
test_custom_without_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_ones (SHAPE (2), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnAutogradFunction) fn = g_object_new (TEST_TYPE_SUM_PROD, NULL);
  g_autoptr(GnnAutogradFunction) bare = g_object_new (GNN_TYPE_AUTOGRAD_FUNCTION, NULL);
  g_autoptr(GPtrArray) inputs = tensors (2, x, x);
  GPtrArray *out = gnn_autograd_function_apply (fn, inputs, &error);

  g_assert_no_error (error);
  g_assert_false (gnn_tensor_get_requires_grad (out->pdata[0]));
  g_assert_null (gnn_tensor_get_grad_fn (out->pdata[0]));
  unref_all (out);
  g_assert_null (gnn_autograd_function_apply (bare, inputs, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
}

/* The graph of ordinary ops, as torch's next_functions show it. */
static void
test_grad_fn_of_ops (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (SHAPE (3), 0);
  g_autoptr(GnnTensor) two = gnn_tensor_new_wrapped_number (2);
  g_autoptr(GnnTensor) y = gnn_tensor_mul (x, two, &error);
  g_autoptr(GnnTensor) z = gnn_tensor_exp (y, &error);
  g_autoptr(GnnGradFn) fz = gnn_tensor_get_grad_fn (z);
  g_autoptr(GnnGradFn) fy = gnn_grad_fn_get_next_function (fz, 0, NULL);
  g_autoptr(GnnGradFn) fx = gnn_grad_fn_get_next_function (fy, 0, NULL);

  g_assert_cmpstr (gnn_grad_fn_get_name (fz), ==, "ExpBackward0");
  g_assert_cmpstr (gnn_grad_fn_get_name (fy), ==, "MulBackward0");
  g_assert_cmpuint (gnn_grad_fn_get_n_next_functions (fy), ==, 2);
  g_assert_null (gnn_grad_fn_get_next_function (fy, 1, NULL));   /* the number */
  g_assert_cmpstr (gnn_grad_fn_get_name (fx), ==, "AccumulateGrad");
  g_assert_null (gnn_tensor_get_grad_fn (x));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/autograd/function/gradcheck", &sum_prod_case, test_gradcheck);
  g_test_add_func ("/autograd/function/names-and-edges", test_custom_names_and_edges);
  g_test_add_func ("/autograd/function/materialize-and-needs", test_custom_materialize_and_needs);
  g_test_add_func ("/autograd/function/wrong-gradient-count", test_custom_wrong_gradient_count);
  g_test_add_func ("/autograd/function/saved-freed", test_custom_saved_freed);
  g_test_add_func ("/autograd/function/without-grad", test_custom_without_grad);
  g_test_add_func ("/autograd/grad-fn/ops", test_grad_fn_of_ops);
  return g_test_run ();
}
