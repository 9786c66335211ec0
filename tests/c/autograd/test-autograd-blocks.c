/* test-autograd-blocks.c: gradient checks and values of kron, block_diag,
 * diag_embed, rot90, take and masked_scatter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "gradcheck-util.h"

#define E error

static GnnTensor *b_kron (GnnTensor **in, GError **E) { return gnn_tensor_kron (in[0], in[1], E); }
static GnnTensor *b_block_diag (GnnTensor **in, GError **E) { return gnn_tensor_block_diag (in, 3, E); }
static GnnTensor *b_diag_embed (GnnTensor **in, GError **E) { return gnn_tensor_diag_embed (in[0], -1, 0, 2, E); }
static GnnTensor *b_rot90 (GnnTensor **in, GError **E) { return gnn_tensor_rot90 (in[0], 3, (gint[]) { 2, 0 }, 2, E); }
static GnnTensor *
b_take (GnnTensor **in, GError **E)
{
  g_autoptr(GnnTensor) index = gnn_tensor_new_from_int64s ((gint64[]) { 0, 5, -1, 0 }, 4,
                                                           (gint64[]) { 2, 2 }, 2, NULL);

  return gnn_tensor_take (in[0], index, E);
}
static GnnTensor *
b_masked_scatter (GnnTensor **in, GError **E)
{
  guint8 m[] = { 1, 0, 1 };
  g_autoptr(GnnTensor) mask = gnn_tensor_new_from_data (m, 3, GNN_DTYPE_BOOL, (gint64[]) { 3 }, 1, NULL);

  return gnn_tensor_masked_scatter (in[0], mask, in[1], E);
}
#undef E

static const Case cases[] = {
  { "kron", b_kron, 2, { { 2, 3 }, { 2, 2 } }, { 2, 2 }, { 0, 0 } },
  { "block-diag", b_block_diag, 3, { { 2, 3 }, { 2 }, { } }, { 2, 1, 0 }, { 0, 0, 0 } },
  { "diag-embed", b_diag_embed, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "rot90", b_rot90, 1, { { 2, 3, 4 } }, { 3 }, { 0 } },
  { "take", b_take, 1, { { 2, 3 } }, { 2 }, { 0 } },
  { "masked-scatter", b_masked_scatter, 2, { { 2, 3 }, { 6 } }, { 2, 1 }, { 0, 0 } },
};

static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_new_from_doubles ((double[]) { 1, 2, 3, 4 }, 4,
                                                        (gint64[]) { 2, 2 }, 2, NULL);
  g_autoptr(GnnTensor) eye = gnn_tensor_new_from_doubles ((double[]) { 0, 1, 1, 0 }, 4,
                                                          (gint64[]) { 2, 2 }, 2, NULL);
  g_autoptr(GnnTensor) k = gnn_tensor_kron (a, eye, &error);
  g_autoptr(GnnTensor) r = gnn_tensor_rot90 (a, 1, (gint[]) { 0, 1 }, 2, &error);
  g_autoptr(GnnTensor) bd = gnn_tensor_block_diag ((GnnTensor *[]) { a, eye }, 2, &error);

  g_assert_no_error (error);
  gnn_test_assert_values (k, (double[]) { 0, 1, 0, 2, 1, 0, 2, 0, 0, 3, 0, 4, 3, 0, 4, 0 }, 16, 0);
  gnn_test_assert_values (r, (double[]) { 2, 4, 1, 3 }, 4, 0);
  gnn_test_assert_values (bd, (double[]) { 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0 }, 16, 0);
  g_assert_null (gnn_tensor_rot90 (a, 1, (gint[]) { 0, 0 }, 2, &error));
  g_assert_cmpstr (error->message, ==,
                   "expected rotation dims to be different, but got dim0 = 0 and dim1 = 0");
}

static void
test_node_names (void)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *in[3] = { randn (SHAPE (2, 3), 0), randn (SHAPE (6), 0), NULL };
  g_autoptr(GnnTensor) d = b_diag_embed (in, &error);
  g_autoptr(GnnTensor) r = gnn_tensor_rot90 (in[0], 1, (gint[]) { 0, 1 }, 2, &error);
  g_autoptr(GnnTensor) t = b_take (in, &error);
  g_autoptr(GnnTensor) m = b_masked_scatter (in, &error);
  g_autoptr(GnnTensor) b = gnn_tensor_block_diag (in, 2, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (d), ==, "DiagEmbedBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (r), ==, "Rot90Backward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (t), ==, "TakeBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (m), ==, "MaskedScatterBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (b), ==, "BlockDiagBackward0");
  free_inputs (in, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/autograd/blocks/%s", cases[i].path);

      g_test_add_data_func (path, &cases[i], test_gradcheck);
    }
  g_test_add_func ("/autograd/blocks/values", test_values);
  g_test_add_func ("/autograd/blocks/node-names", test_node_names);
  return g_test_run ();
}
