/* test-autograd-shape.c: gradient checks of the rearrangements (flip,
 * roll, tril/triu, repeat, split/chunk/unbind, masked_select, diagonal,
 * diag, trace) and the products (mm, bmm, addmm, baddbmm, outer, dot, mv,
 * einsum).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "gradcheck-util.h"

#define E error

static GnnTensor *b_flip (GnnTensor **in, GError **E) { return gnn_tensor_flip (in[0], (gint[]) { 0, -1 }, 2, E); }
static GnnTensor *b_roll (GnnTensor **in, GError **E) { return gnn_tensor_roll (in[0], (gint64[]) { 1, -2 }, 2, (gint[]) { 0, 1 }, 2, E); }
static GnnTensor *b_roll_flat (GnnTensor **in, GError **E) { return gnn_tensor_roll (in[0], (gint64[]) { 5 }, 1, NULL, 0, E); }
static GnnTensor *b_tril (GnnTensor **in, GError **E) { return gnn_tensor_tril (in[0], 1, E); }
static GnnTensor *b_triu (GnnTensor **in, GError **E) { return gnn_tensor_triu (in[0], -1, E); }
static GnnTensor *b_repeat (GnnTensor **in, GError **E) { return gnn_tensor_repeat (in[0], (gint64[]) { 2, 1, 3 }, 3, E); }
static GnnTensor *
b_split (GnnTensor **in, GError **E)
{
  g_autoptr(GPtrArray) pieces = gnn_tensor_split (in[0], 2, 1, E);
  GnnTensor *out;

  out = gnn_tensor_cat ((GnnTensor **) pieces->pdata + 1, pieces->len - 1, 1, E);
  g_ptr_array_foreach (pieces, (GFunc) (void (*) (void)) g_object_unref, NULL);
  return out;
}
static GnnTensor *
b_unbind (GnnTensor **in, GError **E)
{
  g_autoptr(GPtrArray) slices = gnn_tensor_unbind (in[0], 0, E);
  GnnTensor *out = gnn_tensor_mul (slices->pdata[0], slices->pdata[2], E);

  g_ptr_array_foreach (slices, (GFunc) (void (*) (void)) g_object_unref, NULL);
  return out;
}
static GnnTensor *
b_masked_select (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) pattern = gnn_tensor_new_from_int64s ((gint64[]) { 1, 0, 1, 1 }, 4,
                                                             SHAPE (4), NULL);
  g_autoptr(GnnTensor) mask = gnn_tensor_to_dtype (pattern, GNN_DTYPE_BOOL, E);

  return gnn_tensor_masked_select (in[0], mask, E);
}
static GnnTensor *b_diagonal (GnnTensor **in, GError **E) { return gnn_tensor_diagonal (in[0], -1, 1, 2, E); }
static GnnTensor *b_diag_vec (GnnTensor **in, GError **E) { return gnn_tensor_diag (in[0], 1, E); }
static GnnTensor *b_diag_mat (GnnTensor **in, GError **E) { return gnn_tensor_diag (in[0], 0, E); }
static GnnTensor *b_trace (GnnTensor **in, GError **E) { return gnn_tensor_trace (in[0], E); }
static GnnTensor *b_mm (GnnTensor **in, GError **E) { return gnn_tensor_mm (in[0], in[1], E); }
static GnnTensor *b_bmm (GnnTensor **in, GError **E) { return gnn_tensor_bmm (in[0], in[1], E); }
static GnnTensor *b_addmm (GnnTensor **in, GError **E) { return gnn_tensor_addmm (in[0], in[1], in[2], 0.5, -2, E); }
static GnnTensor *b_baddbmm (GnnTensor **in, GError **E) { return gnn_tensor_baddbmm (in[0], in[1], in[2], 2, 0.5, E); }
static GnnTensor *b_outer (GnnTensor **in, GError **E) { return gnn_tensor_outer (in[0], in[1], E); }
static GnnTensor *b_dot (GnnTensor **in, GError **E) { return gnn_tensor_dot (in[0], in[1], E); }
static GnnTensor *b_mv (GnnTensor **in, GError **E) { return gnn_tensor_mv (in[0], in[1], E); }
static GnnTensor *b_einsum_mm (GnnTensor **in, GError **E) { return gnn_tensor_einsum ("ij,jk->ik", in, 2, E); }
static GnnTensor *b_einsum_bmm (GnnTensor **in, GError **E) { return gnn_tensor_einsum ("bij,bjk->bki", in, 2, E); }
static GnnTensor *b_einsum_diag (GnnTensor **in, GError **E) { return gnn_tensor_einsum ("ii->i", in, 1, E); }
static GnnTensor *b_einsum_three (GnnTensor **in, GError **E) { return gnn_tensor_einsum ("ab,bc,c->a", in, 3, E); }
static GnnTensor *b_einsum_ellipsis (GnnTensor **in, GError **E) { return gnn_tensor_einsum ("...i,...i->...", in, 2, E); }
#undef E

static const Case cases[] = {
  { "flip", b_flip, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "roll", b_roll, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "roll/flat", b_roll_flat, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "tril", b_tril, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "triu", b_triu, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "repeat", b_repeat, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "split", b_split, 1, { { 2, 5 } }, { 2 }, { 0 } },
  { "unbind", b_unbind, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "masked-select", b_masked_select, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "diagonal", b_diagonal, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "diag/vector", b_diag_vec, 1, { { 3 } }, { 1 }, { 0 } },
  { "diag/matrix", b_diag_mat, 1, { { 3, 4 } }, { 2 }, { 0 } },
  { "trace", b_trace, 1, { { 3, 3 } }, { 2 }, { 0 } },
  { "mm", b_mm, 2, { { 3, 4 }, { 4, 2 } }, { 2, 2 }, { 0, 0 } },
  { "bmm", b_bmm, 2, { { 2, 3, 4 }, { 2, 4, 2 } }, { 3, 3 }, { 0, 0 } },
  { "addmm", b_addmm, 3, { { 2 }, { 3, 4 }, { 4, 2 } }, { 1, 2, 2 }, { 0, 0, 0 } },
  { "baddbmm", b_baddbmm, 3, { { 2, 3, 2 }, { 2, 3, 4 }, { 2, 4, 2 } }, { 3, 3, 3 }, { 0, 0, 0 } },
  { "outer", b_outer, 2, { { 3 }, { 4 } }, { 1, 1 }, { 0, 0 } },
  { "dot", b_dot, 2, { { 4 }, { 4 } }, { 1, 1 }, { 0, 0 } },
  { "mv", b_mv, 2, { { 3, 4 }, { 4 } }, { 2, 1 }, { 0, 0 } },
  { "einsum/mm", b_einsum_mm, 2, { { 3, 4 }, { 4, 2 } }, { 2, 2 }, { 0, 0 } },
  { "einsum/bmm", b_einsum_bmm, 2, { { 2, 3, 4 }, { 2, 4, 2 } }, { 3, 3 }, { 0, 0 } },
  { "einsum/diagonal", b_einsum_diag, 1, { { 3, 3 } }, { 2 }, { 0 } },
  { "einsum/three", b_einsum_three, 3, { { 2, 3 }, { 3, 4 }, { 4 } }, { 2, 2, 1 }, { 0, 0, 0 } },
  { "einsum/ellipsis", b_einsum_ellipsis, 2, { { 2, 3, 4 }, { 3, 4 } }, { 3, 2 }, { 0, 0 } },
};

/* torch's messages. */
static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) m23 = gnn_tensor_zeros (SHAPE (2, 3), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b223 = gnn_tensor_zeros (SHAPE (2, 2, 3), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b334 = gnn_tensor_zeros (SHAPE (3, 3, 4), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) m44 = gnn_tensor_zeros (SHAPE (4, 4), GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) d32 = gnn_tensor_zeros (SHAPE (3, 2), GNN_DTYPE_F64, NULL);

  g_assert_null (gnn_tensor_mm (m23, m23, &error));
  g_assert_cmpstr (error->message, ==, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_mm (m23, d32, &error));
  g_assert_cmpstr (error->message, ==, "expected scalar type Float but found Double");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bmm (b223, b334, &error));
  g_assert_cmpstr (error->message, ==, "Expected size for first two dimensions of batch2 tensor to "
                   "be: [2, 3] but got: [3, 3].");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bmm (m23, b334, &error));
  g_assert_cmpstr (error->message, ==, "batch1 must be a 3D tensor");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_einsum ("ij,jk->ik", (GnnTensor *[]) { m23, m44 }, 2, &error));
  g_assert_cmpstr (error->message, ==, "einsum(): subscript j has size 4 for operand 1 which does "
                   "not broadcast with previously seen size 3");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_repeat (b223, (gint64[]) { 2 }, 1, &error));
  g_assert_cmpstr (error->message, ==, "Number of dimensions of repeat dims can not be smaller than "
                   "number of dimensions of tensor");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_flip (m23, (gint[]) { 0, 0 }, 2, &error));
  g_assert_cmpstr (error->message, ==, "dim 0 appears multiple times in the list of dims");
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
  g_test_add_func ("/tensor/shape-products/errors", test_errors);
  return g_test_run ();
}
