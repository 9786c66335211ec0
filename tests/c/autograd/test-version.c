/* test-version.c: torch's version counter — every in-place write moves it,
 * views and detached tensors share it, and a backward that would read a
 * saved tensor modified since it was saved fails with torch's message
 * (which names the producing node for op outputs, nothing for leaves).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"

#define SHAPE(...) (const gint64[]) { __VA_ARGS__ }, G_N_ELEMENTS (((const gint64[]) { __VA_ARGS__ }))

#define HINT "Hint: enable anomaly detection to find the operation that failed to compute its " \
             "gradient, with torch.autograd.set_detect_anomaly(True)."
#define MODIFIED "one of the variables needed for gradient computation has been modified by an " \
                 "inplace operation: "

static GnnTensor *
ramp (const gint64 *shape,
      guint         ndim,
      gboolean      requires_grad)
{
  GnnTensor *t = gnn_test_arange (GNN_DTYPE_F32, 1.0, shape, ndim);

  gnn_tensor_set_requires_grad (t, requires_grad);
  return t;
}

static GnnTensor *
scalar (double v)
{
  return gnn_tensor_new_scalar (v, GNN_DTYPE_F32);
}

/* backward of sum (@y); returns the error (or NULL) */
static GError *
backward_sum (GnnTensor *y,
              gboolean   retain)
{
  GError *error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_sum (y, NULL, 0, FALSE, &error);

  g_assert_no_error (error);
  gnn_tensor_backward (s, NULL, retain, &error);
  return error;
}

static void
assert_modified (GError     *error,
                 const char *expected)
{
  g_autofree char *full = g_strconcat (MODIFIED, expected, " " HINT, NULL);

  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==, full);
}

/* --- the counter ----------------------------------------------------------- */

static void
test_counter_moves (void)
{
  g_autoptr(GnnTensor) x = ramp (SHAPE (2, 3), FALSE);
  g_autoptr(GnnTensor) one = scalar (1.0);
  g_autoptr(GnnTensor) row = gnn_tensor_select (x, 0, 1, NULL);
  g_autoptr(GnnTensor) d = gnn_tensor_detach (x);
  g_autoptr(GnnTensor) y = gnn_tensor_add (x, one, NULL);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  guint v = 0;

  g_assert_cmpuint (gnn_tensor_get_version (x), ==, 0);
  g_assert_true (gnn_tensor_add_ (x, one, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_true (gnn_tensor_mul_ (x, one, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_true (gnn_tensor_fill_ (x, 2.0, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_true (gnn_tensor_copy_ (x, y, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_true (gnn_tensor_relu_ (x, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_true (gnn_tensor_uniform_ (x, 0, 1, gen, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_true (gnn_tensor_normal_ (x, 0, 1, gen, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_true (gnn_tensor_set_element (x, (gint64[]) { 0, 0 }, 2, 5.0, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  /* a view and a detached tensor share the counter, both ways */
  g_assert_true (gnn_tensor_fill_ (row, 0.0, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_cmpuint (gnn_tensor_get_version (row), ==, v);
  g_assert_true (gnn_tensor_add_ (d, one, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  /* also in no-grad mode; out-of-place results start at 0 */
  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_sub_ (x, one, NULL));
  gnn_no_grad_pop ();
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, ++v);
  g_assert_cmpuint (gnn_tensor_get_version (y), ==, 0);
}

/* A failed op (a leaf refusal) leaves the version where it was. */
static void
test_counter_refusal_unchanged (void)
{
  g_autoptr(GnnTensor) w = ramp (SHAPE (3), TRUE);
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_tensor_fill_ (w, 0.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpuint (gnn_tensor_get_version (w), ==, 0);
}

/* --- saved tensors modified ------------------------------------------------ */

/* The first case: y = linear (x); x.mul_(2); backward. torch:
 * "[torch.FloatTensor [2, 3]] is at version 1; expected version 0". */
static void
test_linear_input_modified (void)
{
  g_autoptr(GnnLinear) lin = gnn_linear_new (3, 2, TRUE, NULL, NULL);
  g_autoptr(GnnTensor) x = ramp (SHAPE (2, 3), FALSE);
  g_autoptr(GnnTensor) two = scalar (2.0);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (lin), x, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_tensor_mul_ (x, two, NULL));
  error = backward_sum (y, FALSE);
  assert_modified (error, "[torch.FloatTensor [2, 3]] is at version 1; expected version 0 instead.");
  g_assert_null (gnn_tensor_get_grad (GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (lin), "weight", NULL))));
}

/* torch saves a matmul operand only when the other one needs a gradient:
 * the weight changed under no_grad while the input needs none is fine. */
static void
test_linear_weight_modified_unneeded (void)
{
  g_autoptr(GnnLinear) lin = gnn_linear_new (3, 2, TRUE, NULL, NULL);
  GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (lin), "weight", NULL));
  g_autoptr(GnnTensor) x = ramp (SHAPE (2, 3), FALSE);
  g_autoptr(GnnTensor) two = scalar (2.0);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (lin), x, NULL);
  g_autoptr(GnnTensor) y2 = NULL;
  g_autoptr(GError) error = NULL;

  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_mul_ (w, two, NULL));
  gnn_no_grad_pop ();
  error = backward_sum (y, FALSE);
  g_assert_no_error (error);

  /* with an input that needs a gradient, the weight is saved: refused */
  gnn_tensor_set_requires_grad (x, TRUE);
  y2 = gnn_module_call (GNN_MODULE (lin), x, NULL);
  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_mul_ (w, two, NULL));
  gnn_no_grad_pop ();
  g_clear_error (&error);
  error = backward_sum (y2, FALSE);
  /* torch: the saved weight.t() is a view, whose grad_fn is regenerated */
  assert_modified (error, "[torch.FloatTensor [3, 2]], which is output 0 of AsStridedBackward0, "
                          "is at version 3; expected version 2 instead.");
}

/* a @ b, then b.add_(1): b was saved for a's gradient */
static void
test_matmul_operand_modified (void)
{
  g_autoptr(GnnTensor) a = ramp (SHAPE (3, 3), TRUE);
  g_autoptr(GnnTensor) b = ramp (SHAPE (3, 3), FALSE);
  g_autoptr(GnnTensor) one = scalar (1.0);
  g_autoptr(GnnTensor) y = gnn_tensor_matmul (a, b, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_tensor_add_ (b, one, NULL));
  error = backward_sum (y, FALSE);
  assert_modified (error, "[torch.FloatTensor [3, 3]] is at version 1; expected version 0 instead.");
}

/* A saved op output changed through a view (torch: b = a.tanh(); b[0] = 10):
 * named after the node that saved it. */
static void
test_output_modified_through_view (void)
{
  g_autoptr(GnnTensor) x = ramp (SHAPE (2, 3), TRUE);
  g_autoptr(GnnTensor) b = gnn_tensor_tanh (x, NULL);
  g_autoptr(GnnTensor) row = NULL;
  g_autoptr(GError) error = NULL;

  /* the view is taken without recording, as a detached alias would be */
  gnn_no_grad_push ();
  row = gnn_tensor_select (b, 0, 0, NULL);
  g_assert_true (gnn_tensor_fill_ (row, 10.0, NULL));
  gnn_no_grad_pop ();
  error = backward_sum (b, FALSE);
  assert_modified (error, "[torch.FloatTensor [2, 3]], which is output 0 of TanhBackward0, is at "
                          "version 1; expected version 0 instead.");
}

/* A saved input that is an op's output, modified by recorded in-place ops:
 * named after its grad_fn as it is now (torch: a.mul_(2); a.mul_(3) gives
 * MulBackward0, not the AddBackward0 that made it). */
static void
test_input_named_after_current_grad_fn (void)
{
  g_autoptr(GnnTensor) x = ramp (SHAPE (2, 3), TRUE);
  g_autoptr(GnnTensor) zero = scalar (0.0);
  g_autoptr(GnnTensor) two = scalar (2.0);
  g_autoptr(GnnTensor) a = gnn_tensor_add (x, zero, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_mul (a, x, NULL);
  g_autoptr(GnnTensor) a2 = gnn_tensor_add (x, zero, NULL);
  g_autoptr(GnnTensor) y2 = gnn_tensor_mul (a2, x, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;

  g_assert_true (gnn_tensor_mul_ (a, two, NULL));
  g_assert_true (gnn_tensor_mul_ (a, two, NULL));
  error = backward_sum (y, FALSE);
  assert_modified (error, "[torch.FloatTensor [2, 3]], which is output 0 of MulBackward0, is at "
                          "version 2; expected version 0 instead.");

  /* changed without recording (no_grad): still its producer */
  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_mul_ (a2, two, NULL));
  gnn_no_grad_pop ();
  error2 = backward_sum (y2, FALSE);
  assert_modified (error2, "[torch.FloatTensor [2, 3]], which is output 0 of AddBackward0, is at "
                           "version 1; expected version 0 instead.");
}

/* A leaf zeroed under no_grad after its use: no "which is" (torch's text
 * for leaves). */
static void
test_leaf_zeroed_after_use (void)
{
  g_autoptr(GnnTensor) w = ramp (SHAPE (2, 3), TRUE);
  g_autoptr(GnnTensor) y = gnn_tensor_mul (w, w, NULL);
  g_autoptr(GError) error = NULL;

  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_fill_ (w, 0.0, NULL));
  gnn_no_grad_pop ();
  error = backward_sum (y, FALSE);
  assert_modified (error, "[torch.FloatTensor [2, 3]] is at version 1; expected version 0 instead.");
}

/* Saved non-differentiable tensors (an index) are checked too. */
static void
test_index_modified (void)
{
  g_autoptr(GnnTensor) x = ramp (SHAPE (5, 3), TRUE);
  g_autoptr(GnnTensor) idx = gnn_tensor_new_from_int64s ((gint64[]) { 1, 2 }, 2, SHAPE (2), NULL);
  g_autoptr(GnnTensor) one = gnn_tensor_new_scalar (1, GNN_DTYPE_I64);
  g_autoptr(GnnTensor) y = gnn_tensor_index_select (x, 0, idx, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_tensor_add_ (idx, one, NULL));
  error = backward_sum (y, FALSE);
  assert_modified (error, "[torch.LongTensor [2]] is at version 1; expected version 0 instead.");
}

/* torch's mul saves each operand only for the other's gradient. */
static void
test_mul_saves_only_what_is_needed (void)
{
  g_autoptr(GnnTensor) a = ramp (SHAPE (3), TRUE);
  g_autoptr(GnnTensor) b = ramp (SHAPE (3), FALSE);
  g_autoptr(GnnTensor) one = scalar (1.0);
  g_autoptr(GnnTensor) y = gnn_tensor_mul (a, b, NULL);
  g_autoptr(GnnTensor) y2 = gnn_tensor_mul (a, b, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autofree double *g = NULL;

  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_add_ (a, one, NULL));   /* a: only b's gradient reads it */
  gnn_no_grad_pop ();
  error = backward_sum (y, FALSE);
  g_assert_no_error (error);
  g = gnn_tensor_to_doubles (gnn_tensor_get_grad (a), NULL);
  g_assert_cmpfloat (g[2], ==, 3.0);

  g_assert_true (gnn_tensor_add_ (b, one, NULL));   /* b: a's gradient reads it */
  error2 = backward_sum (y2, FALSE);
  assert_modified (error2, "[torch.FloatTensor [3]] is at version 1; expected version 0 instead.");
}

/* relu saves its output, as torch's: changing the input is fine, changing
 * the output is not. */
static void
test_relu_saves_output (void)
{
  g_autoptr(GnnTensor) x = ramp (SHAPE (3), TRUE);
  g_autoptr(GnnTensor) one = scalar (1.0);
  g_autoptr(GnnTensor) a = gnn_tensor_mul_scalar (x, 1.0, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_relu (a, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_tensor_add_ (a, one, NULL));
  error = backward_sum (y, TRUE);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_add_ (y, one, NULL));
  g_clear_error (&error);
  error = backward_sum (y, FALSE);
  assert_modified (error, "[torch.FloatTensor [3]], which is output 0 of ReluBackward0, is at "
                          "version 1; expected version 0 instead.");
}

/* The second backward of a retained graph sees an update made in between
 * by an optimizer step (which writes parameters in place). */
static void
test_optimizer_step_between_backwards (void)
{
  g_autoptr(GnnLinear) lin = gnn_linear_new (3, 2, TRUE, NULL, NULL);
  g_autoptr(GPtrArray) params = g_ptr_array_new ();
  g_autoptr(GnnTensor) x = ramp (SHAPE (2, 3), TRUE);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GError) error = NULL;
  GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (lin), "weight", NULL));

  g_ptr_array_add (params, w);
  g_ptr_array_add (params, gnn_module_get_parameter (GNN_MODULE (lin), "bias", NULL));
  opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL));
  y = gnn_module_call (GNN_MODULE (lin), x, NULL);
  error = backward_sum (y, TRUE);
  g_assert_no_error (error);
  g_assert_true (gnn_optimizer_step (opt, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (w), ==, 2);   /* initialization was 1, as torch's */
  g_clear_error (&error);
  error = backward_sum (y, FALSE);
  assert_modified (error, "[torch.FloatTensor [3, 2]], which is output 0 of AsStridedBackward0, "
                          "is at version 2; expected version 1 instead.");
}

/* An ordinary training loop: forward, backward, step, zero_grad, again. */
static void
test_training_loop_unaffected (void)
{
  g_autoptr(GnnLinear) lin = gnn_linear_new (3, 2, TRUE, NULL, NULL);
  g_autoptr(GPtrArray) params = g_ptr_array_new ();
  g_autoptr(GnnTensor) x = ramp (SHAPE (2, 3), FALSE);
  g_autoptr(GnnOptimizer) opt = NULL;

  g_ptr_array_add (params, gnn_module_get_parameter (GNN_MODULE (lin), "weight", NULL));
  g_ptr_array_add (params, gnn_module_get_parameter (GNN_MODULE (lin), "bias", NULL));
  opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0.9, 0, 0, FALSE, NULL));
  for (int i = 0; i < 3; i++)
    {
      g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (lin), x, NULL);
      g_autoptr(GnnTensor) r = gnn_tensor_relu (y, NULL);
      g_autoptr(GError) error = backward_sum (r, FALSE);

      g_assert_no_error (error);
      g_assert_true (gnn_optimizer_step (opt, NULL));
      gnn_optimizer_zero_grad (opt, FALSE);
    }
}

/* --- in-place on leaves (torch refuses outside no_grad) -------------------- */

static void
test_leaf_refused_everywhere (void)
{
  g_autoptr(GnnTensor) w = ramp (SHAPE (2, 3), TRUE);
  g_autoptr(GnnTensor) src = ramp (SHAPE (2, 3), FALSE);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  g_autoptr(GnnTensor) row = gnn_tensor_select (w, 0, 1, NULL);
  g_autoptr(GnnTensor) src_row = gnn_tensor_select (src, 0, 0, NULL);
  const char *leaf = "a leaf Variable that requires grad is being used in an in-place operation.";
  GError *error = NULL;

#define REFUSED(call, text) G_STMT_START {                     \
    g_assert_false (call);                                      \
    g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);      \
    g_assert_cmpstr (error->message, ==, text);                 \
    g_clear_error (&error);                                     \
  } G_STMT_END

  REFUSED (gnn_tensor_fill_ (w, 0.0, &error), leaf);
  REFUSED (gnn_tensor_copy_ (w, src, &error), leaf);
  REFUSED (gnn_tensor_uniform_ (w, 0, 1, gen, &error), leaf);
  REFUSED (gnn_tensor_normal_ (w, 0, 1, gen, &error), leaf);
  REFUSED (gnn_tensor_add_ (w, src, &error), leaf);
  REFUSED (gnn_tensor_relu_ (w, &error), leaf);
  REFUSED (gnn_tensor_set_element (w, (gint64[]) { 0, 0 }, 2, 1.0, &error), leaf);
  /* torch's x[1] = v: a view of the leaf */
  REFUSED (gnn_tensor_fill_ (row, 0.0, &error),
           "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  REFUSED (gnn_tensor_copy_ (row, src_row, &error),
           "a view of a leaf Variable that requires grad is being used in an in-place operation.");
#undef REFUSED
  g_assert_cmpuint (gnn_tensor_get_version (w), ==, 0);

  /* under no_grad: allowed (initialization, optimizers), nn.init always */
  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_fill_ (w, 0.0, NULL));
  g_assert_true (gnn_tensor_copy_ (w, src, NULL));
  g_assert_true (gnn_tensor_uniform_ (w, 0, 1, gen, NULL));
  gnn_no_grad_pop ();
  g_assert_true (gnn_tensor_kaiming_uniform_ (w, 0, gen, NULL));
  g_assert_cmpuint (gnn_tensor_get_version (w), ==, 4);
}

/* fill_ of a tensor in the graph is recorded: no gradient for what it
 * overwrote (torch 1.13 names it FillBackward2). */
static void
test_fill_in_graph (void)
{
  g_autoptr(GnnTensor) x = ramp (SHAPE (3), TRUE);
  g_autoptr(GnnTensor) a = gnn_tensor_mul_scalar (x, 2.0, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_add (a, x, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree double *g = NULL;

  g_assert_true (gnn_tensor_fill_ (a, 1.0, NULL));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (a), ==, "FillBackward2");
  error = backward_sum (a, TRUE);
  g_assert_no_error (error);
  g = gnn_tensor_to_doubles (gnn_tensor_get_grad (x), NULL);
  g_assert_cmpfloat (g[0], ==, 0.0);
  g_clear_error (&error);
  error = backward_sum (b, FALSE);   /* b kept the values from before */
  g_assert_no_error (error);
  g_free (g);
  g = gnn_tensor_to_doubles (gnn_tensor_get_grad (x), NULL);
  g_assert_cmpfloat (g[0], ==, 3.0);
}

/* add_scalar_ & co.: torch's x.add_(2) — values, the version counter, the
 * leaf check, the graph (MulBackward0 through the in-place op) and torch's
 * dtype refusals. */
static void
test_scalar_inplace (void)
{
  g_autoptr(GnnTensor) x = ramp (SHAPE (3), FALSE);   /* 1 2 3 */
  g_autoptr(GnnTensor) w = ramp (SHAPE (3), TRUE);
  g_autoptr(GnnTensor) i = gnn_test_arange (GNN_DTYPE_I64, 1.0, SHAPE (3));
  g_autoptr(GnnTensor) h = NULL;
  g_autofree float *v = NULL;
  GError *error = NULL;

  g_assert_true (gnn_tensor_add_scalar_ (x, 1.0, NULL));   /* 2 3 4 */
  g_assert_true (gnn_tensor_mul_scalar_ (x, 3.0, NULL));   /* 6 9 12 */
  g_assert_true (gnn_tensor_sub_scalar_ (x, 2.0, NULL));   /* 4 7 10 */
  g_assert_true (gnn_tensor_div_scalar_ (x, 2.0, NULL));   /* 2 3.5 5 */
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, 4);
  v = gnn_tensor_to_floats (x, NULL);
  g_assert_cmpfloat (v[0], ==, 2.0f);
  g_assert_cmpfloat (v[1], ==, 3.5f);
  g_assert_cmpfloat (v[2], ==, 5.0f);

  /* integers: whole numbers are Python ints; division and fractions are
   * refused as in torch */
  g_assert_true (gnn_tensor_add_scalar_ (i, 2.0, NULL));
  g_assert_true (gnn_tensor_mul_scalar_ (i, -1.0, NULL));
  g_assert_cmpfloat (gnn_tensor_get_element (i, (gint64[]) { 2 }, 1, NULL), ==, -5.0);
  g_assert_false (gnn_tensor_add_scalar_ (i, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==, "result type Float can't be cast to the desired output type Long");
  g_clear_error (&error);
  g_assert_false (gnn_tensor_div_scalar_ (i, 2.0, &error));
  g_assert_cmpstr (error->message, ==, "result type Float can't be cast to the desired output type Long");
  g_clear_error (&error);
  g_assert_cmpuint (gnn_tensor_get_version (i), ==, 2);

  /* a leaf that requires grad: refused, unchanged; allowed under no_grad */
  g_assert_false (gnn_tensor_mul_scalar_ (w, 2.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==,
                   "a leaf Variable that requires grad is being used in an in-place operation.");
  g_clear_error (&error);
  g_assert_cmpuint (gnn_tensor_get_version (w), ==, 0);

  /* in the graph: (w * 1).mul_(3) has gradient 3; a tanh output modified
   * after being saved fails backward with torch's message */
  h = gnn_tensor_mul_scalar (w, 1.0, NULL);
  g_assert_true (gnn_tensor_mul_scalar_ (h, 3.0, NULL));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (h), ==, "MulBackward0");
  g_assert_null (backward_sum (h, FALSE));
  g_assert_cmpfloat (gnn_tensor_get_element (gnn_tensor_get_grad (w), (gint64[]) { 1 }, 1, NULL),
                     ==, 3.0);
  {
    g_autoptr(GnnTensor) t = gnn_tensor_tanh (w, NULL);
    g_autoptr(GError) error = NULL;

    g_assert_true (gnn_tensor_add_scalar_ (t, 1.0, NULL));
    error = backward_sum (t, FALSE);
    assert_modified (error, "[torch.FloatTensor [3]], which is output 0 of TanhBackward0, is at "
                            "version 1; expected version 0 instead.");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/autograd/version/counter-moves", test_counter_moves);
  g_test_add_func ("/autograd/version/refusal-leaves-counter", test_counter_refusal_unchanged);
  g_test_add_func ("/autograd/version/linear-input-modified", test_linear_input_modified);
  g_test_add_func ("/autograd/version/linear-weight-unneeded", test_linear_weight_modified_unneeded);
  g_test_add_func ("/autograd/version/matmul-operand-modified", test_matmul_operand_modified);
  g_test_add_func ("/autograd/version/output-modified-through-view", test_output_modified_through_view);
  g_test_add_func ("/autograd/version/input-named-after-grad-fn", test_input_named_after_current_grad_fn);
  g_test_add_func ("/autograd/version/leaf-zeroed-after-use", test_leaf_zeroed_after_use);
  g_test_add_func ("/autograd/version/index-modified", test_index_modified);
  g_test_add_func ("/autograd/version/mul-saves-only-needed", test_mul_saves_only_what_is_needed);
  g_test_add_func ("/autograd/version/relu-saves-output", test_relu_saves_output);
  g_test_add_func ("/autograd/version/optimizer-step-between", test_optimizer_step_between_backwards);
  g_test_add_func ("/autograd/version/training-loop", test_training_loop_unaffected);
  g_test_add_func ("/autograd/leaf-inplace/refused-everywhere", test_leaf_refused_everywhere);
  g_test_add_func ("/autograd/leaf-inplace/fill-in-graph", test_fill_in_graph);
  g_test_add_func ("/autograd/version/scalar-inplace", test_scalar_inplace);
  return g_test_run ();
}
