/* Matrix products with torch.matmul semantics. Expected numbers come from
 * torch 1.13 on the same arange inputs. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

#define AR(dtype, ...) \
  gnn_test_arange (dtype, 0, (gint64[]) { __VA_ARGS__ }, sizeof ((gint64[]) { __VA_ARGS__ }) / sizeof (gint64))

static double
total (GnnTensor *t)
{
  g_autoptr(GnnTensor) s = gnn_tensor_sum (t, NULL, 0, FALSE, NULL);
  return gnn_tensor_item (s, NULL);
}

static const double expected_2x3_3x4[] = { 20, 23, 26, 29, 56, 68, 80, 92 };

static void
test_matmul_2d (void)
{
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F32, 2, 3);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 3, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_F32);
  gnn_test_assert_shape (c, (gint64[]) { 2, 4 }, 2);
  gnn_test_assert_values (c, expected_2x3_3x4, 8, 0);
}

static void
test_matmul_2d_f64 (void)
{
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F64, 2, 3);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F64, 3, 4);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_F64);
  gnn_test_assert_values (c, expected_2x3_3x4, 8, 0);
}

static void
test_matmul_int (void)
{
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_I64, 2, 3);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_I64, 3, 4);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, NULL);
  g_autoptr(GnnTensor) a32 = AR (GNN_DTYPE_I32, 2, 3);
  g_autoptr(GnnTensor) b32 = AR (GNN_DTYPE_I32, 3, 4);
  g_autoptr(GnnTensor) bt = gnn_tensor_transpose (b32, 0, 1, NULL);
  g_autoptr(GnnTensor) btt = gnn_tensor_transpose (bt, 0, 1, NULL);
  g_autoptr(GnnTensor) c32 = gnn_tensor_matmul (a32, btt, NULL);

  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_I64);
  gnn_test_assert_values (c, expected_2x3_3x4, 8, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (c32), ==, GNN_DTYPE_I32);
  gnn_test_assert_values (c32, expected_2x3_3x4, 8, 0);
}

static void
test_matmul_dot (void)
{
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F32, 5);
  g_autoptr(GnnTensor) b = gnn_tensor_add_scalar (a, 1, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, NULL);
  g_autoptr(GnnTensor) ai = AR (GNN_DTYPE_I64, 5);
  g_autoptr(GnnTensor) ci = gnn_tensor_matmul (ai, ai, NULL);

  gnn_test_assert_shape (c, NULL, 0);
  g_assert_cmpfloat (gnn_tensor_item (c, NULL), ==, 40);
  gnn_test_assert_shape (ci, NULL, 0);
  g_assert_cmpfloat (gnn_tensor_item (ci, NULL), ==, 30);
}

static void
test_matmul_vector_matrix (void)
{
  g_autoptr(GnnTensor) v = AR (GNN_DTYPE_F32, 3);
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F32, 2, 3);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 3, 4);
  g_autoptr(GnnTensor) vm = gnn_tensor_matmul (v, b, NULL);
  g_autoptr(GnnTensor) mv = gnn_tensor_matmul (a, v, NULL);

  gnn_test_assert_shape (vm, (gint64[]) { 4 }, 1);
  gnn_test_assert_values (vm, (double[]) { 20, 23, 26, 29 }, 4, 0);
  gnn_test_assert_shape (mv, (gint64[]) { 2 }, 1);
  gnn_test_assert_values (mv, (double[]) { 5, 14 }, 2, 0);
}

static void
test_matmul_strided_vector (void)
{
  /* col = arange (12).reshape (3, 4)[:, 1], stride 4 */
  g_autoptr(GnnTensor) m = AR (GNN_DTYPE_F32, 3, 4);
  g_autoptr(GnnTensor) col = gnn_tensor_select (m, 1, 1, NULL);
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F32, 2, 3);
  g_autoptr(GnnTensor) mv = gnn_tensor_matmul (a, col, NULL);
  g_autoptr(GnnTensor) vm = gnn_tensor_matmul (col, m, NULL);

  gnn_test_assert_values (mv, (double[]) { 23, 68 }, 2, 0);
  gnn_test_assert_values (vm, (double[]) { 92, 107, 122, 137 }, 4, 0);
}

static void
test_matmul_batched_shared_matrix (void)
{
  g_autoptr(GnnTensor) x = AR (GNN_DTYPE_F32, 2, 2, 3);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 3, 4);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (x, b, NULL);
  g_autoptr(GnnTensor) row = gnn_tensor_select (c, 0, 1, NULL);
  g_autoptr(GnnTensor) r11 = gnn_tensor_select (row, 0, 1, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 2, 4 }, 3);
  g_assert_cmpfloat (total (c), ==, 1580);
  gnn_test_assert_values (r11, (double[]) { 128, 158, 188, 218 }, 4, 0);
}

static void
test_matmul_batched_broadcast (void)
{
  /* [2, 1, 2, 3] @ ([3, 3, 4] - 5) -> [2, 3, 2, 4] */
  g_autoptr(GnnTensor) x = AR (GNN_DTYPE_F32, 2, 1, 2, 3);
  g_autoptr(GnnTensor) y0 = AR (GNN_DTYPE_F32, 3, 3, 4);
  g_autoptr(GnnTensor) y = gnn_tensor_add_scalar (y0, -5, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (x, y, NULL);
  g_autoptr(GnnTensor) c1 = gnn_tensor_select (c, 0, 1, NULL);
  g_autoptr(GnnTensor) c12 = gnn_tensor_select (c1, 0, 2, NULL);
  g_autoptr(GnnTensor) c0 = gnn_tensor_select (c, 0, 0, NULL);
  g_autoptr(GnnTensor) c01 = gnn_tensor_select (c0, 0, 1, NULL);
  g_autoptr(GnnTensor) c011 = gnn_tensor_select (c01, 0, 1, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3, 2, 4 }, 4);
  g_assert_cmpfloat (total (c), ==, 10284);
  gnn_test_assert_values (c12, (double[]) { 491, 512, 533, 554, 698, 728, 758, 788 }, 8, 0);
  gnn_test_assert_values (c011, (double[]) { 140, 152, 164, 176 }, 4, 0);
}

static void
test_matmul_batched_left_matrix (void)
{
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F32, 2, 3);
  g_autoptr(GnnTensor) y = AR (GNN_DTYPE_F32, 4, 3, 2);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, y, NULL);
  g_autoptr(GnnTensor) c3 = gnn_tensor_select (c, 0, 3, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 4, 2, 2 }, 3);
  g_assert_cmpfloat (total (c), ==, 1444);
  gnn_test_assert_values (c3, (double[]) { 64, 67, 244, 256 }, 4, 0);
}

static void
test_matmul_batched_vectors (void)
{
  g_autoptr(GnnTensor) v3 = AR (GNN_DTYPE_F32, 3);
  g_autoptr(GnnTensor) v4 = AR (GNN_DTYPE_F32, 4);
  g_autoptr(GnnTensor) y = AR (GNN_DTYPE_F32, 2, 3, 4);
  g_autoptr(GnnTensor) left = gnn_tensor_matmul (v3, y, NULL);
  g_autoptr(GnnTensor) right = gnn_tensor_matmul (y, v4, NULL);

  gnn_test_assert_shape (left, (gint64[]) { 2, 4 }, 2);
  gnn_test_assert_values (left, (double[]) { 20, 23, 26, 29, 56, 59, 62, 65 }, 8, 0);
  gnn_test_assert_shape (right, (gint64[]) { 2, 3 }, 2);
  gnn_test_assert_values (right, (double[]) { 14, 38, 62, 86, 110, 134 }, 6, 0);
}

static void
test_matmul_transposed_operands (void)
{
  /* ar(3, 2).t() @ ar(4, 3).t(): both go to BLAS as CblasTrans, no copy */
  g_autoptr(GnnTensor) a0 = AR (GNN_DTYPE_F32, 3, 2);
  g_autoptr(GnnTensor) b0 = AR (GNN_DTYPE_F32, 4, 3);
  g_autoptr(GnnTensor) a = gnn_tensor_transpose (a0, 0, 1, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_transpose (b0, 0, 1, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, NULL);
  g_autoptr(GnnTensor) ad = gnn_tensor_to_dtype (a0, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) adt = gnn_tensor_transpose (ad, 0, 1, NULL);
  g_autoptr(GnnTensor) bd = gnn_tensor_to_dtype (b, GNN_DTYPE_F64, NULL);   /* a packed copy */
  g_autoptr(GnnTensor) cd = gnn_tensor_matmul (adt, bd, NULL);
  const double expected[] = { 10, 28, 46, 64, 13, 40, 67, 94 };

  g_assert_false (gnn_tensor_is_contiguous (a));
  g_assert_false (gnn_tensor_is_contiguous (b));
  gnn_test_assert_shape (c, (gint64[]) { 2, 4 }, 2);
  gnn_test_assert_values (c, expected, 8, 0);
  gnn_test_assert_values (cd, expected, 8, 0);
}

static void
test_matmul_batched_transposed (void)
{
  g_autoptr(GnnTensor) x0 = AR (GNN_DTYPE_F32, 2, 3, 2);
  g_autoptr(GnnTensor) y0 = AR (GNN_DTYPE_F32, 2, 4, 3);
  g_autoptr(GnnTensor) x = gnn_tensor_transpose (x0, 1, 2, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_transpose (y0, 1, 2, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (x, y, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 2, 4 }, 3);
  gnn_test_assert_values (c, (double[]) { 10, 28, 46, 64, 13, 40, 67, 94,
                                 316, 388, 460, 532, 355, 436, 517, 598 }, 16, 0);
}

static void
test_matmul_narrowed_operand (void)
{
  /* ar(4, 6)[:, 1:4]: rows with a leading dimension larger than the width */
  g_autoptr(GnnTensor) big = AR (GNN_DTYPE_F32, 4, 6);
  g_autoptr(GnnTensor) n = gnn_tensor_narrow (big, 1, 1, 3, NULL);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 3, 4);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (n, b, NULL);

  gnn_test_assert_values (c, (double[]) { 32, 38, 44, 50, 104, 128, 152, 176,
                                 176, 218, 260, 302, 248, 308, 368, 428 }, 16, 0);
}

static void
test_matmul_packed_layout (void)
{
  /* ar(4, 6)[::2, ::2] through a view with steps in both dims: packed first */
  g_autoptr(GnnTensor) big = AR (GNN_DTYPE_F32, 4, 6);
  g_autoptr(GnnTensor) v = gnn_tensor_view (big, (gint64[]) { 2, 2, 3, 2 }, 4, NULL);
  g_autoptr(GnnTensor) s0 = gnn_tensor_select (v, 1, 0, NULL);     /* rows 0, 2 */
  g_autoptr(GnnTensor) s = gnn_tensor_select (s0, 2, 0, NULL);     /* cols 0, 2, 4 */
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 3, 4);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (s, b, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 2, 3 }, 2);
  gnn_test_assert_values (c, (double[]) { 40, 46, 52, 58, 184, 226, 268, 310 }, 8, 0);
}

static void
test_matmul_empty_inner_is_zeros (void)
{
  g_autoptr(GnnTensor) a = gnn_tensor_ones ((gint64[]) { 2, 0 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_ones ((gint64[]) { 0, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  gnn_test_assert_values (c, (double[]) { 0, 0, 0, 0, 0, 0 }, 6, 0);
}

static void
test_matmul_shape_mismatch_fails (void)
{
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F32, 2, 3);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 4, 5);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"));
}

static void
test_matmul_vector_mismatch_fails (void)
{
  g_autoptr(GnnTensor) v = AR (GNN_DTYPE_F32, 3);
  g_autoptr(GnnTensor) w = AR (GNN_DTYPE_F32, 4);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 4, 5);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GnnTensor) c1 = gnn_tensor_matmul (v, w, &e1);
  g_autoptr(GnnTensor) c2 = gnn_tensor_matmul (v, b, &e2);

  g_assert_null (c1);
  g_assert_error (e1, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (e1->message, "inconsistent tensor size, expected tensor [3] and src [4]"));
  g_assert_null (c2);
  g_assert_nonnull (strstr (e2->message, "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)"));
}

static void
test_matmul_batch_mismatch_fails (void)
{
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F32, 2, 2, 3);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 3, 3, 5);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message,
                            "The size of tensor a (2) must match the size of tensor b (3) "
                            "at non-singleton dimension 0"));
}

static void
test_matmul_scalar_fails (void)
{
  g_autoptr(GnnTensor) s = gnn_tensor_new_scalar (1, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F32, 2, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (s, b, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message,
                            "both arguments to matmul need to be at least 1D, but they are 0D and 2D"));
}

static void
test_matmul_dtype_mismatch_fails (void)
{
  g_autoptr(GnnTensor) a = AR (GNN_DTYPE_F32, 2, 3);
  g_autoptr(GnnTensor) b = AR (GNN_DTYPE_F64, 3, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==, "expected scalar type Float but found Double");
}

static void
test_matmul_bool_fails (void)
{
  g_autoptr(GnnTensor) a = gnn_tensor_ones ((gint64[]) { 2, 2 }, 2, GNN_DTYPE_BOOL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, a, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "not implemented for 'Bool'"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor/matmul/2d", test_matmul_2d);
  g_test_add_func ("/tensor/matmul/2d-f64", test_matmul_2d_f64);
  g_test_add_func ("/tensor/matmul/int", test_matmul_int);
  g_test_add_func ("/tensor/matmul/dot", test_matmul_dot);
  g_test_add_func ("/tensor/matmul/vector-matrix", test_matmul_vector_matrix);
  g_test_add_func ("/tensor/matmul/strided-vector", test_matmul_strided_vector);
  g_test_add_func ("/tensor/matmul/batched-shared-matrix", test_matmul_batched_shared_matrix);
  g_test_add_func ("/tensor/matmul/batched-broadcast", test_matmul_batched_broadcast);
  g_test_add_func ("/tensor/matmul/batched-left-matrix", test_matmul_batched_left_matrix);
  g_test_add_func ("/tensor/matmul/batched-vectors", test_matmul_batched_vectors);
  g_test_add_func ("/tensor/matmul/transposed-operands", test_matmul_transposed_operands);
  g_test_add_func ("/tensor/matmul/batched-transposed", test_matmul_batched_transposed);
  g_test_add_func ("/tensor/matmul/narrowed-operand", test_matmul_narrowed_operand);
  g_test_add_func ("/tensor/matmul/packed-layout", test_matmul_packed_layout);
  g_test_add_func ("/tensor/matmul/empty-inner-is-zeros", test_matmul_empty_inner_is_zeros);
  g_test_add_func ("/tensor/matmul/shape-mismatch-fails", test_matmul_shape_mismatch_fails);
  g_test_add_func ("/tensor/matmul/vector-mismatch-fails", test_matmul_vector_mismatch_fails);
  g_test_add_func ("/tensor/matmul/batch-mismatch-fails", test_matmul_batch_mismatch_fails);
  g_test_add_func ("/tensor/matmul/scalar-fails", test_matmul_scalar_fails);
  g_test_add_func ("/tensor/matmul/dtype-mismatch-fails", test_matmul_dtype_mismatch_fails);
  g_test_add_func ("/tensor/matmul/bool-fails", test_matmul_bool_fails);

  return g_test_run ();
}
