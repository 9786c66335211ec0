/* Fractional max pooling from C: a case worked by hand that tells the
 * width's sample from the height's, its gradient, the layer built from
 * properties alone, and the construction errors. tests/python/
 * test_nn_fractional_pool_vs_torch.py compares random cases with torch. */
#include <gnn/gnn.h>

static GnnTensor *
arange_4x9 (void)
{
  double v[36];
  const gint64 shape[4] = { 1, 1, 4, 9 };

  for (guint i = 0; i < 36; i++)
    v[i] = i;
  return gnn_tensor_new_from_doubles (v, 36, shape, 4, NULL);
}

/* Samples (width 0.3, height 0): alpha 7/3 gives width starts 0, 3, 5, 7
 * (a width sample of 0 would give 0, 2, 4, 7), height starts 0, 1, 2; each
 * 2×2 window's maximum is its bottom-right element. */
static const gint64 want_idx[12] = { 10, 13, 15, 17, 19, 22, 24, 26, 28, 31, 33, 35 };

static GnnTensor *
samples_new (void)
{
  const gint64 shape[3] = { 1, 1, 2 };

  return gnn_tensor_new_from_doubles ((const double[]) { 0.3, 0.0 }, 2, shape, 3, NULL);
}

static void
test_by_hand (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = arange_4x9 ();
  g_autoptr(GnnTensor) s = samples_new ();
  g_autoptr(GnnTensor) idx = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autofree double *got = NULL;
  g_autofree double *grad = NULL;
  const gint64 k[2] = { 2, 2 }, size[2] = { 3, 4 };
  const gint64 *got_idx;
  gsize n = 0;

  gnn_tensor_set_requires_grad (x, TRUE);
  y = gnn_tensor_fractional_max_pool2d (x, k, size, NULL, s, &idx, &error);
  g_assert_no_error (error);
  got = gnn_tensor_to_doubles (y, &n);
  got_idx = gnn_tensor_get_data (idx);
  g_assert_cmpuint (n, ==, 12);
  for (guint i = 0; i < 12; i++)
    {
      g_assert_cmpint (got_idx[i], ==, want_idx[i]);
      g_assert_cmpfloat (got[i], ==, (double) want_idx[i]);
    }
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "FractionalMaxPool2DBackward0");
  loss = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  grad = gnn_tensor_to_doubles (gnn_tensor_get_grad (x), &n);
  g_assert_cmpuint (n, ==, 36);
  for (guint i = 0, w = 0; i < 36; i++)
    {
      gboolean winner = w < 12 && want_idx[w] == (gint64) i;

      g_assert_cmpfloat (grad[i], ==, winner ? 1.0 : 0.0);
      w += winner;
    }
}

/* The layer from properties alone: its samples are the _random_samples
 * buffer; a ratio of 0.5 halves each axis. */
static void
test_layer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = arange_4x9 ();
  g_autoptr(GnnTensor) s = samples_new ();
  g_autoptr(GnnModule) pool = g_initable_new (GNN_TYPE_FRACTIONAL_MAX_POOL2D, NULL, &error, "kernel-h", (gint64) 2,
                                              "kernel-w", (gint64) 2, "output-h", (gint64) 3, "output-w",
                                              (gint64) 4, "random-samples", s, NULL);
  g_autoptr(GnnModule) half = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) z = NULL;
  g_autofree char *repr = NULL;
  g_autofree double *got = NULL;
  gsize n = 0;

  g_assert_no_error (error);
  g_assert_true (gnn_module_get_buffer (pool, "_random_samples", NULL) == s);
  y = gnn_module_call (pool, x, &error);
  g_assert_no_error (error);
  got = gnn_tensor_to_doubles (y, &n);
  g_assert_cmpuint (n, ==, 12);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpfloat (got[i], ==, (double) want_idx[i]);
  repr = gnn_module_to_string (pool);
  g_assert_cmpstr (repr, ==, "FractionalMaxPool2d()");

  half = g_initable_new (GNN_TYPE_FRACTIONAL_MAX_POOL2D, NULL, &error, "output-ratio-h", 0.5, "output-ratio-w", 0.5,
                         NULL);
  g_assert_no_error (error);
  z = gnn_module_call (half, x, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_numel (z), ==, 2 * 4);
}

static void
test_construction_errors (void)
{
  g_autoptr(GError) error = NULL;
  GObject *bad;

  bad = g_initable_new (GNN_TYPE_FRACTIONAL_MAX_POOL3D, NULL, &error, NULL);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "FractionalMaxPool3d requires specifying either an output size, or a pooling ratio");
  g_clear_error (&error);
  bad = g_initable_new (GNN_TYPE_FRACTIONAL_MAX_POOL2D, NULL, &error, "output-h", (gint64) 2, "output-ratio-h",
                        0.5, NULL);
  g_assert_null (bad);
  g_assert_cmpstr (error->message, ==, "only one of output_size and output_ratio may be specified");
  g_clear_error (&error);
  bad = g_initable_new (GNN_TYPE_FRACTIONAL_MAX_POOL2D, NULL, &error, "output-ratio-h", 0.5, "output-ratio-w",
                        1.0, NULL);
  g_assert_null (bad);
  g_assert_cmpstr (error->message, ==, "output_ratio must be between 0 and 1 (got (0.5, 1.0))");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/fractional-pool/by-hand", test_by_hand);
  g_test_add_func ("/nn/fractional-pool/layer", test_layer);
  g_test_add_func ("/nn/fractional-pool/construction-errors", test_construction_errors);
  return g_test_run ();
}
