/* nn.utils: gradient clipping, parameters as a vector, the weight
 * reparametrizations (their parameters, buffers, state dict keys, the
 * function they keep, their gradients and removal) and the plain tensor
 * attributes they rely on. */
#include <math.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"
#include "nn-gradcheck.h"

static GnnParameter *
param_with_grad (const double *values,
                 const double *grad,
                 gint64        n)
{
  g_autoptr(GnnTensor) v = nn_doubles (values, &n, 1);
  g_autoptr(GnnTensor) g = nn_doubles (grad, &n, 1);
  GnnParameter *p = gnn_parameter_new (v, TRUE);

  gnn_tensor_set_grad (GNN_TENSOR (p), g);
  return p;
}

static void
test_clip_grad_norm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnParameter) a = param_with_grad ((const double[]) { 0, 0 }, (const double[]) { 3, 4 }, 2);
  g_autoptr(GnnParameter) b = param_with_grad ((const double[]) { 0 }, (const double[]) { 12 }, 1);
  g_autoptr(GnnTensor) none_value = nn_doubles ((const double[]) { 1 }, (const gint64[]) { 1 }, 1);
  g_autoptr(GnnParameter) none = gnn_parameter_new (none_value, TRUE);
  GnnTensor *params[3] = { GNN_TENSOR (a), GNN_TENSOR (none), GNN_TENSOR (b) };
  g_autoptr(GnnTensor) total = gnn_clip_grad_norm_ (params, 3, 6.5, 2.0, FALSE, &error);
  g_autoptr(GnnTensor) inf = NULL;
  double scale = 6.5 / (13 + 1e-6);

  /* ‖(3, 4, 12)‖ = 13: every gradient scaled by 6.5 / 13 */
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (total, NULL), 13.0, 1e-12);
  gnn_test_assert_values (gnn_tensor_get_grad (GNN_TENSOR (a)), (const double[]) { 3 * scale, 4 * scale }, 2, 1e-12);
  gnn_test_assert_values (gnn_tensor_get_grad (GNN_TENSOR (b)), (const double[]) { 12 * scale }, 1, 1e-12);
  g_assert_null (gnn_tensor_get_grad (GNN_TENSOR (none)));
  /* the inf norm: the largest element; below max_norm nothing changes */
  inf = gnn_clip_grad_norm_ (params, 3, 100.0, INFINITY, FALSE, &error);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (inf, NULL), 12 * scale, 1e-12);
  gnn_test_assert_values (gnn_tensor_get_grad (GNN_TENSOR (b)), (const double[]) { 12 * scale }, 1, 1e-12);
}

static void
test_clip_nonfinite (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnParameter) a = param_with_grad ((const double[]) { 0, 0 }, (const double[]) { 1, INFINITY }, 2);
  GnnTensor *params[1] = { GNN_TENSOR (a) };
  g_autoptr(GnnTensor) total = gnn_clip_grad_norm_ (params, 1, 1.0, 2.0, TRUE, &error);

  g_assert_null (total);
  g_assert_cmpstr (error->message, ==, "The total norm of order 2.0 for gradients from "
                   "`parameters` is non-finite, so it cannot be clipped. To disable this error and "
                   "scale the gradients by the non-finite norm anyway, set "
                   "`error_if_nonfinite=False`");
  gnn_test_assert_values (gnn_tensor_get_grad (GNN_TENSOR (a)), (const double[]) { 1, INFINITY }, 2, 0);
}

static void
test_clip_grad_value (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnParameter) a = param_with_grad ((const double[]) { 0, 0, 0 }, (const double[]) { -3, 0.2, 5 }, 3);
  GnnTensor *params[1] = { GNN_TENSOR (a) };

  g_assert_true (gnn_clip_grad_value_ (params, 1, 1.0, &error));
  gnn_test_assert_values (gnn_tensor_get_grad (GNN_TENSOR (a)), (const double[]) { -1, 0.2, 1 }, 3, 0);
}

static void
test_vectors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) m = nn_doubles ((const double[]) { 1, 2, 3, 4 }, (const gint64[]) { 2, 2 }, 2);
  g_autoptr(GnnTensor) b = nn_doubles ((const double[]) { 5 }, (const gint64[]) { 1 }, 1);
  g_autoptr(GnnParameter) pm = gnn_parameter_new (m, TRUE);
  g_autoptr(GnnParameter) pb = gnn_parameter_new (b, TRUE);
  GnnTensor *params[2] = { GNN_TENSOR (pm), GNN_TENSOR (pb) };
  g_autoptr(GnnTensor) vec = gnn_parameters_to_vector (params, 2, &error);
  g_autoptr(GnnTensor) next = nn_doubles ((const double[]) { 9, 8, 7, 6, 5 }, (const gint64[]) { 5 }, 1);
  g_autoptr(GnnTensor) bad = nn_doubles ((const double[]) { 1, 2 }, (const gint64[]) { 2 }, 1);

  g_assert_no_error (error);
  gnn_test_assert_values (vec, (const double[]) { 1, 2, 3, 4, 5 }, 5, 0);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (vec), ==, "CatBackward0");
  g_assert_true (gnn_vector_to_parameters (next, params, 2, &error));
  gnn_test_assert_values (GNN_TENSOR (pm), (const double[]) { 9, 8, 7, 6 }, 4, 0);
  gnn_test_assert_shape (GNN_TENSOR (pm), (const gint64[]) { 2, 2 }, 2);
  g_assert_true (gnn_tensor_shares_storage (GNN_TENSOR (pb), next));
  g_assert_false (gnn_vector_to_parameters (bad, params, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  gnn_test_assert_values (GNN_TENSOR (pm), (const double[]) { 9, 8, 7, 6 }, 4, 0);
}

static GStrv
keys_of (GnnModule *m)
{
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (m);

  return gnn_state_dict_get_keys (sd);
}

static GnnLinear *
linear64 (void)
{
  GnnLinear *lin = gnn_linear_new (3, 2, TRUE, NULL, NULL);

  g_assert_true (gnn_module_to_dtype (GNN_MODULE (lin), GNN_DTYPE_F64, NULL));
  return lin;
}

static GnnTensor *
call_linear (GnnTensor **in, gconstpointer data, GError **error)
{
  return gnn_module_call ((GnnModule *) data, in[0], error);
}

static void
test_weight_norm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) lin = linear64 ();
  g_autoptr(GnnTensor) x = nn_doubles ((const double[]) { 0.5, -1, 2, 1.5, 0.3, -0.7 },
                                       (const gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) before = gnn_module_call (GNN_MODULE (lin), x, &error);
  g_autoptr(GnnTensor) after = NULL;
  g_autoptr(GnnTensor) removed = NULL;
  g_auto(GStrv) keys = NULL;
  g_auto(GStrv) restored = NULL;
  GnnTensor *g, *v;

  g_assert_true (gnn_weight_norm (GNN_MODULE (lin), "weight", 0, &error));
  keys = keys_of (GNN_MODULE (lin));
  g_assert_cmpuint (g_strv_length (keys), ==, 3);
  g_assert_cmpstr (keys[0], ==, "bias");
  g_assert_cmpstr (keys[1], ==, "weight_g");
  g_assert_cmpstr (keys[2], ==, "weight_v");
  g = GNN_TENSOR (gnn_module_get_child (GNN_MODULE (lin), "weight_g", NULL));
  v = GNN_TENSOR (gnn_module_get_child (GNN_MODULE (lin), "weight_v", NULL));
  gnn_test_assert_shape (g, (const gint64[]) { 2, 1 }, 2);
  /* the reparametrized layer computes the same function */
  after = gnn_module_call (GNN_MODULE (lin), x, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_allclose (after, before, 1e-12, 1e-12));
  /* gradients reach g and v through weight = v g / ‖v‖ */
  {
    g_autoptr(GnnTensor) loss = NULL;
    g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (lin), x, &error);

    loss = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
    g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
    g_assert_nonnull (gnn_tensor_get_grad (g));
    g_assert_nonnull (gnn_tensor_get_grad (v));
  }
  nn_gradcheck (call_linear, lin, &x, 1, (const gboolean[]) { TRUE }, 1e-6);
  g_assert_false (gnn_weight_norm (GNN_MODULE (lin), "weight", 0, &error));
  g_assert_cmpstr (error->message, ==, "Cannot register two weight_norm hooks on the same parameter weight");
  g_clear_error (&error);

  g_assert_true (gnn_remove_weight_norm (GNN_MODULE (lin), "weight", &error));
  restored = keys_of (GNN_MODULE (lin));
  g_assert_cmpstr (restored[0], ==, "bias");
  g_assert_cmpstr (restored[1], ==, "weight");
  removed = gnn_module_call (GNN_MODULE (lin), x, &error);
  g_assert_true (gnn_tensor_allclose (removed, before, 1e-12, 1e-12));
  g_assert_false (gnn_remove_weight_norm (GNN_MODULE (lin), "weight", &error));
  g_assert_cmpstr (error->message, ==, "weight_norm of 'weight' not found in "
                   "Linear(in_features=3, out_features=2, bias=True)");
}

static void
test_spectral_norm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) lin = gnn_linear_new (6, 4, TRUE, NULL, NULL);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((const gint64[]) { 2, 6 }, 2, GNN_DTYPE_F32, NULL);
  g_auto(GStrv) keys = NULL;
  GnnTensor *w;

  g_assert_false (gnn_spectral_norm (GNN_MODULE (lin), "weight", 0, 1e-12, GNN_NORM_DIM_NONE, gen, &error));
  g_assert_cmpstr (error->message, ==, "Expected n_power_iterations to be positive, but got n_power_iterations=0");
  g_clear_error (&error);
  g_assert_true (gnn_spectral_norm (GNN_MODULE (lin), "weight", 5, 1e-12, GNN_NORM_DIM_NONE, gen, &error));
  keys = keys_of (GNN_MODULE (lin));
  g_assert_cmpuint (g_strv_length (keys), ==, 4);
  g_assert_cmpstr (keys[1], ==, "weight_orig");
  g_assert_cmpstr (keys[2], ==, "weight_u");
  g_assert_cmpstr (keys[3], ==, "weight_v");
  for (int i = 0; i < 5; i++)
    {
      g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (lin), x, &error);

      g_assert_no_error (error);
    }
  /* the weight's largest singular value is 1: ‖W v‖ for the top singular
   * vector v, estimated by a few more power iterations on WᵀW */
  w = gnn_module_get_tensor_attribute (GNN_MODULE (lin), "weight");
  g_assert_nonnull (w);
  {
    g_autofree double *m = gnn_tensor_to_doubles (w, NULL);
    double vec[6] = { 1, 1, 1, 1, 1, 1 }, norm = 0;

    for (int it = 0; it < 200; it++)
      {
        double wv[4] = { 0 }, next[6] = { 0 }, n2 = 0;

        for (int r = 0; r < 4; r++)
          for (int c = 0; c < 6; c++)
            wv[r] += m[r * 6 + c] * vec[c];
        for (int c = 0; c < 6; c++)
          for (int r = 0; r < 4; r++)
            next[c] += m[r * 6 + c] * wv[r];
        for (int c = 0; c < 6; c++)
          n2 += next[c] * next[c];
        norm = sqrt (sqrt (n2) / sqrt (vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2] +
                                       vec[3] * vec[3] + vec[4] * vec[4] + vec[5] * vec[5]));
        for (int c = 0; c < 6; c++)
          vec[c] = next[c] / sqrt (n2);
      }
    g_assert_cmpfloat_with_epsilon (norm, 1.0, 1e-4);
  }
  g_assert_true (gnn_remove_spectral_norm (GNN_MODULE (lin), "weight", &error));
  g_assert_null (gnn_module_get_tensor_attribute (GNN_MODULE (lin), "weight"));
  g_assert_true (GNN_IS_PARAMETER (gnn_module_get_child (GNN_MODULE (lin), "weight", NULL)));
}

static void
test_tensor_attributes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) lin = gnn_linear_new (2, 2, TRUE, NULL, NULL);
  g_autoptr(GnnTensor) t = gnn_tensor_ones ((const gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL);
  g_auto(GStrv) keys = NULL;

  g_assert_false (gnn_module_set_tensor_attribute (GNN_MODULE (lin), "bias", t, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_clear_error (&error);
  g_assert_true (gnn_module_set_tensor_attribute (GNN_MODULE (lin), "scale", t, &error));
  g_assert_true (gnn_module_get_child (GNN_MODULE (lin), "scale", NULL) == G_OBJECT (t));
  keys = keys_of (GNN_MODULE (lin));
  g_assert_cmpuint (g_strv_length (keys), ==, 2);       /* weight, bias only */
  g_assert_true (gnn_module_delete_child (GNN_MODULE (lin), "scale", &error));
  g_assert_null (gnn_module_get_tensor_attribute (GNN_MODULE (lin), "scale"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/utils/clip-grad-norm", test_clip_grad_norm);
  g_test_add_func ("/nn/utils/clip-nonfinite", test_clip_nonfinite);
  g_test_add_func ("/nn/utils/clip-grad-value", test_clip_grad_value);
  g_test_add_func ("/nn/utils/vectors", test_vectors);
  g_test_add_func ("/nn/utils/weight-norm", test_weight_norm);
  g_test_add_func ("/nn/utils/spectral-norm", test_spectral_norm);
  g_test_add_func ("/nn/utils/tensor-attributes", test_tensor_attributes);
  return g_test_run ();
}
