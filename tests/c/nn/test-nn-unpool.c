/* Pooling with indices, unpooling, 3-d and power-average pooling, channel
 * shuffle and bags of embeddings from C: values worked by hand, their
 * gradients, the layers built from properties alone and called through
 * the general call, and torch's messages. tests/python/test_nn_unpool_vs_torch.py
 * and test_nn_embedding_bag_vs_torch.py compare random cases with torch. */
#include <math.h>

#include <gnn/gnn.h>

static GnnTensor *
doubles (const double *v,
         gsize         n,
         const gint64 *shape,
         guint         ndim)
{
  GnnTensor *t = gnn_tensor_new_from_doubles (v, n, shape, ndim, NULL);

  g_assert_nonnull (t);
  return t;
}

static GnnTensor *
longs (const gint64 *v,
       gsize         n,
       const gint64 *shape,
       guint         ndim)
{
  GnnTensor *t = gnn_tensor_new_from_int64s (v, n, shape, ndim, NULL);

  g_assert_nonnull (t);
  return t;
}

static void
assert_values (GnnTensor    *t,
               const double *want,
               gsize         n)
{
  gsize got_n = 0;
  g_autofree double *got = gnn_tensor_to_doubles (t, &got_n);

  g_assert_cmpuint (got_n, ==, n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat_with_epsilon (got[i], want[i], 1e-12);
}

static void
assert_longs (GnnTensor    *t,
              const gint64 *want,
              gsize         n)
{
  const gint64 *got = gnn_tensor_get_data (t);

  g_assert_cmpint (gnn_tensor_get_numel (t), ==, (gint64) n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpint (got[i], ==, want[i]);
}

/* [[1, 5, 2, 0], [3, 4, 8, 7], [0, 9, 6, 1], [2, 2, 3, 5]] in 2×2 windows:
 * maxima 5, 8, 9, 6 at 1, 6, 9, 10; unpooled back, the rest zero, and the
 * gradient of the unpooling gathers at the same places. */
static void
test_max_pool_indices_and_unpool (void)
{
  g_autoptr(GError) error = NULL;
  const double v[16] = { 1, 5, 2, 0, 3, 4, 8, 7, 0, 9, 6, 1, 2, 2, 3, 5 };
  const gint64 shape[4] = { 1, 1, 4, 4 };
  g_autoptr(GnnTensor) x = doubles (v, 16, shape, 4);
  g_autoptr(GnnTensor) indices = NULL;
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool2d_with_indices (x, 2, 2, 0, 0, 0, 0, 1, 1, FALSE, &indices, &error);
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  const double want_u[16] = { 0, 5, 0, 0, 0, 0, 8, 0, 0, 9, 6, 0, 0, 0, 0, 0 };
  const double ones_at[4] = { 1, 1, 1, 1 };
  const gint64 size[2] = { 4, 4 };

  g_assert_no_error (error);
  assert_values (y, (const double[]) { 5, 8, 9, 6 }, 4);
  assert_longs (indices, (const gint64[]) { 1, 6, 9, 10 }, 4);
  gnn_tensor_set_requires_grad (y, TRUE);
  u = gnn_tensor_max_unpool (y, indices, size, 2, &error);
  g_assert_no_error (error);
  assert_values (u, want_u, 16);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (u), ==, "MaxUnpool2DBackward0");
  loss = gnn_tensor_sum (u, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  assert_values (gnn_tensor_get_grad (y), ones_at, 4);
}

static void
test_max_unpool_refuses_bad_indices (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 shape[3] = { 1, 1, 2 }, size[2] = { 2, 2 };
  g_autoptr(GnnTensor) x = doubles ((const double[]) { 1, 2 }, 2, shape, 3);
  g_autoptr(GnnTensor) bad = longs ((const gint64[]) { 0, 9 }, 2, shape, 3);
  g_autoptr(GnnTensor) y = gnn_tensor_max_unpool (x, bad, size, 2, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==, "Found an invalid max index: 9 (output volumes are of size 2x2");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_max_unpool (x, x, size, 2, &error));
  g_assert_cmpstr (error->message, ==, "elements in indices should be type int64 but got: Double");
}

/* MaxUnpool2d from its properties alone, called with torch's arguments. */
static void
test_max_unpool_layer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) unpool = g_object_new (GNN_TYPE_MAX_UNPOOL2D, "kernel-h", (gint64) 2, "kernel-w", (gint64) 2,
                                              NULL);
  const gint64 shape[4] = { 1, 1, 1, 1 };
  g_autoptr(GnnTensor) x = doubles ((const double[]) { 7 }, 1, shape, 4);
  g_autoptr(GnnTensor) idx = longs ((const gint64[]) { 3 }, 1, shape, 4);
  g_autoptr(GnnValue) args = gnn_value_new_tensor_tuple ((GnnTensor *[]) { x, idx }, 2);
  g_autoptr(GnnValue) out = gnn_module_call_args (unpool, args, NULL, &error);
  g_autofree char *repr = gnn_module_to_string (unpool);

  g_assert_no_error (error);
  assert_values (gnn_value_get_tensor (out), (const double[]) { 0, 0, 0, 7 }, 4);
  g_assert_cmpstr (repr, ==, "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))");
}

/* 2×2×2 of 0..7 in one 2×2×2 window: max 7 at 7, mean 3.5; the average's
 * gradient is 1/8 everywhere. */
static void
test_pool3d (void)
{
  g_autoptr(GError) error = NULL;
  const double v[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
  const gint64 shape[5] = { 1, 1, 2, 2, 2 }, k[3] = { 2, 2, 2 }, zero[3] = { 0 }, one[3] = { 1, 1, 1 };
  g_autoptr(GnnTensor) x = doubles (v, 8, shape, 5);
  g_autoptr(GnnTensor) idx = NULL;
  g_autoptr(GnnTensor) mx = NULL;
  g_autoptr(GnnTensor) avg = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  const double eighths[8] = { 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125 };

  gnn_tensor_set_requires_grad (x, TRUE);
  mx = gnn_tensor_max_pool3d (x, k, zero, zero, one, FALSE, &idx, &error);
  g_assert_no_error (error);
  assert_values (mx, (const double[]) { 7 }, 1);
  assert_longs (idx, (const gint64[]) { 7 }, 1);
  avg = gnn_tensor_avg_pool3d (x, k, zero, zero, FALSE, TRUE, 0, &error);
  g_assert_no_error (error);
  assert_values (avg, (const double[]) { 3.5 }, 1);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (avg), ==, "AvgPool3DBackward0");
  loss = gnn_tensor_sum (avg, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  assert_values (gnn_tensor_get_grad (x), eighths, 8);
}

/* p = 2 over windows of 2: sqrt(3² + 4²) = 5. */
static void
test_lp_pool (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 shape[2] = { 1, 4 };
  g_autoptr(GnnTensor) x = doubles ((const double[]) { 3, 4, 0, 1 }, 4, shape, 2);
  g_autoptr(GnnTensor) y = gnn_tensor_lp_pool1d (x, 2.0, 2, 0, FALSE, &error);

  g_assert_no_error (error);
  assert_values (y, (const double[]) { 5, 1 }, 2);
}

static void
test_channel_shuffle (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 shape[3] = { 1, 6, 1 };
  g_autoptr(GnnTensor) x = doubles ((const double[]) { 0, 1, 2, 3, 4, 5 }, 6, shape, 3);
  g_autoptr(GnnModule) shuffle = g_object_new (GNN_TYPE_CHANNEL_SHUFFLE, "groups", 2, NULL);
  g_autoptr(GnnTensor) y = gnn_module_call (shuffle, x, &error);

  g_assert_no_error (error);
  assert_values (y, (const double[]) { 0, 3, 1, 4, 2, 5 }, 6);
  g_assert_null (gnn_tensor_channel_shuffle (x, 4, &error));
  g_assert_cmpstr (error->message, ==, "Number of channels must be divisible by groups. Got 6 channels and 4 groups.");
}

/* Rows r_i = (i, 10 i); bags [1, 2] and [3]: sums (3, 30), (3, 30); means
 * (1.5, 15), (3, 30); maxima (2, 20), (3, 30). A sample weight's gradient
 * is its row dotted with its bag's gradient. */
static void
test_embedding_bag (void)
{
  g_autoptr(GError) error = NULL;
  const double w[8] = { 0, 0, 1, 10, 2, 20, 3, 30 };
  const gint64 ws[2] = { 4, 2 }, is[1] = { 3 }, os[1] = { 2 };
  g_autoptr(GnnTensor) weight = doubles (w, 8, ws, 2);
  g_autoptr(GnnTensor) input = longs ((const gint64[]) { 1, 2, 3 }, 3, is, 1);
  g_autoptr(GnnTensor) offsets = longs ((const gint64[]) { 0, 2 }, 2, os, 1);
  g_autoptr(GnnTensor) psw = doubles ((const double[]) { 1, 1, 2 }, 3, is, 1);
  const char *modes[3] = { "sum", "mean", "max" };
  const double want[3][4] = { { 3, 30, 3, 30 }, { 1.5, 15, 3, 30 }, { 2, 20, 3, 30 } };

  for (guint m = 0; m < 3; m++)
    {
      g_autoptr(GnnTensor) y = gnn_tensor_embedding_bag (input, weight, offsets, INFINITY, 2.0, FALSE, modes[m],
                                                         NULL, FALSE, FALSE, 0, &error);

      g_assert_no_error (error);
      assert_values (y, want[m], 4);
    }
  gnn_tensor_set_requires_grad (psw, TRUE);
  gnn_tensor_set_requires_grad (weight, TRUE);
  {
    g_autoptr(GnnTensor) y = gnn_tensor_embedding_bag (input, weight, offsets, INFINITY, 2.0, FALSE, "sum", psw,
                                                       FALSE, FALSE, 0, &error);
    g_autoptr(GnnTensor) loss = gnn_tensor_sum (y, NULL, 0, FALSE, &error);

    g_assert_no_error (error);
    assert_values (y, (const double[]) { 3, 30, 6, 60 }, 4);
    g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "EmbeddingBagBackward0");
    g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
    assert_values (gnn_tensor_get_grad (psw), (const double[]) { 11, 22, 33 }, 3);
    assert_values (gnn_tensor_get_grad (weight), (const double[]) { 0, 0, 1, 1, 1, 1, 2, 2 }, 8);
  }
  g_assert_null (gnn_tensor_embedding_bag (input, weight, offsets, INFINITY, 2.0, FALSE, "median", NULL, FALSE,
                                           FALSE, 0, &error));
  g_assert_cmpstr (error->message, ==, "mode has to be one of sum, mean or max");
}

static void
test_embedding_bag_layer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) bag = g_initable_new (GNN_TYPE_EMBEDDING_BAG, NULL, &error, "num-embeddings", (gint64) 5,
                                             "embedding-dim", (gint64) 2, "mode", "sum",
                                             "padding-idx", (gint64) -1, NULL);
  const gint64 shape[2] = { 2, 2 };
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnValue) args = NULL;
  g_autoptr(GnnValue) out = NULL;
  g_autofree char *repr = NULL;
  gint64 padding = 0;

  g_assert_no_error (error);
  g_object_get (bag, "padding-idx", &padding, NULL);
  g_assert_cmpint (padding, ==, 4);
  repr = gnn_module_to_string (bag);
  g_assert_cmpstr (repr, ==, "EmbeddingBag(5, 2, mode=sum, padding_idx=4)");
  x = longs ((const gint64[]) { 4, 4, 4, 4 }, 4, shape, 2);
  args = gnn_value_new_tensor_tuple (&x, 1);
  out = gnn_module_call_args (bag, args, NULL, &error);
  g_assert_no_error (error);
  /* bags of padding only: zeros */
  assert_values (gnn_value_get_tensor (out), (const double[]) { 0, 0, 0, 0 }, 4);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/unpool/max-pool-indices-and-unpool", test_max_pool_indices_and_unpool);
  g_test_add_func ("/nn/unpool/refuses-bad-indices", test_max_unpool_refuses_bad_indices);
  g_test_add_func ("/nn/unpool/layer", test_max_unpool_layer);
  g_test_add_func ("/nn/pool3d/values-and-gradient", test_pool3d);
  g_test_add_func ("/nn/lp-pool/values", test_lp_pool);
  g_test_add_func ("/nn/channel-shuffle/values-and-errors", test_channel_shuffle);
  g_test_add_func ("/nn/embedding-bag/modes-and-gradients", test_embedding_bag);
  g_test_add_func ("/nn/embedding-bag/layer", test_embedding_bag_layer);
  return g_test_run ();
}
