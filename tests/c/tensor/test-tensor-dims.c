/* test-tensor-dims.c: every operation that takes a dimension refuses one
 * out of range with PyTorch's IndexError text, never wrapping it around
 * (gnn_wrap_dim, exported as gnn_tensor_wrap_dim for bindings), and
 * accepts the whole range [-ndim, ndim - 1].
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

#include "gnn-test-util.h"

typedef GnnTensor *(*DimOp) (GnnTensor *x, gint dim, GError **error);

static GnnTensor *op_sum (GnnTensor *x, gint d, GError **e) { return gnn_tensor_sum (x, &d, 1, FALSE, e); }
static GnnTensor *op_mean (GnnTensor *x, gint d, GError **e) { return gnn_tensor_mean (x, &d, 1, TRUE, e); }
static GnnTensor *op_max (GnnTensor *x, gint d, GError **e) { return gnn_tensor_max (x, &d, 1, FALSE, e); }
static GnnTensor *op_min (GnnTensor *x, gint d, GError **e) { return gnn_tensor_min (x, &d, 1, FALSE, e); }
static GnnTensor *op_argmax (GnnTensor *x, gint d, GError **e) { return gnn_tensor_argmax (x, d, FALSE, e); }
static GnnTensor *op_softmax (GnnTensor *x, gint d, GError **e) { return gnn_tensor_softmax (x, d, e); }
static GnnTensor *op_log_softmax (GnnTensor *x, gint d, GError **e) { return gnn_tensor_log_softmax (x, d, e); }
static GnnTensor *op_narrow (GnnTensor *x, gint d, GError **e) { return gnn_tensor_narrow (x, d, 0, 1, e); }
static GnnTensor *op_select (GnnTensor *x, gint d, GError **e) { return gnn_tensor_select (x, d, 0, e); }
static GnnTensor *op_squeeze (GnnTensor *x, gint d, GError **e) { return gnn_tensor_squeeze (x, d, e); }
static GnnTensor *op_transpose0 (GnnTensor *x, gint d, GError **e) { return gnn_tensor_transpose (x, d, 0, e); }
static GnnTensor *op_transpose1 (GnnTensor *x, gint d, GError **e) { return gnn_tensor_transpose (x, 0, d, e); }
static GnnTensor *op_flatten0 (GnnTensor *x, gint d, GError **e) { return gnn_tensor_flatten (x, d, -1, e); }
static GnnTensor *op_flatten1 (GnnTensor *x, gint d, GError **e) { return gnn_tensor_flatten (x, 0, d, e); }
static GnnTensor *op_cat (GnnTensor *x, gint d, GError **e) { GnnTensor *t[2] = { x, x }; return gnn_tensor_cat (t, 2, d, e); }

static GnnTensor *
op_permute (GnnTensor *x, gint d, GError **e)
{
  gint dims[2] = { d == 0 || d == -2 ? 1 : 0, d };

  return gnn_tensor_permute (x, dims, 2, e);
}

static GnnTensor *
op_index_select (GnnTensor *x, gint d, GError **e)
{
  g_autoptr(GnnTensor) idx = gnn_tensor_new_from_int64s ((gint64[]) { 0 }, 1, (gint64[]) { 1 }, 1, NULL);

  return gnn_tensor_index_select (x, d, idx, e);
}

/* wrap_dim itself, through the result's shape: [d] */
static GnnTensor *
op_wrap (GnnTensor *x, gint d, GError **e)
{
  gint w = gnn_tensor_wrap_dim (x, d, e);

  return w < 0 ? NULL : gnn_tensor_new_scalar (w, GNN_DTYPE_I64);
}

static GnnTensor *
op_size (GnnTensor *x, gint d, GError **e)
{
  gint64 n = gnn_tensor_get_size (x, d, e);

  return n < 0 ? NULL : gnn_tensor_new_scalar ((double) n, GNN_DTYPE_I64);
}

static const struct
{
  const char *name;
  DimOp       op;
} dim_ops[] = {
  { "sum", op_sum }, { "mean", op_mean }, { "max", op_max }, { "min", op_min },
  { "argmax", op_argmax }, { "softmax", op_softmax }, { "log_softmax", op_log_softmax },
  { "narrow", op_narrow }, { "select", op_select }, { "squeeze", op_squeeze },
  { "transpose (dim0)", op_transpose0 }, { "transpose (dim1)", op_transpose1 },
  { "flatten (start)", op_flatten0 }, { "flatten (end)", op_flatten1 }, { "cat", op_cat },
  { "permute", op_permute }, { "index_select", op_index_select }, { "wrap_dim", op_wrap },
  { "get_size", op_size },
};

/* On a [2, 3] tensor: -2 .. 1 work; 2, -3, 5, G_MAXINT and G_MININT fail
 * with torch's text, naming the range and the bad value. */
static void
test_out_of_range (void)
{
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 2, 3 }, 2);
  const gint bad[] = { 2, -3, 5, G_MAXINT, G_MININT };

  for (guint i = 0; i < G_N_ELEMENTS (dim_ops); i++)
    {
      for (gint d = -2; d <= 1; d++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GnnTensor) y = dim_ops[i].op (x, d, &error);

          if (error != NULL)
            g_error ("%s (dim %d): %s", dim_ops[i].name, d, error->message);
          g_assert_nonnull (y);
        }
      for (guint b = 0; b < G_N_ELEMENTS (bad); b++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GnnTensor) y = dim_ops[i].op (x, bad[b], &error);
          g_autofree char *expected =
            g_strdup_printf ("Dimension out of range (expected to be in range of [-2, 1], but got %d)",
                             bad[b]);

          if (y != NULL)
            g_error ("%s accepted dim %d", dim_ops[i].name, bad[b]);
          g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
          g_assert_cmpstr (error->message, ==, expected);
        }
    }
}

/* A new dimension (unsqueeze, stack) ranges over ndim + 1 places. */
static void
test_new_dimension (void)
{
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 2, 3 }, 2);
  GnnTensor *pair[2] = { x, x };
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autoptr(GnnTensor) ok = gnn_tensor_unsqueeze (x, -3, NULL);
  g_autoptr(GnnTensor) ok2 = gnn_tensor_stack (pair, 2, 2, NULL);

  g_assert_nonnull (ok);
  g_assert_nonnull (ok2);
  g_assert_null (gnn_tensor_unsqueeze (x, 3, &error));
  g_assert_cmpstr (error->message, ==, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  g_assert_null (gnn_tensor_stack (pair, 2, -4, &error2));
  g_assert_cmpstr (error2->message, ==, "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
}

/* A 0-d tensor takes -1 and 0, as in PyTorch. */
static void
test_zero_dim (void)
{
  g_autoptr(GnnTensor) s = gnn_tensor_new_scalar (2.0, GNN_DTYPE_F32);
  g_autoptr(GError) error = NULL;
  gint d = 1;

  g_assert_cmpint (gnn_tensor_wrap_dim (s, -1, NULL), ==, 0);
  g_assert_cmpint (gnn_tensor_wrap_dim (s, 0, NULL), ==, 0);
  g_assert_null (gnn_tensor_sum (s, &d, 1, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/dims/out-of-range", test_out_of_range);
  g_test_add_func ("/tensor/dims/new-dimension", test_new_dimension);
  g_test_add_func ("/tensor/dims/zero-dim", test_zero_dim);
  return g_test_run ();
}
