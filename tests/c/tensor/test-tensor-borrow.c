/* Tensors over caller-owned memory (gnn_tensor_new_from_address) and the
 * address of a tensor's memory: writes are seen both ways, the owner lives
 * as long as a tensor uses the memory, bad geometry is an error. */
#include <string.h>
#include <gnn/gnn.h>

static void
test_shares_both_ways (void)
{
  float data[6] = { 0, 1, 2, 3, 4, 5 };
  const gint64 shape[] = { 2, 3 };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_address ((guint64) (guintptr) data, GNN_DTYPE_F32,
                                                         shape, 2, NULL, 0, NULL, NULL);

  g_assert_nonnull (t);
  g_assert_true (gnn_tensor_get_data_address (t) == (guint64) (guintptr) data);
  data[4] = 40.0f;
  g_assert_cmpfloat (gnn_tensor_get_element (t, (const gint64[]) { 1, 1 }, 2, NULL), ==, 40.0);
  g_assert_true (gnn_tensor_fill_ (t, 7.0, NULL));
  g_assert_cmpfloat (data[0], ==, 7.0f);
  g_assert_cmpfloat (data[5], ==, 7.0f);
}

static void
test_strides (void)
{
  /* every second column of a 3x4 row-major array: shape (3, 2), strides (4, 2) */
  double data[12];
  const gint64 shape[] = { 3, 2 };
  const gint64 strides[] = { 4, 2 };
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnTensor) sum = NULL;

  for (int i = 0; i < 12; i++)
    data[i] = i;
  t = gnn_tensor_new_from_address ((guint64) (guintptr) data, GNN_DTYPE_F64, shape, 2,
                                   strides, 2, NULL, NULL);
  g_assert_nonnull (t);
  g_assert_false (gnn_tensor_is_contiguous (t));
  sum = gnn_tensor_sum (t, NULL, 0, FALSE, NULL);
  g_assert_cmpfloat (gnn_tensor_item (sum, NULL), ==, 0 + 2 + 4 + 6 + 8 + 10);
}

static void
test_owner_lives_with_storage (void)
{
  float data[4] = { 1, 2, 3, 4 };
  const gint64 shape[] = { 4 };
  GObject *owner = g_object_new (G_TYPE_OBJECT, NULL);
  GnnTensor *t;
  GnnTensor *view;

  g_object_add_weak_pointer (owner, (gpointer *) &owner);
  t = gnn_tensor_new_from_address ((guint64) (guintptr) data, GNN_DTYPE_F32, shape, 1, NULL, 0,
                                   owner, NULL);
  g_object_unref (owner);
  g_assert_nonnull (owner);                  /* the storage holds it */
  view = gnn_tensor_narrow (t, 0, 1, 2, NULL);
  g_object_unref (t);
  g_assert_nonnull (owner);                  /* a view shares the storage */
  g_object_unref (view);
  g_assert_null (owner);
}

static void
test_bad_geometry (void)
{
  float data[4] = { 0 };
  const gint64 shape[] = { 2, 2 };
  const gint64 negative[] = { -2, 1 };
  const gint64 one_stride[] = { 2 };
  const gint64 bad_shape[] = { -1 };
  const gint64 huge_strides[] = { G_MAXINT64 / 2, 1 };
  const gint64 empty[] = { 0 };
  GError *error = NULL;
  g_autoptr(GnnTensor) none = NULL;

  g_assert_null (gnn_tensor_new_from_address ((guint64) (guintptr) data, GNN_DTYPE_F32, shape, 2,
                                              negative, 2, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "negative"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_new_from_address ((guint64) (guintptr) data, GNN_DTYPE_F32, shape, 2,
                                              one_stride, 1, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_new_from_address ((guint64) (guintptr) data + 1, GNN_DTYPE_F32, shape,
                                              2, NULL, 0, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "aligned"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_new_from_address (0, GNN_DTYPE_F32, shape, 2, NULL, 0, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_new_from_address ((guint64) (guintptr) data, GNN_DTYPE_F32, bad_shape,
                                              1, NULL, 0, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_new_from_address ((guint64) (guintptr) data, GNN_DTYPE_F32, shape, 2,
                                              huge_strides, 2, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  /* no elements: any address, even 0 */
  none = gnn_tensor_new_from_address (0, GNN_DTYPE_F32, empty, 1, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_numel (none), ==, 0);
}

static void
test_meta_has_no_address (void)
{
  const gint64 shape[] = { 3 };
  g_autoptr(GnnTensor) t = NULL;
  GnnDevice previous = gnn_set_default_device (GNN_DEVICE_META);

  t = gnn_tensor_zeros (shape, 1, GNN_DTYPE_F32, NULL);
  gnn_set_default_device (previous);
  g_assert_true (gnn_tensor_is_meta (t));
  g_assert_cmpuint (gnn_tensor_get_data_address (t), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tensor/borrow/shares-both-ways", test_shares_both_ways);
  g_test_add_func ("/tensor/borrow/strides", test_strides);
  g_test_add_func ("/tensor/borrow/owner-lives-with-storage", test_owner_lives_with_storage);
  g_test_add_func ("/tensor/borrow/bad-geometry", test_bad_geometry);
  g_test_add_func ("/tensor/borrow/meta-has-no-address", test_meta_has_no_address);

  return g_test_run ();
}
