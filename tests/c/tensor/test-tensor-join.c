/* cat and stack, with torch 1.13's rules and messages. */
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

#define AR(start, ...) \
  gnn_test_arange (GNN_DTYPE_F32, start, (gint64[]) { __VA_ARGS__ }, \
      sizeof ((gint64[]) { __VA_ARGS__ }) / sizeof (gint64))

static void
test_cat_dim0 (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GnnTensor) b = AR (10, 1, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { a, b }, 2, 0, &error);

  g_assert_no_error (error);
  gnn_test_assert_shape (c, (gint64[]) { 3, 3 }, 2);
  gnn_test_assert_values (c, (double[]) { 0, 1, 2, 3, 4, 5, 10, 11, 12 }, 9, 0);
  g_assert_true (gnn_tensor_is_contiguous (c));
}

static void
test_cat_last_dim_negative (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 2);
  g_autoptr(GnnTensor) b = AR (10, 2, 3);
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { a, b, a }, 3, -1, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 7 }, 2);
  gnn_test_assert_values (c, (double[]) { 0, 1, 10, 11, 12, 0, 1, 2, 3, 13, 14, 15, 2, 3 }, 14, 0);
}

static void
test_cat_middle_dim_3d (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 1, 2);
  g_autoptr(GnnTensor) b = AR (10, 2, 2, 2);
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { a, b }, 2, 1, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3, 2 }, 3);
  gnn_test_assert_values (c, (double[]) { 0, 1, 10, 11, 12, 13, 2, 3, 14, 15, 16, 17 }, 12, 0);
}

static void
test_cat_non_contiguous_inputs (void)
{
  g_autoptr(GnnTensor) a0 = AR (0, 3, 2);
  g_autoptr(GnnTensor) a = gnn_tensor_transpose (a0, 0, 1, NULL);      /* [2, 3] */
  g_autoptr(GnnTensor) b0 = AR (10, 2, 5);
  g_autoptr(GnnTensor) b = gnn_tensor_narrow (b0, 1, 1, 3, NULL);      /* [2, 3] */
  g_autoptr(GnnTensor) c0 = gnn_tensor_cat ((GnnTensor *[]) { a, b }, 2, 0, NULL);
  g_autoptr(GnnTensor) c1 = gnn_tensor_cat ((GnnTensor *[]) { a, b }, 2, 1, NULL);

  gnn_test_assert_shape (c0, (gint64[]) { 4, 3 }, 2);
  gnn_test_assert_values (c0, (double[]) { 0, 2, 4, 1, 3, 5, 11, 12, 13, 16, 17, 18 }, 12, 0);
  gnn_test_assert_shape (c1, (gint64[]) { 2, 6 }, 2);
  gnn_test_assert_values (c1, (double[]) { 0, 2, 4, 11, 12, 13, 1, 3, 5, 16, 17, 18 }, 12, 0);
}

static void
test_cat_skips_legacy_empty (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GnnTensor) e = gnn_tensor_zeros ((gint64[]) { 0 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { e, a, e }, 3, 1, NULL);
  g_autoptr(GnnTensor) ee = gnn_tensor_cat ((GnnTensor *[]) { e, e }, 2, 0, NULL);

  gnn_test_assert_shape (c, (gint64[]) { 2, 3 }, 2);
  gnn_test_assert_values (c, (double[]) { 0, 1, 2, 3, 4, 5 }, 6, 0);
  gnn_test_assert_shape (ee, (gint64[]) { 0 }, 1);
}

static void
test_cat_int64 (void)
{
  gint64 va[] = { G_GINT64_CONSTANT (9007199254740993), 2 };
  gint64 vb[] = { 3 };
  g_autoptr(GnnTensor) a = gnn_tensor_new_from_int64s (va, 2, (gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_new_from_int64s (vb, 1, (gint64[]) { 1 }, 1, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { a, b }, 2, 0, NULL);
  const gint64 *d = gnn_tensor_get_data (c);

  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_I64);
  g_assert_cmpint (d[0], ==, G_GINT64_CONSTANT (9007199254740993));
  g_assert_cmpint (d[1], ==, 2);
  g_assert_cmpint (d[2], ==, 3);
}

static void
test_cat_empty_list_fails (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_cat (NULL, 0, 0, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "expected a non-empty list of Tensors"));
}

static void
test_cat_size_mismatch_fails (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GnnTensor) b = AR (0, 3, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { a, b }, 2, 1, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message,
                            "Sizes of tensors must match except in dimension 1. Expected size 2 "
                            "but got size 3 for tensor number 1 in the list."));
}

static void
test_cat_ndim_mismatch_fails (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GnnTensor) b = AR (0, 2, 3, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { a, b }, 2, 1, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Tensors must have same number of dimensions: got 2 and 3"));
}

static void
test_cat_scalar_fails (void)
{
  g_autoptr(GnnTensor) s = gnn_tensor_new_scalar (1, GNN_DTYPE_F32);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { s, s }, 2, 0, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "zero-dimensional tensor (at position 0) cannot be concatenated"));
}

static void
test_cat_dim_out_of_range_fails (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { a, a }, 2, 2, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "expected to be in range of [-2, 1], but got 2"));
}

static void
test_cat_dtype_mismatch_fails (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GnnTensor) b = gnn_test_arange (GNN_DTYPE_I64, 0, (gint64[]) { 2, 3 }, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) c = gnn_tensor_cat ((GnnTensor *[]) { a, b }, 2, 0, &error);

  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "float32 at entry 0 and int64 at entry 1"));
}

static void
test_stack_new_first_dim (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GnnTensor) b = AR (10, 2, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_stack ((GnnTensor *[]) { a, b }, 2, 0, &error);

  g_assert_no_error (error);
  gnn_test_assert_shape (s, (gint64[]) { 2, 2, 3 }, 3);
  gnn_test_assert_values (s, (double[]) { 0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15 }, 12, 0);
}

static void
test_stack_last_dim_negative (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GnnTensor) b0 = AR (10, 3, 2);
  g_autoptr(GnnTensor) b = gnn_tensor_transpose (b0, 0, 1, NULL);   /* non-contiguous [2, 3] */
  g_autoptr(GnnTensor) s = gnn_tensor_stack ((GnnTensor *[]) { a, b }, 2, -1, NULL);
  g_autoptr(GnnTensor) m = gnn_tensor_stack ((GnnTensor *[]) { a, b }, 2, 1, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 2, 3, 2 }, 3);
  gnn_test_assert_values (s, (double[]) { 0, 10, 1, 12, 2, 14, 3, 11, 4, 13, 5, 15 }, 12, 0);
  gnn_test_assert_shape (m, (gint64[]) { 2, 2, 3 }, 3);
  gnn_test_assert_values (m, (double[]) { 0, 1, 2, 10, 12, 14, 3, 4, 5, 11, 13, 15 }, 12, 0);
}

static void
test_stack_scalars (void)
{
  g_autoptr(GnnTensor) a = gnn_tensor_new_scalar (1, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) b = gnn_tensor_new_scalar (2, GNN_DTYPE_F32);
  g_autoptr(GnnTensor) s = gnn_tensor_stack ((GnnTensor *[]) { a, b }, 2, 0, NULL);

  gnn_test_assert_shape (s, (gint64[]) { 2 }, 1);
  gnn_test_assert_values (s, (double[]) { 1, 2 }, 2, 0);
}

static void
test_stack_size_mismatch_fails (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GnnTensor) b = AR (0, 2, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_stack ((GnnTensor *[]) { a, b }, 2, 0, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message,
                            "stack expects each tensor to be equal size, but got [2, 3] at entry 0 "
                            "and [2, 4] at entry 1"));
}

static void
test_stack_empty_list_fails (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_stack (NULL, 0, 0, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "stack expects a non-empty TensorList"));
}

static void
test_stack_dim_out_of_range_fails (void)
{
  g_autoptr(GnnTensor) a = AR (0, 2, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_stack ((GnnTensor *[]) { a, a }, 2, 3, &error);

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "expected to be in range of [-3, 2], but got 3"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor/cat/dim0", test_cat_dim0);
  g_test_add_func ("/tensor/cat/last-dim-negative", test_cat_last_dim_negative);
  g_test_add_func ("/tensor/cat/middle-dim-3d", test_cat_middle_dim_3d);
  g_test_add_func ("/tensor/cat/non-contiguous-inputs", test_cat_non_contiguous_inputs);
  g_test_add_func ("/tensor/cat/skips-legacy-empty", test_cat_skips_legacy_empty);
  g_test_add_func ("/tensor/cat/int64", test_cat_int64);
  g_test_add_func ("/tensor/cat/empty-list-fails", test_cat_empty_list_fails);
  g_test_add_func ("/tensor/cat/size-mismatch-fails", test_cat_size_mismatch_fails);
  g_test_add_func ("/tensor/cat/ndim-mismatch-fails", test_cat_ndim_mismatch_fails);
  g_test_add_func ("/tensor/cat/scalar-fails", test_cat_scalar_fails);
  g_test_add_func ("/tensor/cat/dim-out-of-range-fails", test_cat_dim_out_of_range_fails);
  g_test_add_func ("/tensor/cat/dtype-mismatch-fails", test_cat_dtype_mismatch_fails);
  g_test_add_func ("/tensor/stack/new-first-dim", test_stack_new_first_dim);
  g_test_add_func ("/tensor/stack/last-dim-negative", test_stack_last_dim_negative);
  g_test_add_func ("/tensor/stack/scalars", test_stack_scalars);
  g_test_add_func ("/tensor/stack/size-mismatch-fails", test_stack_size_mismatch_fails);
  g_test_add_func ("/tensor/stack/empty-list-fails", test_stack_empty_list_fails);
  g_test_add_func ("/tensor/stack/dim-out-of-range-fails", test_stack_dim_out_of_range_fails);

  return g_test_run ();
}
