/* Attention in C: gnn_tensor_scaled_dot_product_attention on values worked
 * out by hand, and MultiheadAttention through the module call path (boxed
 * arguments and keywords, the (output, weights) tuple), its gradients,
 * construction errors and torch's messages for bad masks (the numbers
 * against torch are in tests/python/test_nn_attention_vs_torch.py). */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static GnnTensor *
random_tensor (const gint64 *shape,
               guint         ndim)
{
  GnnTensor *t = gnn_tensor_zeros (shape, ndim, GNN_DTYPE_F32, NULL);

  g_assert_true (gnn_tensor_uniform_ (t, -1, 1, NULL, NULL));
  return t;
}

static void
test_sdpa_values (void)
{
  /* equal queries and keys: every weight is 1/S, the output the values' mean */
  g_autoptr(GnnTensor) q = gnn_tensor_ones ((gint64[]) { 1, 2, 4 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) k = gnn_tensor_ones ((gint64[]) { 1, 3, 4 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) v = gnn_tensor_new_from_floats ((float[]) { 1, 2, 3, 4, 5, 6 }, 6,
                                                      (gint64[]) { 1, 3, 2 }, 3, NULL);
  g_autoptr(GnnTensor) o = gnn_tensor_scaled_dot_product_attention (q, k, v, NULL, 0.0, FALSE,
                                                                   NULL, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_scaled_dot_product_attention (q, k, v, NULL, 0.0, TRUE,
                                                                   NULL, NULL);
  const double mean[] = { 3, 4, 3, 4 };
  const double causal[] = { 1, 2, 2, 3 };   /* row i sees keys 0..i */

  gnn_test_assert_values (o, mean, 4, 1e-6);
  gnn_test_assert_values (c, causal, 4, 1e-6);
}

static void
test_sdpa_bool_mask_and_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) q = gnn_tensor_ones ((gint64[]) { 1, 4 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) k = gnn_tensor_ones ((gint64[]) { 3, 4 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) v = gnn_tensor_new_from_floats ((float[]) { 1, 2, 3 }, 3,
                                                      (gint64[]) { 3, 1 }, 2, NULL);
  g_autoptr(GnnTensor) keep = gnn_tensor_new_from_floats ((float[]) { 0, 1, 1 }, 3,
                                                         (gint64[]) { 1, 3 }, 2, NULL);
  g_autoptr(GnnTensor) mask = gnn_tensor_to_dtype (keep, GNN_DTYPE_BOOL, NULL);
  g_autoptr(GnnTensor) o = gnn_tensor_scaled_dot_product_attention (q, k, v, mask, 0.0, FALSE,
                                                                   NULL, NULL);
  g_autoptr(GnnTensor) bad_k = gnn_tensor_ones ((gint64[]) { 3, 5 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) bad = NULL;
  const double expect[] = { 2.5 };   /* the mean of the values that take part */

  gnn_test_assert_values (o, expect, 1, 1e-6);
  bad = gnn_tensor_scaled_dot_product_attention (q, bad_k, v, NULL, 0.0, FALSE, NULL, &error);
  g_assert_null (bad);
  g_assert_nonnull (error);
}

static void
test_mha_call_args (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnMultiheadAttention) mha = gnn_multihead_attention_new (8, 2, &error);
  g_autoptr(GnnTensor) x = random_tensor ((gint64[]) { 5, 3, 8 }, 3);
  g_autoptr(GnnValue) args = NULL;
  g_autoptr(GnnValue) kwargs = NULL;
  g_autoptr(GnnValue) out = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autoptr(GnnTensor) row_sums = NULL;
  GnnTensor *weights, *in_proj_weight;
  double ones[15];

  g_assert_no_error (error);
  args = gnn_value_new_tuple_take (3, gnn_value_new_tensor (x), gnn_value_new_tensor (x),
                                   gnn_value_new_tensor (x));
  out = gnn_module_call_args (GNN_MODULE (mha), args, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_value_get_length (out), ==, 2);
  gnn_test_assert_shape (gnn_value_get_tensor (gnn_value_get_item (out, 0)),
                         (gint64[]) { 5, 3, 8 }, 3);
  weights = gnn_value_get_tensor (gnn_value_get_item (out, 1));
  gnn_test_assert_shape (weights, (gint64[]) { 3, 5, 5 }, 3);
  row_sums = gnn_tensor_sum (weights, (gint[]) { -1 }, 1, FALSE, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (ones); i++)
    ones[i] = 1;
  gnn_test_assert_values (row_sums, ones, 15, 1e-5);

  loss = gnn_tensor_sum (gnn_value_get_tensor (gnn_value_get_item (out, 0)), NULL, 0, FALSE, NULL);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  in_proj_weight = GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (mha), "in_proj_weight", NULL));
  g_assert_nonnull (gnn_tensor_get_grad (in_proj_weight));
  gnn_test_assert_shape (gnn_tensor_get_grad (in_proj_weight), (gint64[]) { 24, 8 }, 2);

  /* need_weights=False by keyword: the second item is None */
  g_clear_pointer (&out, gnn_value_unref);
  kwargs = gnn_value_new_dict_take ("need_weights", gnn_value_new_bool (FALSE), NULL);
  out = gnn_module_call_args (GNN_MODULE (mha), args, kwargs, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_value_is_none (gnn_value_get_item (out, 1)));
}

static void
test_mha_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnMultiheadAttention) bad = gnn_multihead_attention_new (10, 3, &error);
  g_autoptr(GnnMultiheadAttention) mha = NULL;
  g_autoptr(GnnTensor) q = random_tensor ((gint64[]) { 4, 2, 8 }, 3);
  g_autoptr(GnnTensor) k = random_tensor ((gint64[]) { 5, 2, 8 }, 3);
  g_autoptr(GnnTensor) mask = gnn_tensor_zeros ((gint64[]) { 4, 4 }, 2, GNN_DTYPE_BOOL, NULL);
  g_autoptr(GnnTensor) kpm = gnn_tensor_zeros ((gint64[]) { 2, 5 }, 2, GNN_DTYPE_I32, NULL);
  g_autoptr(GnnTensor) out = NULL;

  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "embed_dim must be divisible by num_heads");
  g_clear_error (&error);

  mha = gnn_multihead_attention_new (8, 2, NULL);
  out = gnn_multihead_attention_attend (mha, q, k, k, NULL, TRUE, mask, TRUE, NULL, &error);
  g_assert_null (out);
  g_assert_cmpstr (error->message, ==,
                   "The shape of the 2D attn_mask is torch.Size([4, 4]), but should be (4, 5).");
  g_clear_error (&error);
  out = gnn_multihead_attention_attend (mha, q, k, k, kpm, TRUE, NULL, TRUE, NULL, &error);
  g_assert_null (out);
  g_assert_cmpstr (error->message, ==, "only bool and floating types of key_padding_mask are supported");
}

static void
test_encoder_stack (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTransformerEncoderLayer) layer = gnn_transformer_encoder_layer_new (8, 2, &error);
  g_autoptr(GnnTransformerEncoder) encoder = NULL;
  g_autoptr(GnnTensor) x = random_tensor ((gint64[]) { 5, 3, 8 }, 3);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnStateDict) state = NULL;
  g_autoptr(GnnTransformerEncoderLayer) bad = NULL;
  GnnTensor *w0, *w1;

  g_assert_no_error (error);
  encoder = gnn_transformer_encoder_new (GNN_MODULE (layer), 2, NULL, &error);
  g_assert_no_error (error);
  y = gnn_module_call (GNN_MODULE (encoder), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, (gint64[]) { 5, 3, 8 }, 3);
  state = gnn_module_state_dict (GNN_MODULE (encoder));
  w0 = gnn_state_dict_lookup (state, "layers.0.self_attn.in_proj_weight");
  w1 = gnn_state_dict_lookup (state, "layers.1.linear2.bias");
  g_assert_nonnull (w0);
  g_assert_nonnull (w1);
  /* the copies are new parameters with the layer's values */
  g_assert_true (w0 != GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (layer), "self_attn.in_proj_weight", NULL)));

  bad = g_initable_new (GNN_TYPE_TRANSFORMER_ENCODER_LAYER, NULL, &error, "d-model", (gint64) 8,
                        "nhead", (gint64) 2, "activation-function", "tanh", NULL);
  g_assert_null (bad);
  g_assert_cmpstr (error->message, ==, "activation should be relu/gelu, not tanh");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/attention/sdpa-values", test_sdpa_values);
  g_test_add_func ("/nn/attention/sdpa-bool-mask-and-errors", test_sdpa_bool_mask_and_errors);
  g_test_add_func ("/nn/attention/mha-call-args", test_mha_call_args);
  g_test_add_func ("/nn/attention/mha-errors", test_mha_errors);
  g_test_add_func ("/nn/attention/encoder-stack", test_encoder_stack);
  return g_test_run ();
}
