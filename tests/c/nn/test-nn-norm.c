/* Normalization and embedding: functional ops and the LayerNorm,
 * BatchNorm1d/2d and Embedding layers. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static void
test_layer_norm_values (void)
{
  /* rows {1,2,3} and {0,0,6}: mean 2, var 2/3; mean 2, var 8 */
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats ((float[]) { 1, 2, 3, 0, 0, 6 }, 6,
                                                       (gint64[]) { 2, 3 }, 2, NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_full ((gint64[]) { 3 }, 1, 2.0, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_ones ((gint64[]) { 3 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_layer_norm (x, (gint64[]) { 3 }, 1, w, b, 0.0, NULL);
  double r1 = 1 / sqrt (2.0 / 3), r2 = 1 / sqrt (8.0);
  const double expect[] = { 1 - 2 * r1, 1, 1 + 2 * r1, 1 - 4 * r2, 1 - 4 * r2, 1 + 8 * r2 };

  gnn_test_assert_values (y, expect, 6, 1e-5);
}

static void
test_layer_norm_bad_shape (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 2, 15 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_layer_norm (x, (gint64[]) { 16 }, 1, NULL, NULL, 1e-5, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Given normalized_shape=[16], expected input with shape [*, 16], "
                                       "but got input of size[2, 15]");
}

static void
test_layer_norm_bad_weight (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 2, 16 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_zeros ((gint64[]) { 15 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_layer_norm (x, (gint64[]) { 16 }, 1, w, NULL, 1e-5, &error);

  g_assert_null (y);
  g_assert_nonnull (strstr (error->message, "Expected weight to be of same shape as normalized_shape"));
}

static void
test_layer_norm_layer (void)
{
  g_autoptr(GnnLayerNorm) ln = gnn_layer_norm_new ((gint64[]) { 16 }, 1, 1e-5, TRUE, NULL);
  g_autoptr(GnnLayerNorm) ln2 = gnn_layer_norm_new ((gint64[]) { 3, 4 }, 2, 1e-3, FALSE, NULL);
  g_autofree char *r1 = gnn_module_extra_repr (GNN_MODULE (ln));
  g_autofree char *r2 = gnn_module_extra_repr (GNN_MODULE (ln2));
  GnnParameter *w = gnn_module_get_parameter (GNN_MODULE (ln), "weight", NULL);

  g_assert_cmpstr (r1, ==, "(16,), eps=1e-05, elementwise_affine=True");
  g_assert_cmpstr (r2, ==, "(3, 4), eps=0.001, elementwise_affine=False");
  g_assert_cmpfloat (gnn_tensor_get_element (GNN_TENSOR (w), (gint64[]) { 5 }, 1, NULL), ==, 1.0);
  g_assert_null (gnn_module_get_child (GNN_MODULE (ln2), "weight", NULL));
}

static void
test_layer_norm_from_properties (void)
{
  g_autoptr(GnnLayerNorm) a = gnn_layer_norm_new ((gint64[]) { 3, 4 }, 2, 1e-5, TRUE, NULL);
  g_autoptr(GVariant) shape = NULL;
  g_autoptr(GnnLayerNorm) b = NULL;
  g_autofree char *ra = NULL;
  g_autofree char *rb = NULL;

  g_object_get (a, "normalized-shape", &shape, NULL);
  b = g_object_new (GNN_TYPE_LAYER_NORM, "normalized-shape", shape, NULL);
  ra = gnn_module_extra_repr (GNN_MODULE (a));
  rb = gnn_module_extra_repr (GNN_MODULE (b));
  g_assert_cmpstr (ra, ==, rb);
}

static void
test_batch_norm_training_updates_stats (void)
{
  /* one channel, values {1, 3}: mean 2, biased var 1, unbiased var 2 */
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats ((float[]) { 1, 3 }, 2, (gint64[]) { 2, 1 }, 2, NULL);
  g_autoptr(GnnTensor) rm = gnn_tensor_zeros ((gint64[]) { 1 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) rv = gnn_tensor_ones ((gint64[]) { 1 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_batch_norm (x, rm, rv, NULL, NULL, TRUE, 0.1, 0.0, NULL);
  const double expect[] = { -1, 1 };

  gnn_test_assert_values (y, expect, 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (rm, (gint64[]) { 0 }, 1, NULL), 0.2, 1e-6);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (rv, (gint64[]) { 0 }, 1, NULL), 0.9 + 0.2, 1e-6);
}

static void
test_batch_norm_eval_uses_running (void)
{
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats ((float[]) { 1, 3 }, 2, (gint64[]) { 2, 1 }, 2, NULL);
  g_autoptr(GnnTensor) rm = gnn_tensor_ones ((gint64[]) { 1 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) rv = gnn_tensor_full ((gint64[]) { 1 }, 1, 4.0, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_batch_norm (x, rm, rv, NULL, NULL, FALSE, 0.1, 0.0, NULL);
  const double expect[] = { 0, 1 };

  gnn_test_assert_values (y, expect, 2, 1e-6);
  g_assert_cmpfloat (gnn_tensor_get_element (rm, (gint64[]) { 0 }, 1, NULL), ==, 1.0);
}

static void
test_batch_norm_errors (void)
{
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 1, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) rm4 = gnn_tensor_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y1 = gnn_tensor_batch_norm (x, rm4, NULL, NULL, NULL, TRUE, 0.1, 1e-5, &e1);
  g_autoptr(GnnTensor) y2 = gnn_tensor_batch_norm (x, NULL, NULL, NULL, NULL, FALSE, 0.1, 1e-5, &e2);
  g_autoptr(GnnTensor) y3 = gnn_tensor_batch_norm (x, NULL, NULL, NULL, NULL, TRUE, 0.1, 1e-5, &e3);

  g_assert_null (y1);
  g_assert_cmpstr (e1->message, ==, "running_mean should contain 3 elements not 4");
  g_assert_null (y2);
  g_assert_cmpstr (e2->message, ==, "running_mean must be defined in evaluation mode");
  g_assert_null (y3);
  g_assert_nonnull (strstr (e3->message, "Expected more than 1 value per channel when training"));
}

static void
test_batch_norm_layer_registry (void)
{
  g_autoptr(GnnBatchNorm2d) bn = gnn_batch_norm2d_new (8, 1e-5, 0.1, TRUE, TRUE, NULL);
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (GNN_MODULE (bn));
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  g_autofree char *joined = g_strjoinv (",", keys);
  g_autofree char *repr = gnn_module_extra_repr (GNN_MODULE (bn));
  GnnTensor *count = gnn_module_get_buffer (GNN_MODULE (bn), "num_batches_tracked", NULL);

  g_assert_cmpstr (joined, ==, "weight,bias,running_mean,running_var,num_batches_tracked");
  g_assert_cmpstr (repr, ==, "8, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True");
  g_assert_cmpint (gnn_tensor_get_dtype (count), ==, GNN_DTYPE_I64);
  g_assert_cmpuint (gnn_tensor_get_ndim (count), ==, 0);
}

static void
test_batch_norm_layer_train_eval (void)
{
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new (2, 1e-5, 0.5, TRUE, TRUE, NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats ((float[]) { 1, 10, 3, 30 }, 4,
                                                       (gint64[]) { 2, 2 }, 2, NULL);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (bn), x, NULL);
  g_autoptr(GnnTensor) z = NULL;
  GnnTensor *rm = gnn_module_get_buffer (GNN_MODULE (bn), "running_mean", NULL);
  GnnTensor *count = gnn_module_get_buffer (GNN_MODULE (bn), "num_batches_tracked", NULL);

  g_assert_nonnull (y);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (rm, (gint64[]) { 0 }, 1, NULL), 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (rm, (gint64[]) { 1 }, 1, NULL), 10.0, 1e-6);
  g_assert_cmpfloat (gnn_tensor_item (count, NULL), ==, 1.0);

  gnn_module_eval (GNN_MODULE (bn));
  z = gnn_module_call (GNN_MODULE (bn), x, NULL);
  g_assert_nonnull (z);
  g_assert_cmpfloat (gnn_tensor_item (count, NULL), ==, 1.0);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (rm, (gint64[]) { 0 }, 1, NULL), 1.0, 1e-6);
}

static void
test_batch_norm_layer_bad_dims (void)
{
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GnnBatchNorm1d) bn1 = gnn_batch_norm1d_new (3, 1e-5, 0.1, TRUE, TRUE, NULL);
  g_autoptr(GnnBatchNorm2d) bn2 = gnn_batch_norm2d_new (3, 1e-5, 0.1, TRUE, TRUE, NULL);
  g_autoptr(GnnTensor) x4 = gnn_tensor_zeros ((gint64[]) { 2, 3, 4, 5 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x3 = gnn_tensor_zeros ((gint64[]) { 2, 3, 4 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y1 = gnn_module_call (GNN_MODULE (bn1), x4, &e1);
  g_autoptr(GnnTensor) y2 = gnn_module_call (GNN_MODULE (bn2), x3, &e2);

  g_assert_null (y1);
  g_assert_cmpstr (e1->message, ==, "expected 2D or 3D input (got 4D input)");
  g_assert_null (y2);
  g_assert_cmpstr (e2->message, ==, "expected 4D input (got 3D input)");
}

static void
test_batch_norm_layer_no_stats (void)
{
  g_autoptr(GnnBatchNorm2d) bn = gnn_batch_norm2d_new (2, 1e-5, 0.1, FALSE, FALSE, NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { 2, 2, 1, 1 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autofree char *repr = gnn_module_extra_repr (GNN_MODULE (bn));

  g_assert_cmpstr (repr, ==, "2, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False");
  g_assert_true (gnn_module_has_child (GNN_MODULE (bn), "running_mean"));
  g_assert_null (gnn_module_get_buffer (GNN_MODULE (bn), "running_mean", NULL));
  gnn_module_eval (GNN_MODULE (bn));
  y = gnn_module_call (GNN_MODULE (bn), x, NULL);   /* batch statistics in eval */
  g_assert_nonnull (y);
}

static void
test_embedding_values (void)
{
  g_autoptr(GnnTensor) w = gnn_tensor_new_from_floats ((float[]) { 0, 1, 10, 11, 20, 21 }, 6,
                                                       (gint64[]) { 3, 2 }, 2, NULL);
  g_autoptr(GnnTensor) idx = gnn_tensor_new_from_int64s ((gint64[]) { 2, 0, 2, 1 }, 4,
                                                         (gint64[]) { 2, 2 }, 2, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_embedding (w, idx, NULL);
  const double expect[] = { 20, 21, 0, 1, 20, 21, 10, 11 };
  guint ndim;

  gnn_tensor_get_shape (y, &ndim);
  g_assert_cmpuint (ndim, ==, 3);
  gnn_test_assert_values (y, expect, 8, 1e-9);
}

static void
test_embedding_out_of_range (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) w = gnn_tensor_zeros ((gint64[]) { 3, 2 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) idx = gnn_tensor_new_from_int64s ((gint64[]) { 0, -1 }, 2, (gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_embedding (w, idx, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_true (g_str_has_prefix (error->message, "index out of range in self"));
}

static void
test_embedding_float_indices (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) w = gnn_tensor_zeros ((gint64[]) { 3, 2 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) idx = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_embedding (w, idx, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
}

static void
test_embedding_layer (void)
{
  g_autoptr(GnnEmbedding) emb = gnn_embedding_new (10, 3, NULL, NULL);
  g_autofree char *repr = gnn_module_extra_repr (GNN_MODULE (emb));
  g_autoptr(GnnTensor) idx = gnn_tensor_new_from_int64s ((gint64[]) { 4 }, 1, (gint64[]) { 1 }, 1, NULL);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (emb), idx, NULL);
  GnnParameter *w = gnn_module_get_parameter (GNN_MODULE (emb), "weight", NULL);
  g_autoptr(GnnTensor) row = gnn_tensor_select (GNN_TENSOR (w), 0, 4, NULL);
  g_autoptr(GnnTensor) y0 = gnn_tensor_select (y, 0, 0, NULL);

  g_assert_cmpstr (repr, ==, "10, 3");
  g_assert_true (gnn_tensor_equal (row, y0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nn/layer-norm/values", test_layer_norm_values);
  g_test_add_func ("/nn/layer-norm/bad-shape", test_layer_norm_bad_shape);
  g_test_add_func ("/nn/layer-norm/bad-weight", test_layer_norm_bad_weight);
  g_test_add_func ("/nn/layer-norm/layer", test_layer_norm_layer);
  g_test_add_func ("/nn/layer-norm/from-properties", test_layer_norm_from_properties);
  g_test_add_func ("/nn/batch-norm/training-updates-stats", test_batch_norm_training_updates_stats);
  g_test_add_func ("/nn/batch-norm/eval-uses-running", test_batch_norm_eval_uses_running);
  g_test_add_func ("/nn/batch-norm/errors", test_batch_norm_errors);
  g_test_add_func ("/nn/batch-norm/layer/registry", test_batch_norm_layer_registry);
  g_test_add_func ("/nn/batch-norm/layer/train-eval", test_batch_norm_layer_train_eval);
  g_test_add_func ("/nn/batch-norm/layer/bad-dims", test_batch_norm_layer_bad_dims);
  g_test_add_func ("/nn/batch-norm/layer/no-stats", test_batch_norm_layer_no_stats);
  g_test_add_func ("/nn/embedding/values", test_embedding_values);
  g_test_add_func ("/nn/embedding/out-of-range", test_embedding_out_of_range);
  g_test_add_func ("/nn/embedding/float-indices", test_embedding_float_indices);
  g_test_add_func ("/nn/embedding/layer", test_embedding_layer);

  return g_test_run ();
}
