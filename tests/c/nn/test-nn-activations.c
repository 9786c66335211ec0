/* Activations: values against PyTorch 1.13's (float64), gradients against
 * central differences, in-place forms, errors with PyTorch's messages, and
 * the modules built from their properties alone. */
#include <math.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"
#include "nn-gradcheck.h"

static const double x_values[] = { -2.0, -0.5, 0.0, 0.25, 1.0, 3.0 };
static const gint64 x_shape[1] = { 6 };

/* Points away from every kink of the functions below (0, ±1, ±3, 6, the
 * hardtanh bounds, thresholds). */
static const double smooth_values[] = { -3.7, -2.2, -0.8, -0.3, 0.45, 1.3, 2.4, 4.1 };
static const gint64 smooth_shape[2] = { 2, 4 };

typedef struct
{
  const char *name;
  GnnTensor *(*apply) (GnnTensor *x, GError **error);
  double      expected[6];      /* PyTorch 1.13 on x_values */
} Case;

static GnnTensor *leaky (GnnTensor *x, GError **e) { return gnn_tensor_leaky_relu (x, 0.2, e); }
static GnnTensor *elu (GnnTensor *x, GError **e) { return gnn_tensor_elu (x, 1.5, e); }
static GnnTensor *celu (GnnTensor *x, GError **e) { return gnn_tensor_celu (x, 0.5, e); }
static GnnTensor *hardtanh (GnnTensor *x, GError **e) { return gnn_tensor_hardtanh (x, -1, 0.5, e); }
static GnnTensor *softplus (GnnTensor *x, GError **e) { return gnn_tensor_softplus (x, 2, 1, e); }
static GnnTensor *threshold (GnnTensor *x, GError **e) { return gnn_tensor_threshold (x, 0.1, 20, e); }
static GnnTensor *gelu_tanh (GnnTensor *x, GError **e) { return gnn_tensor_gelu_approximate (x, "tanh", e); }
static GnnTensor *hardshrink (GnnTensor *x, GError **e) { return gnn_tensor_hardshrink (x, 0.5, e); }
static GnnTensor *softshrink (GnnTensor *x, GError **e) { return gnn_tensor_softshrink (x, 0.4, e); }

static GnnTensor *
relu6_3x (GnnTensor *x, GError **e)
{
  g_autoptr(GnnTensor) x3 = gnn_tensor_mul_scalar (x, 3, e);

  return x3 != NULL ? gnn_tensor_relu6 (x3, e) : NULL;
}

static const Case cases[] = {
  { "leaky_relu", leaky, { -0.4, -0.1, 0, 0.25, 1, 3 } },
  { "elu", elu, { -1.29699708, -0.59020401, 0, 0.25, 1, 3 } },
  { "selu", gnn_tensor_selu, { -1.52016647, -0.691758188, 0, 0.262675247, 1.05070099, 3.15210296 } },
  { "celu", celu, { -0.490842181, -0.316060279, 0, 0.25, 1, 3 } },
  { "silu", gnn_tensor_silu, { -0.238405844, -0.188770334, 0, 0.140544125, 0.731058579, 2.85772238 } },
  { "mish", gnn_tensor_mish, { -0.252501483, -0.220743775, 0, 0.16957241, 0.865098388, 2.986535 } },
  { "hardtanh", hardtanh, { -1, -0.5, 0, 0.25, 0.5, 0.5 } },
  { "relu6", relu6_3x, { 0, 0, 0, 0.75, 3, 6 } },
  { "hardswish", gnn_tensor_hardswish, { -0.333333333, -0.208333333, 0, 0.135416667, 0.666666667, 3 } },
  { "hardsigmoid", gnn_tensor_hardsigmoid, { 0.166666667, 0.416666667, 0.5, 0.541666667, 0.666666667, 1 } },
  { "softplus", softplus, { 0.00907496396, 0.156630844, 0.34657359, 0.487038492, 1, 3 } },
  { "softsign", gnn_tensor_softsign, { -0.666666667, -0.333333333, 0, 0.2, 0.5, 0.75 } },
  { "tanhshrink", gnn_tensor_tanhshrink, { -1.03597242, -0.0378828427, 0, 0.0050813376, 0.238405844, 2.00494525 } },
  { "threshold", threshold, { 20, 20, 20, 0.25, 1, 3 } },
  { "gelu_tanh", gelu_tanh, { -0.0454023059, -0.15428599, 0, 0.149675351, 0.841191991, 2.99636261 } },
  { "hardshrink", hardshrink, { -2, 0, 0, 0, 1, 3 } },
  { "softshrink", softshrink, { -1.6, -0.1, 0, 0, 0.6, 2.6 } },
  { "log_sigmoid", gnn_tensor_log_sigmoid, { -2.12692801, -0.974076984, -0.693147181, -0.57593942, -0.313261688, -0.0485873516 } },
};

static void
test_values (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = nn_doubles (x_values, x_shape, 1);
  g_autoptr(GnnTensor) x32 = gnn_tensor_to_dtype (x, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = c->apply (x, &error);
  g_autoptr(GnnTensor) y32 = NULL;

  g_assert_no_error (error);
  gnn_test_assert_values (y, c->expected, 6, 1e-8);
  y32 = c->apply (x32, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (y32), ==, GNN_DTYPE_F32);
  gnn_test_assert_values (y32, c->expected, 6, 1e-6);
}

static GnnTensor *
apply_case (GnnTensor **inputs, gconstpointer data, GError **error)
{
  return ((const Case *) data)->apply (inputs[0], error);
}

static void
test_gradient (gconstpointer data)
{
  g_autoptr(GnnTensor) x = nn_doubles (smooth_values, smooth_shape, 2);
  g_autoptr(GnnTensor) xt = gnn_tensor_transpose (x, 0, 1, NULL);
  g_autoptr(GnnTensor) xc = gnn_tensor_contiguous (xt);

  nn_gradcheck (apply_case, data, &x, 1, (const gboolean[]) { TRUE }, 1e-6);
  nn_gradcheck (apply_case, data, &xc, 1, (const gboolean[]) { TRUE }, 1e-6);
}

/* The in-place forms change the tensor itself (even a strided view) and
 * give the out-of-place values. */
static void
test_inplace (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = nn_doubles (smooth_values, smooth_shape, 2);
  g_autoptr(GnnTensor) view = gnn_tensor_transpose (x, 0, 1, &error);
  g_autoptr(GnnTensor) want = gnn_tensor_elu (view, 0.7, &error);

  g_assert_no_error (error);
  g_assert_true (gnn_tensor_elu_ (view, 0.7, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_equal (view, want));
  g_assert_true (gnn_tensor_threshold_ (x, 0.0, -5.0, &error));
  g_assert_cmpfloat (gnn_tensor_get_element (x, (const gint64[]) { 0, 0 }, 2, NULL), ==, -5.0);
}

/* In the graph: the in-place form's gradient is that of the out-of-place
 * one; on a leaf that requires grad it fails as in PyTorch. */
static void
test_inplace_autograd (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) leaf = nn_doubles (smooth_values, smooth_shape, 2);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autofree double *g = NULL;

  gnn_tensor_set_requires_grad (leaf, TRUE);
  g_assert_false (gnn_tensor_leaky_relu_ (leaf, 0.1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==,
                   "a leaf Variable that requires grad is being used in an in-place operation.");
  g_clear_error (&error);

  y = gnn_tensor_mul_scalar (leaf, 2.0, &error);
  g_assert_true (gnn_tensor_leaky_relu_ (y, 0.1, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "LeakyReluBackward0");
  loss = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  g = gnn_tensor_to_doubles (gnn_tensor_get_grad (leaf), NULL);
  for (guint k = 0; k < 8; k++)
    g_assert_cmpfloat (g[k], ==, smooth_values[k] > 0 ? 2.0 : 0.2);
}

static GnnTensor *
glu_0 (GnnTensor **inputs, gconstpointer data, GError **error)
{
  return gnn_tensor_glu (inputs[0], GPOINTER_TO_INT (data), error);
}

static void
test_glu (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = nn_doubles (x_values, (const gint64[]) { 2, 3 }, 2);
  g_autoptr(GnnTensor) y = gnn_tensor_glu (x, 0, &error);
  g_autoptr(GnnTensor) s = nn_doubles (smooth_values, smooth_shape, 2);
  g_autoptr(GnnTensor) odd = NULL;
  const double expected[] = { -1.1243530017715961, -0.36552928931500245, 0.0 };

  g_assert_no_error (error);
  gnn_test_assert_shape (y, (const gint64[]) { 1, 3 }, 2);
  gnn_test_assert_values (y, expected, 3, 1e-12);
  nn_gradcheck (glu_0, GINT_TO_POINTER (0), &s, 1, (const gboolean[]) { TRUE }, 1e-6);
  nn_gradcheck (glu_0, GINT_TO_POINTER (-1), &s, 1, (const gboolean[]) { TRUE }, 1e-6);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, NULL);

  odd = gnn_tensor_glu (x, 1, &error);
  g_assert_null (odd);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Halving dimension must be even, but dimension 1 is size 3");
}

static GnnTensor *
prelu (GnnTensor **inputs, gconstpointer data, GError **error)
{
  return gnn_tensor_prelu (inputs[0], inputs[1], error);
}

static void
test_prelu (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = nn_doubles (x_values, (const gint64[]) { 1, 2, 3 }, 3);
  g_autoptr(GnnTensor) w = nn_doubles ((const double[]) { 0.1, 0.3 }, (const gint64[]) { 2 }, 1);
  g_autoptr(GnnTensor) w3 = nn_doubles ((const double[]) { 0.1, 0.3, 0.5 }, (const gint64[]) { 3 }, 1);
  g_autoptr(GnnTensor) y = gnn_tensor_prelu (x, w, &error);
  g_autoptr(GnnTensor) bad = NULL;
  GnnTensor *inputs[2];
  const double expected[] = { -0.2, -0.05, 0.0, 0.25, 1.0, 3.0 };

  g_assert_no_error (error);
  gnn_test_assert_values (y, expected, 6, 1e-12);

  /* [2, 4] input: 4 channels; and one shared slope */
  inputs[0] = nn_doubles (smooth_values, smooth_shape, 2);
  inputs[1] = nn_doubles ((const double[]) { 0.1, 0.2, 0.3, 0.4 }, (const gint64[]) { 4 }, 1);
  nn_gradcheck (prelu, NULL, inputs, 2, (const gboolean[]) { TRUE, TRUE }, 1e-6);
  g_object_unref (inputs[1]);
  inputs[1] = nn_doubles ((const double[]) { 0.25 }, (const gint64[]) { 1 }, 1);
  nn_gradcheck (prelu, NULL, inputs, 2, (const gboolean[]) { TRUE, TRUE }, 1e-6);
  g_object_unref (inputs[0]);
  g_object_unref (inputs[1]);

  bad = gnn_tensor_prelu (x, w3, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Mismatch of parameter numbers and input channel size. "
                   "Found parameter numbers = 3 and channel size = 2.");
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) ints = gnn_tensor_arange (0, 4, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) x = nn_doubles (x_values, x_shape, 1);
  g_autoptr(GnnTensor) y = gnn_tensor_leaky_relu (ints, 0.1, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==, "\"leaky_relu_cpu\" not implemented for 'Long'");
  g_clear_error (&error);
  g_assert_false (gnn_tensor_elu_ (ints, 1.0, &error));
  g_assert_cmpstr (error->message, ==, "\"elu_cpu\" not implemented for 'Long'");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_celu (x, 0.0, &error));
  g_assert_cmpstr (error->message, ==, "ZeroDivisionError: alpha cannot be 0 for CELU");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_gelu_approximate (x, "cubic", &error));
  g_assert_cmpstr (error->message, ==, "approximate argument must be either none or tanh.");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_softshrink (ints, 0.5, &error));
  g_assert_cmpstr (error->message, ==, "\"softshrink_cpu\" not implemented for 'Long'");
  g_clear_error (&error);
  g_assert_null (gnn_tensor_softshrink (x, -0.25, &error));
  g_assert_cmpstr (error->message, ==, "lambda must be greater or equal to 0, but found to be -0.25.");
}

/* Every module built from its properties alone computes what its
 * functional form computes, and prints PyTorch's repr. */
static void
test_modules (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = nn_doubles (smooth_values, (const gint64[]) { 1, 2, 2, 2 }, 4);
  struct { GType type; const char *repr; GnnTensor *(*f) (GnnTensor *, GError **); } mods[] = {
    { GNN_TYPE_RELU6, "ReLU6()", gnn_tensor_relu6 },
    { GNN_TYPE_SELU, "SELU()", gnn_tensor_selu },
    { GNN_TYPE_SILU, "SiLU()", gnn_tensor_silu },
    { GNN_TYPE_MISH, "Mish()", gnn_tensor_mish },
    { GNN_TYPE_HARDSWISH, "Hardswish()", gnn_tensor_hardswish },
    { GNN_TYPE_HARDSIGMOID, "Hardsigmoid()", gnn_tensor_hardsigmoid },
    { GNN_TYPE_SOFTSIGN, "Softsign()", gnn_tensor_softsign },
    { GNN_TYPE_TANHSHRINK, "Tanhshrink()", gnn_tensor_tanhshrink },
    { GNN_TYPE_LOG_SIGMOID, "LogSigmoid()", gnn_tensor_log_sigmoid },
  };

  for (guint i = 0; i < G_N_ELEMENTS (mods); i++)
    {
      g_autoptr(GnnModule) m = g_object_new (mods[i].type, NULL);
      g_autofree char *repr = gnn_module_to_string (m);
      g_autoptr(GnnTensor) got = gnn_module_call (m, x, &error);
      g_autoptr(GnnTensor) want = mods[i].f (x, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (repr, ==, mods[i].repr);
      g_assert_true (gnn_tensor_equal (got, want));
    }
}

static void
test_module_settings (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = nn_doubles (smooth_values, smooth_shape, 2);
  g_autoptr(GnnModule) leaky = g_object_new (GNN_TYPE_LEAKY_RELU, "negative-slope", 0.2, NULL);
  g_autoptr(GnnModule) softplus = g_object_new (GNN_TYPE_SOFTPLUS, NULL);
  g_autoptr(GnnModule) thr = g_object_new (GNN_TYPE_THRESHOLD, "threshold", 0.1, "value", 20.0,
                                           "inplace", TRUE, NULL);
  g_autoptr(GnnModule) glu = g_object_new (GNN_TYPE_GLU, "dim", 0, NULL);
  g_autoptr(GnnModule) elu = g_object_new (GNN_TYPE_ELU, "alpha", 0.5, "inplace", TRUE, NULL);
  g_autofree char *r1 = gnn_module_to_string (leaky);
  g_autofree char *r2 = gnn_module_to_string (softplus);
  g_autofree char *r3 = gnn_module_to_string (thr);
  g_autofree char *r4 = gnn_module_to_string (glu);
  g_autofree char *r5 = gnn_module_to_string (elu);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) copy = gnn_tensor_clone (x);
  double slope = 0;

  g_assert_cmpstr (r1, ==, "LeakyReLU(negative_slope=0.2)");
  g_assert_cmpstr (r2, ==, "Softplus(beta=1, threshold=20)");
  g_assert_cmpstr (r3, ==, "Threshold(threshold=0.1, value=20, inplace=True)");
  g_assert_cmpstr (r4, ==, "GLU(dim=0)");
  g_assert_cmpstr (r5, ==, "ELU(alpha=0.5, inplace=True)");
  g_object_get (leaky, "negative-slope", &slope, NULL);
  g_assert_cmpfloat (slope, ==, 0.2);

  /* inplace=True: forward returns its input, changed */
  y = gnn_module_call (elu, copy, &error);
  g_assert_no_error (error);
  g_assert_true (y == copy);
  g_clear_object (&y);
  y = gnn_tensor_elu (x, 0.5, &error);
  g_assert_true (gnn_tensor_equal (y, copy));
}

static void
test_hardtanh_construction (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnHardtanh) bad = gnn_hardtanh_new (1.0, -1.0, FALSE, &error);
  g_autoptr(GnnHardtanh) good = gnn_hardtanh_new (-2.0, 2.0, FALSE, &error);
  g_autoptr(GnnModule) bare = g_object_new (GNN_TYPE_HARDTANH, "min-val", 3.0, NULL);
  g_autoptr(GnnTensor) x = nn_doubles (x_values, x_shape, 1);
  g_autoptr(GnnTensor) y = NULL;
  g_autofree char *repr = NULL;

  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Hardtanh: max_val (-1.0) must be larger than min_val (1.0)");
  g_clear_error (&error);
  g_assert_nonnull (good);
  repr = gnn_module_to_string (GNN_MODULE (good));
  g_assert_cmpstr (repr, ==, "Hardtanh(min_val=-2.0, max_val=2.0)");
  /* built bare with bad settings: forward refuses with the same error */
  y = gnn_module_call (bare, x, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

/* Hardshrink and Softshrink: PyTorch's repr (str(lambd)); a negative
 * lambd is Softshrink's error at forward, as in PyTorch. */
static void
test_shrink_modules (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) hard = g_object_new (GNN_TYPE_HARDSHRINK, NULL);
  g_autoptr(GnnSoftshrink) soft = gnn_softshrink_new (0.25);
  g_autoptr(GnnModule) bad = g_object_new (GNN_TYPE_SOFTSHRINK, "lambd", -1.0, NULL);
  g_autoptr(GnnTensor) x = nn_doubles (x_values, x_shape, 1);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (soft), x, &error);
  g_autoptr(GnnTensor) z = NULL;
  g_autofree char *r1 = gnn_module_to_string (hard);
  g_autofree char *r2 = gnn_module_to_string (GNN_MODULE (soft));

  g_assert_no_error (error);
  g_assert_cmpstr (r1, ==, "Hardshrink(0.5)");
  g_assert_cmpstr (r2, ==, "Softshrink(0.25)");
  gnn_test_assert_values (y, (const double[]) { -1.75, -0.25, 0, 0, 0.75, 2.75 }, 6, 1e-12);
  z = gnn_module_call (bad, x, &error);
  g_assert_null (z);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "lambda must be greater or equal to 0, but found to be -1.");
}

static void
test_prelu_module (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnPReLU) p = gnn_prelu_new (2, 0.1, &error);
  g_autoptr(GnnModule) bare = g_object_new (GNN_TYPE_PRELU, NULL);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnTensor) x = nn_doubles (x_values, (const gint64[]) { 1, 2, 3 }, 3);
  g_autoptr(GnnTensor) x32 = gnn_tensor_to_dtype (x, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autofree char *repr = gnn_module_to_string (GNN_MODULE (p));
  g_autofree char *bare_repr = gnn_module_to_string (bare);
  g_auto(GStrv) keys = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (repr, ==, "PReLU(num_parameters=2)");
  g_assert_cmpstr (bare_repr, ==, "PReLU(num_parameters=1)");
  sd = gnn_module_state_dict (GNN_MODULE (p));
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpuint (g_strv_length (keys), ==, 1);
  g_assert_cmpstr (keys[0], ==, "weight");
  y = gnn_module_call (GNN_MODULE (p), x32, &error);
  g_assert_no_error (error);
  gnn_test_assert_values (y, (const double[]) { -0.2, -0.05, 0.0, 0.25, 1.0, 3.0 }, 6, 1e-6);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *v = g_strdup_printf ("/nn/activations/values/%s", cases[i].name);
      g_autofree char *g = g_strdup_printf ("/nn/activations/gradient/%s", cases[i].name);

      g_test_add_data_func (v, &cases[i], test_values);
      g_test_add_data_func (g, &cases[i], test_gradient);
    }
  g_test_add_func ("/nn/activations/inplace", test_inplace);
  g_test_add_func ("/nn/activations/inplace-autograd", test_inplace_autograd);
  g_test_add_func ("/nn/activations/glu", test_glu);
  g_test_add_func ("/nn/activations/prelu", test_prelu);
  g_test_add_func ("/nn/activations/errors", test_errors);
  g_test_add_func ("/nn/activations/modules", test_modules);
  g_test_add_func ("/nn/activations/module-settings", test_module_settings);
  g_test_add_func ("/nn/activations/hardtanh-construction", test_hardtanh_construction);
  g_test_add_func ("/nn/activations/prelu-module", test_prelu_module);
  g_test_add_func ("/nn/activations/shrink-modules", test_shrink_modules);
  return g_test_run ();
}
