/* Bilinear from C: a value worked by hand through the general call, the
 * gradients of both inputs, the weight and the bias against their closed
 * forms, repr and keys, torch's messages (the layer unchanged) and the
 * construction errors. tests/python/test_nn_bilinear_vs_torch.py compares
 * random shapes with torch. */
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

static GnnModule *
bilinear_f64 (void)
{
  g_autoptr(GError) error = NULL;
  /* weight[0] = [[1, 2, 0], [0, -1, 3]], weight[1] = [[0.5, 0, 0], [0, 0, 0]] */
  const double w[12] = { 1, 2, 0, 0, -1, 3, 0.5, 0, 0, 0, 0, 0 }, b[2] = { 0.25, -1 };
  const gint64 ws[3] = { 2, 2, 3 }, bs[1] = { 2 };
  g_autoptr(GnnTensor) wt = doubles (w, 12, ws, 3);
  g_autoptr(GnnTensor) bt = doubles (b, 2, bs, 1);
  GnnModule *m = g_initable_new (GNN_TYPE_BILINEAR, NULL, &error, "in1-features", (gint64) 2,
                                 "in2-features", (gint64) 3, "out-features", (gint64) 2,
                                 "dtype", GNN_DTYPE_F64, NULL);
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  g_assert_no_error (error);
  g_assert_true (gnn_tensor_copy_ (GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL)), wt, NULL));
  g_assert_true (gnn_tensor_copy_ (GNN_TENSOR (gnn_module_get_parameter (m, "bias", NULL)), bt, NULL));
  return m;
}

static void
test_bilinear_values_and_gradients (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = bilinear_f64 ();
  const double x1v[2] = { 2, -1 }, x2v[3] = { 1, 0.5, 4 };
  const gint64 s1[2] = { 1, 2 }, s2[2] = { 1, 3 };
  g_autoptr(GnnTensor) x1 = doubles (x1v, 2, s1, 2);
  g_autoptr(GnnTensor) x2 = doubles (x2v, 3, s2, 2);
  g_autoptr(GnnValue) args = NULL;
  g_autoptr(GnnValue) out = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autofree double *y = NULL;
  g_autofree double *g1 = NULL;
  g_autofree double *g2 = NULL;
  g_autofree double *gw = NULL;
  g_autofree double *gb = NULL;
  GnnTensor *yt;
  gsize n = 0;

  gnn_tensor_set_requires_grad (x1, TRUE);
  gnn_tensor_set_requires_grad (x2, TRUE);
  args = gnn_value_new_tuple_take (2, gnn_value_new_tensor (x1), gnn_value_new_tensor (x2));
  out = gnn_module_call_args (m, args, NULL, &error);
  g_assert_no_error (error);
  yt = gnn_value_get_tensor (out);
  g_assert_nonnull (yt);
  y = gnn_tensor_to_doubles (yt, &n);
  g_assert_cmpuint (n, ==, 2);
  /* x1ᵀ W0 x2 = 2·(1 + 1) - (-0.5 + 12) = -7.5; x1ᵀ W1 x2 = 2·0.5·1 = 1 */
  g_assert_cmpfloat_with_epsilon (y[0], -7.5 + 0.25, 1e-14);
  g_assert_cmpfloat_with_epsilon (y[1], 1.0 - 1.0, 1e-14);

  loss = gnn_tensor_sum (yt, NULL, 0, FALSE, NULL);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g1 = gnn_tensor_to_doubles (gnn_tensor_get_grad (x1), NULL);
  g2 = gnn_tensor_to_doubles (gnn_tensor_get_grad (x2), NULL);
  gw = gnn_tensor_to_doubles (gnn_tensor_get_grad (GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL))),
                              NULL);
  gb = gnn_tensor_to_doubles (gnn_tensor_get_grad (GNN_TENSOR (gnn_module_get_parameter (m, "bias", NULL))),
                              NULL);
  /* d/dx1 = (W0 + W1) x2 = [1 + 1 + 0.5, -0.5 + 12]; d/dx2 = (W0 + W1)ᵀ x1 */
  g_assert_cmpfloat_with_epsilon (g1[0], 2.5, 1e-14);
  g_assert_cmpfloat_with_epsilon (g1[1], 11.5, 1e-14);
  g_assert_cmpfloat_with_epsilon (g2[0], 3.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (g2[1], 5.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (g2[2], -3.0, 1e-14);
  /* d/dW_k[i, j] = x1[i] x2[j] for both k; d/db = 1 */
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < 2; i++)
      for (guint j = 0; j < 3; j++)
        g_assert_cmpfloat_with_epsilon (gw[k * 6 + i * 3 + j], x1v[i] * x2v[j], 1e-14);
  g_assert_cmpfloat (gb[0], ==, 1.0);
  g_assert_cmpfloat (gb[1], ==, 1.0);
}

static void
test_bilinear_repr_keys_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = bilinear_f64 ();
  g_autoptr(GnnBilinear) no_bias = gnn_bilinear_new (2, 3, 4, FALSE, NULL, &error);
  g_autoptr(GnnBilinear) bad = NULL;
  g_autofree char *text = gnn_module_to_string (m);
  g_autofree char *text2 = NULL;
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (m);
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  const gint64 s1[2] = { 5, 2 }, s2[2] = { 4, 3 };
  g_autoptr(GnnTensor) x1 = gnn_tensor_zeros (s1, 2, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) x2 = gnn_tensor_zeros (s2, 2, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnValue) args = gnn_value_new_tuple_take (2, gnn_value_new_tensor (x1), gnn_value_new_tensor (x2));

  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "Bilinear(in1_features=2, in2_features=3, out_features=2, bias=True)");
  text2 = gnn_module_to_string (GNN_MODULE (no_bias));
  g_assert_cmpstr (text2, ==, "Bilinear(in1_features=2, in2_features=3, out_features=4, bias=False)");
  g_assert_cmpuint (g_strv_length (keys), ==, 2);
  g_assert_cmpstr (keys[0], ==, "weight");
  g_assert_cmpstr (keys[1], ==, "bias");

  g_assert_null (gnn_module_call_args (m, args, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "bilinear(): input batch dimensions do not match at dim 0: got 5 and 4");
  g_clear_error (&error);
  g_assert_null (gnn_module_call (m, x1, &error));
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==, "Bilinear.forward() missing 1 required positional argument: 'input2'");
  g_clear_error (&error);

  bad = gnn_bilinear_new (2, -1, 4, TRUE, NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Trying to create tensor with negative dimension -1: [4, 2, -1]");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/bilinear/values-and-gradients", test_bilinear_values_and_gradients);
  g_test_add_func ("/nn/bilinear/repr-keys-errors", test_bilinear_repr_keys_errors);
  return g_test_run ();
}
