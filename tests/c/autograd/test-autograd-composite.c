/* test-autograd-composite.c: the composite ops of gnn-tensor-composite.c —
 * gradient checks through the ops they are composed of (tile, broadcast,
 * meshgrid, the *stack ops, diff, tensor_split, repeat_interleave,
 * take_along_dim, cartesian_prod), values of the index forms, and torch's
 * messages.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "gradcheck-util.h"

#define E error

/* The last two pieces of an array multiplied: joins the array-returning
 * ops into one output. */
static GnnTensor *
product_of_last_two (GPtrArray *pieces, GError **E)
{
  GnnTensor *out;

  if (pieces == NULL)
    return NULL;
  out = gnn_tensor_mul (pieces->pdata[pieces->len - 2], pieces->pdata[pieces->len - 1], E);
  g_ptr_array_foreach (pieces, (GFunc) (void (*) (void)) g_object_unref, NULL);
  g_ptr_array_unref (pieces);
  return out;
}

static GnnTensor *b_tile (GnnTensor **in, GError **E) { return gnn_tensor_tile (in[0], (gint64[]) { 2, 1, 3 }, 3, E); }
static GnnTensor *b_broadcast (GnnTensor **in, GError **E) { return product_of_last_two (gnn_tensor_broadcast_tensors (in, 2, E), E); }
static GnnTensor *b_meshgrid (GnnTensor **in, GError **E) { return product_of_last_two (gnn_tensor_meshgrid (in, 2, "xy", E), E); }
static GnnTensor *b_hstack (GnnTensor **in, GError **E) { return gnn_tensor_hstack (in, 2, E); }
static GnnTensor *b_dstack (GnnTensor **in, GError **E) { return gnn_tensor_dstack (in, 2, E); }
static GnnTensor *b_column_stack (GnnTensor **in, GError **E) { return gnn_tensor_column_stack (in, 2, E); }
static GnnTensor *b_diff (GnnTensor **in, GError **E) { return gnn_tensor_diff (in[0], 2, 0, in[1], NULL, E); }
static GnnTensor *b_tensor_split (GnnTensor **in, GError **E) { return product_of_last_two (gnn_tensor_tensor_split (in[0], 3, 1, E), E); }
static GnnTensor *
b_repeat_interleave (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) counts = gnn_tensor_new_from_int64s ((gint64[]) { 2, 0, 1 }, 3, SHAPE (3), NULL);

  return gnn_tensor_repeat_interleave (in[0], counts, 0, 0, FALSE, E);
}
static GnnTensor *
b_take_along_dim (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) idx = gnn_tensor_new_from_int64s ((gint64[]) { 3, 0, 0 }, 3, SHAPE (1, 3), NULL);

  return gnn_tensor_take_along_dim (in[0], idx, 0, FALSE, E);
}
static GnnTensor *b_cartesian (GnnTensor **in, GError **E) { return gnn_tensor_cartesian_prod (in, 2, E); }
#undef E

static const Case cases[] = {
  { "tile", b_tile, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "broadcast-tensors", b_broadcast, 2, { { 3, 1 }, { 4 } }, { 2, 1 }, { 0, 0 } },
  { "meshgrid/xy", b_meshgrid, 2, { { 3 }, { 2 } }, { 1, 1 }, { 0, 0 } },
  { "hstack", b_hstack, 2, { { 2, 3 }, { 2, 1 } }, { 2, 2 }, { 0, 0 } },
  { "dstack", b_dstack, 2, { { 2, 3 }, { 2, 3 } }, { 2, 2 }, { 0, 0 } },
  { "column-stack", b_column_stack, 2, { { 3 }, { 3, 2 } }, { 1, 2 }, { 0, 0 } },
  { "diff", b_diff, 2, { { 4, 3 }, { 1, 3 } }, { 2, 2 }, { 0, 0 } },
  { "tensor-split", b_tensor_split, 1, { { 2, 7 } }, { 2 }, { 0 } },
  { "repeat-interleave", b_repeat_interleave, 1, { { 3, 2 } }, { 2 }, { 0 } },
  { "take-along-dim", b_take_along_dim, 1, { { 4, 3 } }, { 2 }, { 0 } },
  { "cartesian-prod", b_cartesian, 2, { { 3 }, { 2 } }, { 1, 1 }, { 0, 0 } },
};

static void
assert_int64s (GnnTensor *t, const gint64 *want, gsize n)
{
  g_autoptr(GnnTensor) c = gnn_tensor_contiguous (t);

  g_assert_cmpint (gnn_tensor_get_numel (t), ==, (gint64) n);
  g_assert_cmpmem (gnn_tensor_get_data (c), n * sizeof (gint64), want, n * sizeof (gint64));
}

static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) counts = gnn_tensor_new_from_int64s ((gint64[]) { 2, 0, 3 }, 3, SHAPE (3), NULL);
  g_autoptr(GnnTensor) index = gnn_tensor_repeat_interleave_index (counts, &error);
  g_autoptr(GnnTensor) seven = gnn_tensor_arange (0, 7, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GPtrArray) pieces = NULL;
  g_autoptr(GnnTensor) bools = gnn_tensor_new_from_int64s ((gint64[]) { 1, 0, 0, 1 }, 4, SHAPE (4), NULL);
  g_autoptr(GnnTensor) mask = gnn_tensor_to_dtype (bools, GNN_DTYPE_BOOL, NULL);
  g_autoptr(GnnTensor) flips = NULL;
  g_autoptr(GnnTensor) flips64 = NULL;
  g_autoptr(GnnTensor) scalar = gnn_tensor_new_scalar (2, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) cube = gnn_tensor_atleast_nd (scalar, 3, &error);

  g_assert_no_error (error);
  assert_int64s (index, (gint64[]) { 0, 0, 2, 2, 2 }, 5);
  /* 7 in 3 sections: 3, 2, 2; indices past the end or going back give
   * empty pieces, the last piece starts at the last index */
  pieces = gnn_tensor_tensor_split (seven, 3, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pieces->len, ==, 3);
  assert_int64s (pieces->pdata[0], (gint64[]) { 0, 1, 2 }, 3);
  assert_int64s (pieces->pdata[2], (gint64[]) { 5, 6 }, 2);
  g_ptr_array_foreach (pieces, (GFunc) (void (*) (void)) g_object_unref, NULL);
  g_clear_pointer (&pieces, g_ptr_array_unref);
  pieces = gnn_tensor_tensor_split_indices (seven, (gint64[]) { 2, 9, 1 }, 3, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pieces->len, ==, 4);
  g_assert_cmpint (gnn_tensor_get_numel (pieces->pdata[1]), ==, 5);
  g_assert_cmpint (gnn_tensor_get_numel (pieces->pdata[2]), ==, 0);
  g_assert_cmpint (gnn_tensor_get_numel (pieces->pdata[3]), ==, 6);   /* x[1:], as torch */
  g_ptr_array_foreach (pieces, (GFunc) (void (*) (void)) g_object_unref, NULL);
  /* bool differences are xor */
  flips = gnn_tensor_diff (mask, 1, -1, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (flips), ==, GNN_DTYPE_BOOL);
  flips64 = gnn_tensor_to_dtype (flips, GNN_DTYPE_I64, NULL);
  assert_int64s (flips64, (gint64[]) { 1, 0, 1 }, 3);
  g_assert_cmpuint (gnn_tensor_get_ndim (cube), ==, 3);
}

/* torch's messages. */
static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) m32 = gnn_tensor_zeros (SHAPE (3, 2), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) v2 = gnn_tensor_zeros (SHAPE (2), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) v3 = gnn_tensor_zeros (SHAPE (3), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) counts = gnn_tensor_new_from_int64s ((gint64[]) { 1, 2 }, 2, SHAPE (2), NULL);
  g_autoptr(GnnTensor) i32 = gnn_tensor_to_dtype (counts, GNN_DTYPE_I32, NULL);
  g_autoptr(GnnTensor) scalar = gnn_tensor_new_scalar (1, GNN_DTYPE_F32);

  g_assert_null (gnn_tensor_repeat_interleave (m32, counts, 0, 0, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "repeats must have the same size as input along dim");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_repeat_interleave (m32, v3, 0, 0, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "\"repeat_interleave_cpu\" not implemented for 'Float'");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_repeat_interleave (m32, NULL, -1, 0, TRUE, &error));
  g_assert_cmpstr (error->message, ==, "repeats can not be negative");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_meshgrid ((GnnTensor *[]) { v2, counts }, 2, "ij", &error));
  g_assert_cmpstr (error->message, ==, "meshgrid expects all tensors to have the same dtype");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_meshgrid ((GnnTensor *[]) { v2 }, 1, "yx", &error));
  g_assert_cmpstr (error->message, ==, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", "
                   "but received: yx");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_cartesian_prod ((GnnTensor *[]) { m32, v2 }, 2, &error));
  g_assert_cmpstr (error->message, ==, "Expect a 1D vector, but got shape [3, 2]");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_diff (scalar, 1, -1, NULL, NULL, &error));
  g_assert_cmpstr (error->message, ==, "diff expects input to be at least one-dimensional");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_diff (m32, 1, -1, v2, NULL, &error));
  g_assert_cmpstr (error->message, ==, "diff expects prepend or append to be the same dimension "
                   "as input");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_tensor_split (m32, 0, 0, &error));
  g_assert_cmpstr (error->message, ==, "number of sections must be larger than 0, got 0");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_take_along_dim (m32, i32, 1, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "torch.take_along_dim(): dtype of indices should be Long "
                   "but got Int");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_take_along_dim (m32, counts, 1, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "torch.take_along_dim(): input and indices should have the "
                   "same number of dimensions, but got 2 dimensions for input, and 1 dimensions "
                   "for indices");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_vstack (NULL, 0, &error));
  g_assert_cmpstr (error->message, ==, "vstack expects a non-empty TensorList");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_broadcast_tensors ((GnnTensor *[]) { v2, v3 }, 2, &error));
  g_assert_cmpstr (error->message, ==, "The size of tensor a (2) must match the size of tensor b "
                   "(3) at non-singleton dimension 0");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/autograd/gradcheck/%s", cases[i].path);

      g_test_add_data_func (path, &cases[i], test_gradcheck);
    }
  g_test_add_func ("/tensor/composite/values", test_values);
  g_test_add_func ("/tensor/composite/errors", test_errors);
  return g_test_run ();
}
