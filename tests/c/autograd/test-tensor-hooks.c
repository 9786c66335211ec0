/* test-tensor-hooks.c: gnn_tensor_register_hook from C: a closure sees the
 * gradient of a leaf and of a non-leaf, a returned tensor replaces it
 * downstream, retain_grad keeps the gradient of its place in the hook
 * order (torch 1.13's), removal and user_data's notify
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "gradcheck-util.h"

typedef struct
{
  guint  calls;
  double first;
  double scale;
  guint  freed;
} Probe;

static GnnTensor *
probe_hook (GnnTensor *grad,
            gpointer   user_data)
{
  Probe *p = user_data;
  g_autofree double *g = gnn_tensor_to_doubles (grad, NULL);

  p->calls++;
  p->first = g[0];
  return p->scale != 1.0 ? gnn_tensor_mul_scalar (grad, p->scale, NULL) : NULL;
}

static void
probe_free (gpointer user_data)
{
  ((Probe *) user_data)->freed++;
}

static GnnTensor *
leaf3 (void)
{
  GnnTensor *x = gnn_tensor_new_from_doubles ((double[]) { 1, 2, 3 }, 3, (gint64[]) { 3 }, 1, NULL);

  gnn_tensor_set_requires_grad (x, TRUE);
  return x;
}

static void
backward_sum (GnnTensor *y)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_sum (y, NULL, 0, FALSE, &error);

  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
}

static void
test_leaf_and_non_leaf (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf3 ();
  g_autoptr(GnnTensor) y = NULL;
  Probe on_x = { .scale = 1.0 }, on_y = { .scale = 3.0 };
  guint id;

  id = gnn_tensor_register_hook (x, probe_hook, &on_x, probe_free, &error);
  g_assert_cmpuint (id, >, 0);
  y = gnn_tensor_mul (x, x, &error);
  gnn_tensor_retain_grad (y);                 /* before the hook: the hook's input */
  g_assert_cmpuint (gnn_tensor_register_hook (y, probe_hook, &on_y, NULL, &error), >, 0);
  g_assert_no_error (error);
  backward_sum (y);
  g_assert_cmpuint (on_y.calls, ==, 1);
  g_assert_cmpfloat (on_y.first, ==, 1.0);
  g_assert_cmpuint (on_x.calls, ==, 1);
  g_assert_cmpfloat (on_x.first, ==, 6.0);     /* 2x · 3 */
  gnn_test_assert_values (gnn_tensor_get_grad (x), (double[]) { 6, 12, 18 }, 3, 0);
  gnn_test_assert_values (gnn_tensor_get_grad (y), (double[]) { 1, 1, 1 }, 3, 0);
  gnn_tensor_remove_hook (x, id);
  g_assert_cmpuint (on_x.freed, ==, 1);
  gnn_tensor_remove_hook (x, id);             /* twice: ignored */
  {
    g_autoptr(GnnTensor) z = gnn_tensor_mul (x, x, &error);

    backward_sum (z);
  }
  g_assert_cmpuint (on_x.calls, ==, 1);
}

static void
test_refused_without_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL);
  Probe p = { .scale = 1.0 };

  g_assert_cmpuint (gnn_tensor_register_hook (t, probe_hook, &p, probe_free, &error), ==, 0);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpuint (p.freed, ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/autograd/tensor-hooks/leaf-and-non-leaf", test_leaf_and_non_leaf);
  g_test_add_func ("/autograd/tensor-hooks/refused-without-grad", test_refused_without_grad);
  return g_test_run ();
}
