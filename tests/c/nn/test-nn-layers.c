/* Layers: forward values, extra_repr text, properties, initialization and
 * dropout's training/evaluation behaviour. */
#include <math.h>

#include <gnn/gnn.h>

static GnnTensor *
floats (const float  *v,
        gsize         n,
        const gint64 *shape,
        guint         ndim)
{
  return gnn_tensor_new_from_floats (v, n, shape, ndim, NULL);
}

static GnnTensor *
sample (void)
{
  static const float v[] = { -2.0f, -0.5f, 0.0f, 0.25f, 1.0f, 3.0f };
  gint64 shape[2] = { 2, 3 };

  return floats (v, 6, shape, 2);
}

static void
assert_values (GnnTensor   *t,
               const float *expected,
               gsize        n,
               double       tol)
{
  gsize len = 0;
  g_autofree float *v = NULL;

  g_assert_nonnull (t);
  v = gnn_tensor_to_floats (t, &len);
  g_assert_cmpuint (len, ==, n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat_with_epsilon (v[i], expected[i], tol);
}

static char *
repr (gpointer module)
{
  return gnn_module_to_string (GNN_MODULE (module));
}

static void
test_linear_forward_values (void)
{
  g_autoptr(GnnLinear) lin = gnn_linear_new (3, 2, TRUE, NULL, NULL);
  static const float w[] = { 1, 2, 3, -1, 0, 1 };
  static const float b[] = { 0.5f, -0.5f };
  gint64 ws[2] = { 2, 3 }, bs[1] = { 2 };
  g_autoptr(GnnTensor) wt = floats (w, 6, ws, 2);
  g_autoptr(GnnTensor) bt = floats (b, 2, bs, 1);
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = NULL;
  /* rows: [-2,-.5,0] and [.25,1,3] */
  const float expected[] = { -3.0f + 0.5f, 2.0f - 0.5f, 11.25f + 0.5f, 2.75f - 0.5f };

  gnn_no_grad_push ();   /* parameters are leaves that require grad */
  g_assert_true (gnn_tensor_copy_ (GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (lin), "weight", NULL)), wt, NULL));
  g_assert_true (gnn_tensor_copy_ (GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (lin), "bias", NULL)), bt, NULL));
  gnn_no_grad_pop ();
  y = gnn_module_call (GNN_MODULE (lin), x, NULL);
  assert_values (y, expected, 4, 1e-6);
  g_assert_cmpint (gnn_tensor_get_size (y, 1, NULL), ==, 2);
}

static void
test_linear_no_bias (void)
{
  g_autoptr(GnnLinear) lin = gnn_linear_new (3, 2, FALSE, NULL, NULL);
  g_autofree char *text = repr (lin);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (GNN_MODULE (lin), "", TRUE, &names);
  GnnParameter *bias = (gpointer) 1;

  g_assert_cmpstr (text, ==, "Linear(in_features=3, out_features=2, bias=False)");
  g_assert_cmpuint (params->len, ==, 1);
  g_assert_cmpstr (names[0], ==, "weight");
  g_assert_true (gnn_module_has_child (GNN_MODULE (lin), "bias"));
  g_object_get (lin, "bias", &bias, NULL);
  g_assert_null (bias);
}

static void
test_linear_shapes_and_slots (void)
{
  g_autoptr(GnnLinear) lin = gnn_linear_new (4, 8, TRUE, NULL, NULL);
  g_autoptr(GnnParameter) weight = NULL;
  g_autoptr(GnnParameter) bias = NULL;

  g_object_get (lin, "weight", &weight, "bias", &bias, NULL);
  g_assert_cmpint (gnn_tensor_get_size (GNN_TENSOR (weight), 0, NULL), ==, 8);
  g_assert_cmpint (gnn_tensor_get_size (GNN_TENSOR (weight), 1, NULL), ==, 4);
  g_assert_cmpint (gnn_tensor_get_size (GNN_TENSOR (bias), 0, NULL), ==, 8);
  g_assert_true (weight == gnn_module_get_parameter (GNN_MODULE (lin), "weight", NULL));
}

static void
test_linear_init_bounds_and_seed (void)
{
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (7);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (7);
  g_autoptr(GnnLinear) a = gnn_linear_new (16, 5, TRUE, g1, NULL);
  g_autoptr(GnnLinear) b = gnn_linear_new (16, 5, TRUE, g2, NULL);
  GnnParameter *wa = gnn_module_get_parameter (GNN_MODULE (a), "weight", NULL);
  GnnParameter *wb = gnn_module_get_parameter (GNN_MODULE (b), "weight", NULL);
  GnnParameter *ba = gnn_module_get_parameter (GNN_MODULE (a), "bias", NULL);
  gsize n = 0;
  g_autofree float *w = gnn_tensor_to_floats (GNN_TENSOR (wa), &n);
  g_autofree float *bv = NULL;
  double bound = 1.0 / sqrt (16.0);   /* kaiming_uniform(a=sqrt 5) = 1/sqrt(fan_in) */
  gboolean varied = FALSE;

  g_assert_true (gnn_tensor_equal (GNN_TENSOR (wa), GNN_TENSOR (wb)));
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpfloat (fabs (w[i]), <=, bound + 1e-7);
      varied |= w[i] != w[0];
    }
  g_assert_true (varied);
  bv = gnn_tensor_to_floats (GNN_TENSOR (ba), &n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (fabs (bv[i]), <=, bound + 1e-7);
}

static void
test_linear_default_generator_differs (void)
{
  g_autoptr(GnnLinear) a = gnn_linear_new (4, 4, TRUE, NULL, NULL);
  g_autoptr(GnnLinear) b = gnn_linear_new (4, 4, TRUE, NULL, NULL);

  g_assert_false (gnn_tensor_equal (GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (a), "weight", NULL)),
                                    GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (b), "weight", NULL))));
}

static void
test_linear_negative_size (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_linear_new (-1, 3, TRUE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Trying to create tensor with negative dimension -1: [3, -1]");
}

static void
test_linear_properties_round_trip (void)
{
  g_autoptr(GnnLinear) a = g_object_new (GNN_TYPE_LINEAR, "in-features", (gint64) 4,
                                         "out-features", (gint64) 8, "has-bias", FALSE,
                                         "dtype", GNN_DTYPE_F64, NULL);
  g_autoptr(GnnLinear) b = NULL;
  gint64 in = 0, out = 0;
  gboolean has_bias = TRUE;
  GnnDType dtype = GNN_DTYPE_F32;
  g_autofree char *ta = NULL, *tb = NULL;

  g_object_get (a, "in-features", &in, "out-features", &out, "has-bias", &has_bias,
                "dtype", &dtype, NULL);
  g_assert_cmpint (in, ==, 4);
  g_assert_cmpint (out, ==, 8);
  g_assert_false (has_bias);
  g_assert_cmpint (dtype, ==, GNN_DTYPE_F64);
  b = g_object_new (GNN_TYPE_LINEAR, "in-features", in, "out-features", out,
                    "has-bias", has_bias, "dtype", dtype, NULL);
  ta = repr (a);
  tb = repr (b);
  g_assert_cmpstr (ta, ==, tb);
  g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (b), "weight", NULL))),
                   ==, GNN_DTYPE_F64);
}

static void
test_linear_shape_mismatch (void)
{
  g_autoptr(GnnLinear) lin = gnn_linear_new (4, 2, TRUE, NULL, NULL);
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_module_call (GNN_MODULE (lin), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

static void
test_identity (void)
{
  g_autoptr(GnnIdentity) id = gnn_identity_new ();
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (id), x, NULL);
  g_autofree char *text = repr (id);

  g_assert_true (y == x);
  g_assert_cmpstr (text, ==, "Identity()");
}

static void
test_relu_values_and_inplace (void)
{
  g_autoptr(GnnReLU) relu = gnn_relu_new (FALSE);
  g_autoptr(GnnReLU) relu_ip = gnn_relu_new (TRUE);
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (relu), x, NULL);
  g_autoptr(GnnTensor) z = NULL;
  const float expected[] = { 0, 0, 0, 0.25f, 1, 3 };
  g_autofree char *t1 = repr (relu), *t2 = repr (relu_ip);

  assert_values (y, expected, 6, 1e-7);
  g_assert_cmpfloat (gnn_tensor_get_element (x, (gint64[]) { 0, 0 }, 2, NULL), ==, -2.0);
  z = gnn_module_call (GNN_MODULE (relu_ip), x, NULL);
  g_assert_true (z == x);
  assert_values (x, expected, 6, 1e-7);
  g_assert_cmpstr (t1, ==, "ReLU()");
  g_assert_cmpstr (t2, ==, "ReLU(inplace=True)");
}

static void
test_gelu_values (void)
{
  g_autoptr(GnnGELU) exact = gnn_gelu_new (NULL);
  g_autoptr(GnnGELU) approx = gnn_gelu_new ("tanh");
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (exact), x, NULL);
  g_autoptr(GnnTensor) z = gnn_module_call (GNN_MODULE (approx), x, NULL);
  static const float xs[] = { -2.0f, -0.5f, 0.0f, 0.25f, 1.0f, 3.0f };
  float e1[6], e2[6];
  g_autofree char *t1 = repr (exact), *t2 = repr (approx);

  for (int i = 0; i < 6; i++)
    {
      double v = xs[i];
      e1[i] = (float) (0.5 * v * (1 + erf (v / sqrt (2.0))));
      e2[i] = (float) (0.5 * v * (1 + tanh (sqrt (2 / G_PI) * (v + 0.044715 * v * v * v))));
    }
  assert_values (y, e1, 6, 1e-6);
  assert_values (z, e2, 6, 1e-6);
  g_assert_cmpstr (t1, ==, "GELU(approximate='none')");
  g_assert_cmpstr (t2, ==, "GELU(approximate='tanh')");
}

static void
test_gelu_bad_approximate (void)
{
  g_autoptr(GnnGELU) gelu = gnn_gelu_new ("cubic");
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_module_call (GNN_MODULE (gelu), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "approximate argument must be either none or tanh.");
}

static void
test_tanh_sigmoid_values (void)
{
  g_autoptr(GnnTanh) th = gnn_tanh_new ();
  g_autoptr(GnnSigmoid) sg = gnn_sigmoid_new ();
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (th), x, NULL);
  g_autoptr(GnnTensor) z = gnn_module_call (GNN_MODULE (sg), x, NULL);
  static const float xs[] = { -2.0f, -0.5f, 0.0f, 0.25f, 1.0f, 3.0f };
  float e1[6], e2[6];
  g_autofree char *t1 = repr (th), *t2 = repr (sg);

  for (int i = 0; i < 6; i++)
    {
      e1[i] = tanhf (xs[i]);
      e2[i] = (float) (1.0 / (1.0 + exp (-xs[i])));
    }
  assert_values (y, e1, 6, 1e-6);
  assert_values (z, e2, 6, 1e-6);
  g_assert_cmpstr (t1, ==, "Tanh()");
  g_assert_cmpstr (t2, ==, "Sigmoid()");
}

static void
test_softmax_values (void)
{
  g_autoptr(GnnSoftmax) sm = gnn_softmax_new (1);
  g_autoptr(GnnLogSoftmax) lsm = gnn_log_softmax_new (-1);
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (sm), x, NULL);
  g_autoptr(GnnTensor) z = gnn_module_call (GNN_MODULE (lsm), x, NULL);
  static const float xs[] = { -2.0f, -0.5f, 0.0f, 0.25f, 1.0f, 3.0f };
  float e1[6], e2[6];
  g_autofree char *t1 = repr (sm), *t2 = repr (lsm);

  for (int r = 0; r < 2; r++)
    {
      double sum = 0;

      for (int c = 0; c < 3; c++)
        sum += exp (xs[r * 3 + c]);
      for (int c = 0; c < 3; c++)
        {
          e1[r * 3 + c] = (float) (exp (xs[r * 3 + c]) / sum);
          e2[r * 3 + c] = (float) (xs[r * 3 + c] - log (sum));
        }
    }
  assert_values (y, e1, 6, 1e-6);
  assert_values (z, e2, 6, 1e-6);
  g_assert_cmpstr (t1, ==, "Softmax(dim=1)");
  g_assert_cmpstr (t2, ==, "LogSoftmax(dim=-1)");
}

static void
test_softmax_dim_none (void)
{
  g_autoptr(GnnSoftmax) sm = g_object_new (GNN_TYPE_SOFTMAX, NULL);
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (sm), x, NULL);
  g_autoptr(GnnTensor) expected = gnn_tensor_softmax (x, 1, NULL);
  g_autofree char *text = repr (sm);

  g_assert_cmpint (gnn_softmax_get_dim (sm), ==, GNN_SOFTMAX_DIM_NONE);
  g_assert_cmpstr (text, ==, "Softmax(dim=None)");
  g_assert_true (gnn_tensor_allclose (y, expected, 0, 0));
}

static void
test_flatten (void)
{
  g_autoptr(GnnFlatten) fl = gnn_flatten_new (1, -1);
  gint64 shape[3] = { 2, 3, 4 };
  g_autoptr(GnnTensor) x = gnn_tensor_ones (shape, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (fl), x, NULL);
  g_autofree char *text = repr (fl);
  g_autoptr(GnnFlatten) bad = gnn_flatten_new (5, -1);
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (gnn_tensor_get_ndim (y), ==, 2);
  g_assert_cmpint (gnn_tensor_get_size (y, 1, NULL), ==, 12);
  g_assert_cmpstr (text, ==, "Flatten(start_dim=1, end_dim=-1)");
  g_assert_null (gnn_module_call (GNN_MODULE (bad), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

static void
test_dropout_eval_is_identity (void)
{
  g_autoptr(GnnDropout) d = gnn_dropout_new (0.5, FALSE, NULL, NULL);
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = NULL;

  gnn_module_eval (GNN_MODULE (d));
  y = gnn_module_call (GNN_MODULE (d), x, NULL);
  g_assert_true (y == x);
}

static void
test_dropout_train_masks_and_scales (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnDropout) d = gnn_dropout_new (0.25, FALSE, gen, NULL);
  gint64 shape[1] = { 4000 };
  g_autoptr(GnnTensor) x = gnn_tensor_ones (shape, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (d), x, NULL);
  gsize n = 0;
  g_autofree float *v = gnn_tensor_to_floats (y, &n);
  gsize zeros = 0;

  g_assert_true (gnn_module_get_training (GNN_MODULE (d)));
  for (gsize i = 0; i < n; i++)
    {
      if (v[i] == 0.0f)
        zeros++;
      else
        g_assert_cmpfloat_with_epsilon (v[i], 1.0 / 0.75, 1e-6);
    }
  g_assert_cmpuint (zeros, >, 850);
  g_assert_cmpuint (zeros, <, 1150);
  /* the input is untouched */
  g_assert_cmpfloat (gnn_tensor_get_element (x, (gint64[]) { 0 }, 1, NULL), ==, 1.0);
}

static void
test_dropout_seeded_reproducible (void)
{
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (11);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (11);
  g_autoptr(GnnDropout) d1 = gnn_dropout_new (0.5, FALSE, g1, NULL);
  g_autoptr(GnnDropout) d2 = gnn_dropout_new (0.5, FALSE, g2, NULL);
  gint64 shape[2] = { 8, 8 };
  g_autoptr(GnnTensor) x = gnn_tensor_ones (shape, 2, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) y1 = gnn_module_call (GNN_MODULE (d1), x, NULL);
  g_autoptr(GnnTensor) y2 = gnn_module_call (GNN_MODULE (d2), x, NULL);

  g_assert_true (gnn_tensor_equal (y1, y2));
}

static void
test_dropout_p_one_and_inplace (void)
{
  g_autoptr(GnnDropout) all = gnn_dropout_new (1.0, TRUE, NULL, NULL);
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (all), x, NULL);
  const float zeros[6] = { 0 };
  g_autofree char *text = repr (all);

  g_assert_true (y == x);
  assert_values (x, zeros, 6, 1e-7);
  g_assert_cmpstr (text, ==, "Dropout(p=1.0, inplace=True)");
}

static void
test_dropout_bad_p (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDropout) d = gnn_dropout_new (0.1, FALSE, NULL, NULL);
  g_autofree char *text = repr (d);

  g_assert_cmpstr (text, ==, "Dropout(p=0.1, inplace=False)");
  g_assert_null (gnn_dropout_new (1.5, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "dropout probability has to be between 0 and 1, but got 1.5");
}

/* gnn_dropout (F.dropout) draws the module's mask from the same generator
 * state, refuses p outside [0, 1] and integer inputs with torch's messages,
 * and returns its input when not training. */
static void
test_dropout_functional (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (5);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (5);
  g_autoptr(GnnDropout) d = gnn_dropout_new (0.4, FALSE, g1, NULL);
  gint64 shape[2] = { 6, 7 };
  g_autoptr(GnnTensor) x = gnn_tensor_ones (shape, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) ints = gnn_tensor_arange (0, 3, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) want = gnn_module_call (GNN_MODULE (d), x, NULL);
  g_autoptr(GnnTensor) got = gnn_dropout (x, 0.4, TRUE, FALSE, g2, &error);
  g_autoptr(GnnTensor) same = gnn_dropout (x, 0.4, FALSE, FALSE, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (gnn_tensor_equal (got, want));
  g_assert_true (same == x);
  g_assert_null (gnn_dropout (x, -0.5, TRUE, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "dropout probability has to be between 0 and 1, but got -0.5");
  g_clear_error (&error);
  g_assert_null (gnn_dropout (ints, 0.5, TRUE, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==, "result type Float can't be cast to the desired output type Long");
}

/* gnn_tensor_linear (F.linear) computes what the layer computes with its
 * parameters, recorded or not, and the gradient reaches the weight. */
static void
test_linear_functional (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnLinear) lin = gnn_linear_new (3, 2, TRUE, gen, NULL);
  g_autoptr(GnnTensor) x = sample ();
  g_autoptr(GnnTensor) x2 = gnn_tensor_reshape (x, (gint64[]) { 2, 3 }, 2, NULL);
  GnnTensor *w = GNN_TENSOR (gnn_module_get_child (GNN_MODULE (lin), "weight", NULL));
  GnnTensor *b = GNN_TENSOR (gnn_module_get_child (GNN_MODULE (lin), "bias", NULL));
  g_autoptr(GnnTensor) want = gnn_module_call (GNN_MODULE (lin), x2, NULL);
  g_autoptr(GnnTensor) got = gnn_tensor_linear (x2, w, b, &error);
  g_autoptr(GnnTensor) wide = gnn_tensor_ones ((gint64[]) { 4, 5 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) loss = NULL;

  g_assert_no_error (error);
  g_assert_true (gnn_tensor_allclose (got, want, 1e-6, 1e-7));
  loss = gnn_tensor_sum (got, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  g_assert_nonnull (gnn_tensor_get_grad (w));
  g_assert_null (gnn_tensor_linear (x2, wide, NULL, &error));
  g_assert_cmpstr (error->message, ==, "mat1 and mat2 shapes cannot be multiplied (2x3 and 5x4)");
}

static void
test_dropout_properties_round_trip (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (5);
  g_autoptr(GnnDropout) a = g_object_new (GNN_TYPE_DROPOUT, "p", 0.3, "inplace", TRUE,
                                          "generator", gen, NULL);
  g_autoptr(GnnDropout) b = NULL;
  g_autoptr(GnnGenerator) got = NULL;
  double p = 0;
  gboolean inplace = FALSE;
  g_autofree char *ta = NULL, *tb = NULL;

  g_object_get (a, "p", &p, "inplace", &inplace, "generator", &got, NULL);
  g_assert_true (got == gen);
  b = g_object_new (GNN_TYPE_DROPOUT, "p", p, "inplace", inplace, "generator", got, NULL);
  ta = repr (a);
  tb = repr (b);
  g_assert_cmpstr (ta, ==, "Dropout(p=0.3, inplace=True)");
  g_assert_cmpstr (ta, ==, tb);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nn/linear/forward-values", test_linear_forward_values);
  g_test_add_func ("/nn/linear/no-bias", test_linear_no_bias);
  g_test_add_func ("/nn/linear/shapes-and-slots", test_linear_shapes_and_slots);
  g_test_add_func ("/nn/linear/init-bounds-and-seed", test_linear_init_bounds_and_seed);
  g_test_add_func ("/nn/linear/default-generator-differs", test_linear_default_generator_differs);
  g_test_add_func ("/nn/linear/negative-size", test_linear_negative_size);
  g_test_add_func ("/nn/linear/properties-round-trip", test_linear_properties_round_trip);
  g_test_add_func ("/nn/linear/shape-mismatch", test_linear_shape_mismatch);
  g_test_add_func ("/nn/identity/returns-input", test_identity);
  g_test_add_func ("/nn/relu/values-and-inplace", test_relu_values_and_inplace);
  g_test_add_func ("/nn/gelu/values", test_gelu_values);
  g_test_add_func ("/nn/gelu/bad-approximate", test_gelu_bad_approximate);
  g_test_add_func ("/nn/tanh-sigmoid/values", test_tanh_sigmoid_values);
  g_test_add_func ("/nn/softmax/values", test_softmax_values);
  g_test_add_func ("/nn/softmax/dim-none", test_softmax_dim_none);
  g_test_add_func ("/nn/flatten/shape-and-errors", test_flatten);
  g_test_add_func ("/nn/dropout/eval-is-identity", test_dropout_eval_is_identity);
  g_test_add_func ("/nn/dropout/train-masks-and-scales", test_dropout_train_masks_and_scales);
  g_test_add_func ("/nn/dropout/seeded-reproducible", test_dropout_seeded_reproducible);
  g_test_add_func ("/nn/dropout/p-one-inplace", test_dropout_p_one_and_inplace);
  g_test_add_func ("/nn/dropout/bad-p", test_dropout_bad_p);
  g_test_add_func ("/nn/dropout/properties-round-trip", test_dropout_properties_round_trip);
  g_test_add_func ("/nn/dropout/functional", test_dropout_functional);
  g_test_add_func ("/nn/linear/functional", test_linear_functional);

  return g_test_run ();
}
