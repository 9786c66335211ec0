/* test-autograd-views.c: in-place ops on views (torch's CopySlices: the
 * base takes the new history), strided slices, fill_/zero_ in the graph,
 * retain_grad and detach_: gradient checks and torch's node names and
 * messages.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "gradcheck-util.h"

#define E error

/* y = x * 1; y[:, 1:3] *= w; y */
static GnnTensor *
b_view_mul_ (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) y = gnn_tensor_mul_scalar (in[0], 1.0, E);
  g_autoptr(GnnTensor) v = gnn_tensor_narrow (y, 1, 1, 2, E);

  g_assert_true (gnn_tensor_mul_ (v, in[1], E));
  return g_steal_pointer (&y);
}

/* buf = zeros; buf[1] = x * 2; buf[0] = w; buf (a buffer filled in a loop) */
static GnnTensor *
b_buffer_copy_ (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) buf = gnn_tensor_zeros (SHAPE (3, 4), GNN_DTYPE_F64, E);
  g_autoptr(GnnTensor) row1 = gnn_tensor_select (buf, 0, 1, E);
  g_autoptr(GnnTensor) row0 = gnn_tensor_select (buf, 0, 0, E);
  g_autoptr(GnnTensor) twice = gnn_tensor_mul_scalar (in[0], 2.0, E);

  g_assert_true (gnn_tensor_copy_ (row1, twice, E));
  g_assert_true (gnn_tensor_copy_ (row0, in[1], E));
  return g_steal_pointer (&buf);
}

static GnnTensor *b_slice (GnnTensor **in, GError **E) { return gnn_tensor_slice (in[0], 1, 0, 5, 2, E); }

/* y = x * 1; y[1::2] += w; y * x */
static GnnTensor *
b_slice_add_ (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) y = gnn_tensor_mul_scalar (in[0], 1.0, E);
  g_autoptr(GnnTensor) s = gnn_tensor_slice (y, 0, 1, 6, 2, E);

  g_assert_true (gnn_tensor_add_ (s, in[1], E));
  return gnn_tensor_mul (y, in[0], E);
}

/* y = x * 1; y[0].fill_(3); y * x */
static GnnTensor *
b_fill_view (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) y = gnn_tensor_mul_scalar (in[0], 1.0, E);
  g_autoptr(GnnTensor) row = gnn_tensor_select (y, 0, 0, E);

  g_assert_true (gnn_tensor_fill_ (row, 3.0, E));
  return gnn_tensor_mul (y, in[0], E);
}

/* y = x * 2; y.zero_(); y + x */
static GnnTensor *
b_zero (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) y = gnn_tensor_mul_scalar (in[0], 2.0, E);

  g_assert_true (gnn_tensor_zero_ (y, E));
  return gnn_tensor_add (y, in[0], E);
}

/* the view read after its write: v = y[:2]; v.exp_(); v */
static GnnTensor *
b_view_read (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) y = gnn_tensor_mul_scalar (in[0], 1.0, E);
  g_autoptr(GnnTensor) v = gnn_tensor_narrow (y, 0, 0, 2, E);

  g_assert_true (gnn_tensor_exp_ (v, E));
  return g_steal_pointer (&v);
}

/* two writes into transposed views of one base */
static GnnTensor *
b_two_writes (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) y = gnn_tensor_mul_scalar (in[0], 1.0, E);
  g_autoptr(GnnTensor) t = gnn_tensor_transpose (y, 0, 1, E);
  g_autoptr(GnnTensor) col = gnn_tensor_select (t, 0, 2, E);
  g_autoptr(GnnTensor) row = gnn_tensor_select (y, 0, 1, E);

  g_assert_true (gnn_tensor_mul_ (col, in[1], E));
  g_assert_true (gnn_tensor_sigmoid_ (row, E));
  return g_steal_pointer (&y);
}

static const Case cases[] = {
  { "view-mul_", b_view_mul_, 2, { { 3, 4 }, { 2 } }, { 2, 1 }, { 0, 0 } },
  { "buffer-copy_", b_buffer_copy_, 2, { { 4 }, { 4 } }, { 1, 1 }, { 0, 0 } },
  { "slice-step", b_slice, 1, { { 2, 5 } }, { 2 }, { 0 } },
  { "slice-add_", b_slice_add_, 2, { { 6, 2 }, { 2 } }, { 2, 1 }, { 0, 0 } },
  { "fill_-view", b_fill_view, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "zero_", b_zero, 1, { { 4 } }, { 1 }, { 0 } },
  { "view-read-after-write", b_view_read, 1, { { 3, 2 } }, { 2 }, { 0 } },
  { "two-writes", b_two_writes, 2, { { 3, 4 }, { 3 } }, { 2, 1 }, { 0, 0 } },
};

static void
test_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_ones (SHAPE (3), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) v = NULL;

  gnn_tensor_set_requires_grad (x, TRUE);
  y = gnn_tensor_mul_scalar (x, 2.0, NULL);
  v = gnn_tensor_narrow (y, 0, 1, 2, NULL);
  g_assert_true (gnn_tensor_mul_ (v, y, &error) || error != NULL);
  g_clear_error (&error);
  g_clear_object (&v);
  v = gnn_tensor_narrow (y, 0, 1, 2, NULL);
  g_assert_true (gnn_tensor_fill_ (v, 1.0, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "CopySlices");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (v), ==, "AsStridedBackward0");
  g_assert_true (gnn_tensor_fill_ (y, 1.0, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "FillBackward2");
  g_assert_true (gnn_tensor_zero_ (y, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "ZeroBackward0");
}

static void
test_leaf_view_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_ones (SHAPE (3), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) v = NULL;

  gnn_tensor_set_requires_grad (x, TRUE);
  v = gnn_tensor_narrow (x, 0, 0, 2, NULL);
  g_assert_false (gnn_tensor_fill_ (v, 0.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==,
                   "a view of a leaf Variable that requires grad is being used in an in-place "
                   "operation.");
  /* under no_grad it is an ordinary write */
  g_clear_error (&error);
  gnn_no_grad_push ();
  g_assert_true (gnn_tensor_fill_ (v, 0.0, &error));
  gnn_no_grad_pop ();
  g_assert_no_error (error);
}

static void
test_retain_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_ones (SHAPE (2), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) z = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autofree double *g = NULL;

  gnn_tensor_set_requires_grad (x, TRUE);
  y = gnn_tensor_mul_scalar (x, 2.0, NULL);
  gnn_tensor_retain_grad (y);
  g_assert_true (gnn_tensor_get_retains_grad (y));
  g_assert_false (gnn_tensor_get_retains_grad (x));
  /* an in-place op keeps it on the new node */
  g_assert_true (gnn_tensor_mul_ (y, y, &error) || TRUE);
  g_clear_error (&error);
  z = gnn_tensor_mul_scalar (y, 3.0, NULL);
  loss = gnn_tensor_sum (z, NULL, 0, FALSE, NULL);
  g_assert_true (gnn_tensor_backward (loss, NULL, TRUE, &error));
  g_assert_no_error (error);
  g_assert_nonnull (gnn_tensor_get_grad (y));
  g = gnn_tensor_to_doubles (gnn_tensor_get_grad (y), NULL);
  g_assert_cmpfloat (g[0], ==, 3.0);
  g_clear_pointer (&g, g_free);
  /* accumulates over backward calls, as a leaf's */
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g = gnn_tensor_to_doubles (gnn_tensor_get_grad (y), NULL);
  g_assert_cmpfloat (g[1], ==, 6.0);
}

static void
test_detach_ (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_ones (SHAPE (4), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) v = NULL;

  gnn_tensor_set_requires_grad (x, TRUE);
  y = gnn_tensor_mul_scalar (x, 2.0, NULL);
  v = gnn_tensor_narrow (y, 0, 0, 2, NULL);
  g_assert_false (gnn_tensor_detach_ (v, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_true (g_str_has_prefix (error->message, "Can't detach views in-place."));
  g_clear_error (&error);
  g_assert_true (gnn_tensor_detach_ (y, &error));
  g_assert_false (gnn_tensor_get_requires_grad (y));
  g_assert_true (gnn_tensor_is_leaf (y));
}

static void
test_slice_view (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_arange (0, 10, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) s = gnn_tensor_slice (t, 0, 1, 100, 3, &error);
  g_autofree double *v = NULL;
  gsize n = 0;

  g_assert_no_error (error);
  v = gnn_tensor_to_doubles (s, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (v[0], ==, 1);
  g_assert_cmpfloat (v[2], ==, 7);
  /* a view: writes reach t */
  g_assert_true (gnn_tensor_fill_ (s, -1, &error));
  g_clear_pointer (&v, g_free);
  v = gnn_tensor_to_doubles (t, NULL);
  g_assert_cmpfloat (v[4], ==, -1);
  g_assert_cmpfloat (v[5], ==, 5);
  g_clear_object (&s);
  s = gnn_tensor_slice (t, 0, 0, 5, 0, &error);
  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "slice step must be positive");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/autograd/views/%s", cases[i].path);

      g_test_add_data_func (path, &cases[i], test_gradcheck);
    }
  g_test_add_func ("/autograd/views/names", test_names);
  g_test_add_func ("/autograd/views/leaf-view-refused", test_leaf_view_refused);
  g_test_add_func ("/autograd/views/retain-grad", test_retain_grad);
  g_test_add_func ("/autograd/views/detach_", test_detach_);
  g_test_add_func ("/tensor/slice/view", test_slice_view);
  return g_test_run ();
}
