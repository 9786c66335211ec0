/* test-nn-convnd.c: convolutions of 1 to 3 dimensions, plain and
 * transposed, and padding: values, shapes, errors, gradients against
 * finite differences, and the layers built from their properties.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"
#include "../autograd/gradcheck-util.h"

#define ASSERT_ERROR_TEXT(error, text) \
  G_STMT_START { g_assert_nonnull (error); g_assert_cmpstr ((error)->message, ==, (text)); } G_STMT_END

/* --- functional ------------------------------------------------------------ */

static void
test_conv1d_values (void)
{
  /* [0 1 2 3 4] with kernel [1 2], bias 1, stride 2, padding 1:
   * windows (0,0) (1,2) (3,4) -> 0 + 1, 1 + 4 + 1, 3 + 8 + 1 */
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 1, 1, 5 }, 3);
  g_autoptr(GnnTensor) w = gnn_tensor_new_from_floats ((float[]) { 1, 2 }, 2, (gint64[]) { 1, 1, 2 }, 3, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_ones ((gint64[]) { 1 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_conv1d (x, w, b, 2, 1, 1, 1, NULL);

  gnn_test_assert_shape (y, (gint64[]) { 1, 1, 3 }, 3);
  gnn_test_assert_values (y, (double[]) { 1, 6, 12 }, 3, 1e-6);
}

static void
test_conv_transpose_values (void)
{
  /* transposed 1-d, stride 2: each input scatters its kernel [1 10 100]
   * two positions apart, overlaps add; output padding adds a zero column */
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats ((float[]) { 1, 2, 3 }, 3, (gint64[]) { 1, 3 }, 2, NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_new_from_floats ((float[]) { 1, 10, 100 }, 3, (gint64[]) { 1, 1, 3 }, 3, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_convolution (x, w, NULL, (gint64[]) { 2 }, 1, NULL, 0, NULL, 0,
                                                   TRUE, (gint64[]) { 1 }, 1, 1, NULL);

  gnn_test_assert_shape (y, (gint64[]) { 1, 8 }, 2);
  gnn_test_assert_values (y, (double[]) { 1, 10, 102, 20, 203, 30, 300, 0 }, 8, 1e-5);
}

static void
test_conv_shapes (void)
{
  struct { gint64 in[5]; guint nx; gint64 w[5]; guint nw; gboolean tr; gint64 s, p, op, d; gint64 out[5]; } cases[] = {
    { { 2, 3, 7, 8, 9 }, 5, { 4, 3, 3, 2, 1 }, 5, FALSE, 2, 1, 0, 1, { 2, 4, 4, 5, 6 } },
    { { 3, 6, 5, 5 }, 4, { 6, 1, 4, 4 }, 4, TRUE, 2, 1, 1, 1, { 3, 1, 11, 11 } },
    /* unbatched 3-d transposed: (2 - 1) 1 + 2 (3 - 1) + 1 = 6 */
    { { 4, 2, 2, 2 }, 4, { 4, 1, 3, 3, 3 }, 5, TRUE, 1, 0, 0, 2, { 1, 6, 6, 6 } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = gnn_tensor_zeros (cases[i].in, cases[i].nx, GNN_DTYPE_F32, NULL);
      g_autoptr(GnnTensor) w = gnn_tensor_zeros (cases[i].w, cases[i].nw, GNN_DTYPE_F32, NULL);
      g_autoptr(GnnTensor) y = gnn_tensor_convolution (x, w, NULL, &cases[i].s, 1, &cases[i].p, 1,
                                                       &cases[i].d, 1, cases[i].tr, &cases[i].op, 1,
                                                       1, &error);

      g_assert_no_error (error);
      gnn_test_assert_shape (y, cases[i].out, cases[i].nx);
    }
}

static void
test_conv_errors (void)
{
  g_autoptr(GnnTensor) x1 = gnn_tensor_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) w1 = gnn_tensor_zeros ((gint64[]) { 8, 2, 3 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x2 = gnn_tensor_zeros ((gint64[]) { 1, 8, 4, 4 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) w2 = gnn_tensor_zeros ((gint64[]) { 8, 2, 3, 3 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) bad_bias = gnn_tensor_zeros ((gint64[]) { 3 }, 1, GNN_DTYPE_F32, NULL);
  struct { GnnTensor *y; const char *text; } cases[4];
  GError *errors[4] = { NULL };

  cases[0].y = gnn_tensor_conv1d (x1, w1, NULL, 1, 0, 1, 1, &errors[0]);
  cases[0].text = "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [2]";
  cases[1].y = gnn_tensor_conv_transpose2d (x2, w2, NULL, 1, 1, 0, 0, 1, 1, 1, 1, 1, &errors[1]);
  cases[1].text = "output padding must be smaller than either stride or dilation, but got "
                  "output_padding_height: 1 output_padding_width: 1 stride_height: 1 stride_width: 1 "
                  "dilation_height: 1 dilation_width: 1";
  cases[2].y = gnn_tensor_conv_transpose2d (x2, w2, bad_bias, 1, 1, 0, 0, 0, 0, 1, 1, 1, &errors[2]);
  cases[2].text = "Given transposed=1, weight of size [8, 2, 3, 3], expected bias to be 1-dimensional "
                  "with 2 elements, but got bias of size [3] instead";
  cases[3].y = gnn_tensor_conv_transpose2d (x2, w2, NULL, 1, 1, 3, 3, 0, 0, 1, 1, 1, &errors[3]);
  cases[3].text = "Given input size per channel: (4 x 4). Calculated output size per channel: "
                  "(0 x 0). Output size is too small";
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_null (cases[i].y);
      ASSERT_ERROR_TEXT (errors[i], cases[i].text);
      g_error_free (errors[i]);
    }
}

#define E error
static gint64 gc_stride[3] = { 2, 1, 2 }, gc_pad[3] = { 1, 0, 1 }, gc_dil[3] = { 1, 2, 1 };
static gint64 gc_op[3] = { 1, 0, 0 };

static GnnTensor *
b_conv (GnnTensor **in, GError **E)
{
  return gnn_tensor_convolution (in[0], in[1], in[2], gc_stride, gnn_tensor_get_ndim (in[1]) - 2,
                                 gc_pad, gnn_tensor_get_ndim (in[1]) - 2, gc_dil,
                                 gnn_tensor_get_ndim (in[1]) - 2, FALSE, NULL, 0, 2, E);
}

static GnnTensor *
b_conv_transpose (GnnTensor **in, GError **E)
{
  guint n = gnn_tensor_get_ndim (in[1]) - 2;

  return gnn_tensor_convolution (in[0], in[1], in[2], gc_stride, n, gc_pad, n, gc_dil, n, TRUE, gc_op, n,
                                 2, E);
}

static void
test_conv_gradients (void)
{
  /* groups 2, per-axis stride, padding, dilation and output padding; 1 to
   * 3 spatial dimensions, batched and unbatched */
  struct { gint64 x[5]; guint nx; gint64 w[5]; guint nw; gboolean tr; } cases[] = {
    { { 2, 4, 7 }, 3, { 6, 2, 3 }, 3, FALSE },
    { { 4, 6, 5 }, 3, { 6, 2, 2, 3 }, 4, FALSE },
    { { 1, 4, 5, 6, 5 }, 5, { 2, 2, 2, 2, 3 }, 5, FALSE },
    { { 2, 4, 5 }, 3, { 4, 3, 3 }, 3, TRUE },
    { { 1, 4, 4, 3 }, 4, { 4, 1, 3, 2 }, 4, TRUE },
    { { 4, 3, 2, 3 }, 4, { 4, 2, 2, 2, 2 }, 5, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 bias = cases[i].tr ? cases[i].w[1] * 2 : cases[i].w[0];
      GnnTensor *in[3];

      in[0] = randn (cases[i].x, cases[i].nx, 0.0);
      in[1] = randn (cases[i].w, cases[i].nw, 0.0);
      in[2] = randn (&bias, 1, 0.0);
      gradcheck (cases[i].tr ? b_conv_transpose : b_conv, in, 3, 1e-5);
      free_inputs (in, 3);
    }
}

/* pads (1, 2) on the last dimension, (2, 0) on the one before */
static GnnPaddingMode gc_mode;
static GnnTensor *
b_pad (GnnTensor **in, GError **E)
{
  return gnn_tensor_pad (in[0], (gint64[]) { 1, 2, 2, 0 }, 4, gc_mode, 0.0, E);
}

static GnnTensor *
b_pad_crop (GnnTensor **in, GError **E)
{
  return gnn_tensor_pad (in[0], (gint64[]) { -1, 2, 1, -2, 0, 1 }, 6, GNN_PADDING_MODE_CONSTANT, 0.0, E);
}

static void
test_pad_gradients (void)
{
  GnnTensor *in[1];

  for (gc_mode = GNN_PADDING_MODE_CONSTANT; gc_mode <= GNN_PADDING_MODE_CIRCULAR; gc_mode++)
    {
      in[0] = randn (SHAPE (2, 3, 4, 5), 0.0);
      gradcheck (b_pad, in, 1, 1e-6);
      free_inputs (in, 1);
    }
  in[0] = randn (SHAPE (3, 4, 5), 0.0);
  gradcheck (b_pad_crop, in, 1, 1e-6);
  free_inputs (in, 1);
}

static void
test_pad_values (void)
{
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_I64, 1, (gint64[]) { 1, 1, 3 }, 3);
  struct { GnnPaddingMode mode; double value; double expect[7]; } cases[] = {
    { GNN_PADDING_MODE_CONSTANT, 7, { 7, 7, 1, 2, 3, 7, 7 } },
    { GNN_PADDING_MODE_REFLECT, 0, { 3, 2, 1, 2, 3, 2, 1 } },
    { GNN_PADDING_MODE_REPLICATE, 0, { 1, 1, 1, 2, 3, 3, 3 } },
    { GNN_PADDING_MODE_CIRCULAR, 0, { 2, 3, 1, 2, 3, 1, 2 } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) y = gnn_tensor_pad (x, (gint64[]) { 2, 2 }, 2, cases[i].mode, cases[i].value, &error);

      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (y), ==, GNN_DTYPE_I64);
      gnn_test_assert_values (y, cases[i].expect, 7, 0);
    }
}

static void
test_pad_errors (void)
{
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 1, 2, 3 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x4 = gnn_tensor_zeros ((gint64[]) { 2, 3, 4, 5 }, 4, GNN_DTYPE_F32, NULL);
  struct { GnnTensor *x; gint64 pad[4]; guint n; GnnPaddingMode mode; double value; const char *text; } cases[] = {
    { x, { 1 }, 1, GNN_PADDING_MODE_CONSTANT, 0, "Padding length must be divisible by 2" },
    { x, { 1, 1, 1, 1 }, 4, GNN_PADDING_MODE_REFLECT, 1, "Padding mode \"reflect\" doesn't take in value argument" },
    { x, { 3, 3 }, 2, GNN_PADDING_MODE_REFLECT, 0,
      "Argument #4: Padding size should be less than the corresponding input dimension, but got: "
      "padding (3, 3) at dimension 2 of input [1, 2, 3]" },
    { x4, { 1, 1 }, 2, GNN_PADDING_MODE_REPLICATE, 0,
      "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now" },
    { x, { 4, 3 }, 2, GNN_PADDING_MODE_CIRCULAR, 0, "Padding value causes wrapping around more than once." },
    { x, { -2, -2 }, 2, GNN_PADDING_MODE_CONSTANT, 0, "start (0) + length (-1) exceeds dimension size (1)." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) y = gnn_tensor_pad (cases[i].x, cases[i].pad, cases[i].n, cases[i].mode,
                                               cases[i].value, &error);

      g_assert_null (y);
      ASSERT_ERROR_TEXT (error, cases[i].text);
    }
}

/* --- layers ---------------------------------------------------------------- */

static void
test_layers_repr (void)
{
  g_autoptr(GnnConv1d) c1 = gnn_conv1d_new (4, 6, 3, 1, 0, 1, 1, TRUE, NULL, NULL);
  g_autoptr(GnnConv3d) c3 = gnn_conv3d_new (4, 6, 3, 2, 1, 1, 2, FALSE, NULL, NULL);
  g_autoptr(GnnConvTranspose2d) t2 = gnn_conv_transpose2d_new (4, 6, 3, 2, 1, 1, 2, FALSE, 2, NULL, NULL);
  g_autofree char *r1 = gnn_module_to_string (GNN_MODULE (c1));
  g_autofree char *r3 = gnn_module_to_string (GNN_MODULE (c3));
  g_autofree char *rt = gnn_module_to_string (GNN_MODULE (t2));

  g_assert_cmpstr (r1, ==, "Conv1d(4, 6, kernel_size=(3,), stride=(1,))");
  g_assert_cmpstr (r3, ==, "Conv3d(4, 6, kernel_size=(3, 3, 3), stride=(2, 2, 2), padding=(1, 1, 1), "
                           "groups=2, bias=False)");
  g_assert_cmpstr (rt, ==, "ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), "
                           "dilation=(2, 2), output_padding=(1, 1), groups=2, bias=False)");
}

static void
test_layers_parameters (void)
{
  g_autoptr(GnnConvTranspose1d) t1 = gnn_conv_transpose1d_new (4, 6, 5, 1, 0, 0, 2, TRUE, 1, NULL, NULL);
  g_autoptr(GnnConv3d) c3 = gnn_conv3d_new (2, 3, 2, 1, 0, 1, 1, TRUE, NULL, NULL);
  GnnParameter *w = gnn_module_get_parameter (GNN_MODULE (t1), "weight", NULL);
  GnnParameter *b = gnn_module_get_parameter (GNN_MODULE (t1), "bias", NULL);

  /* transposed: [in, out / groups, k] */
  gnn_test_assert_shape (GNN_TENSOR (w), (gint64[]) { 4, 3, 5 }, 3);
  gnn_test_assert_shape (GNN_TENSOR (b), (gint64[]) { 6 }, 1);
  w = gnn_module_get_parameter (GNN_MODULE (c3), "weight", NULL);
  gnn_test_assert_shape (GNN_TENSOR (w), (gint64[]) { 3, 2, 2, 2, 2 }, 5);
}

static void
test_layers_from_properties (void)
{
  g_autoptr(GnnConvTranspose2d) built = g_object_new (GNN_TYPE_CONV_TRANSPOSE2D, "in-channels", 3,
                                                      "out-channels", 2, "kernel-h", 4, "kernel-w", 2,
                                                      "stride-h", 2, "output-padding-h", 1, NULL);
  g_autoptr(GnnConv1d) plain = g_object_new (GNN_TYPE_CONV1D, "in-channels", 2, "out-channels", 2,
                                             "kernel-size", 3, "padding-same", TRUE,
                                             "padding-mode", GNN_PADDING_MODE_REFLECT, NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { 1, 3, 5, 5 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x1 = gnn_tensor_ones ((gint64[]) { 2, 7 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (built), x, &error);
  g_autoptr(GnnTensor) y1 = NULL;
  gint64 op = 0;

  g_assert_no_error (error);
  /* H: (5 - 1) 2 + 3 + 1 + 1 = 13, W: 5 - 1 + 1 + 1 = 6 */
  gnn_test_assert_shape (y, (gint64[]) { 1, 2, 13, 6 }, 4);
  g_object_get (built, "output-padding-h", &op, NULL);
  g_assert_cmpint (op, ==, 1);
  y1 = gnn_module_call (GNN_MODULE (plain), x1, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y1, (gint64[]) { 2, 7 }, 2);
}

static void
test_layers_construct_errors (void)
{
  g_autoptr(GError) error = NULL;
  GObject *layer = g_initable_new (GNN_TYPE_CONV3D, NULL, &error, "in-channels", 4, "out-channels", 6,
                                   "groups", 3, NULL);
  g_autoptr(GnnConv1d) strided = NULL;

  g_assert_null (layer);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "in_channels must be divisible by groups"));
  g_clear_error (&error);
  layer = g_initable_new (GNN_TYPE_CONV_TRANSPOSE1D, NULL, &error, "groups", 0, NULL);
  g_assert_null (layer);
  g_assert_nonnull (strstr (error->message, "groups must be a positive integer"));
  g_clear_error (&error);
  strided = g_object_new (GNN_TYPE_CONV1D, "stride", 2, "padding-same", TRUE, NULL);
  {
    g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { 1, 5 }, 2, GNN_DTYPE_F32, NULL);
    g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (strided), x, &error);

    /* built without init: forward refuses with the construction's error */
    g_assert_null (y);
    ASSERT_ERROR_TEXT (error, "padding='same' is not supported for strided convolutions");
  }
  g_clear_error (&error);
  g_assert_null (gnn_conv1d_new (4, 6, 0, 1, 0, 1, 1, TRUE, NULL, &error));
  ASSERT_ERROR_TEXT (error, "Conv1d: kernel_size must be a positive integer, got 0");
}

static void
test_layers_generator (void)
{
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (7);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (7);
  g_autoptr(GnnConvTranspose3d) a = gnn_conv_transpose3d_new (2, 3, 2, 1, 0, 0, 1, TRUE, 1, g1, NULL);
  g_autoptr(GnnConvTranspose3d) b = gnn_conv_transpose3d_new (2, 3, 2, 1, 0, 0, 1, TRUE, 1, g2, NULL);
  GnnParameter *wa = gnn_module_get_parameter (GNN_MODULE (a), "weight", NULL);
  GnnParameter *wb = gnn_module_get_parameter (GNN_MODULE (b), "weight", NULL);

  g_assert_true (gnn_tensor_equal (GNN_TENSOR (wa), GNN_TENSOR (wb)));
}

static void
test_pad_layers (void)
{
  g_autoptr(GnnReflectionPad2d) reflect = g_object_new (GNN_TYPE_REFLECTION_PAD2D, "padding-left", 1,
                                                        "padding-bottom", 2, NULL);
  g_autoptr(GnnConstantPad1d) constant = gnn_constant_pad1d_new (1, -1, 2.5, NULL);
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 1, 3, 3 }, 3);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (reflect), x, NULL);
  g_autoptr(GnnTensor) z = gnn_module_call (GNN_MODULE (constant), x, NULL);
  g_autofree char *r1 = gnn_module_to_string (GNN_MODULE (reflect));
  g_autofree char *r2 = gnn_module_to_string (GNN_MODULE (constant));
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (r1, ==, "ReflectionPad2d((1, 0, 0, 2))");
  g_assert_cmpstr (r2, ==, "ConstantPad1d(padding=(1, -1), value=2.5)");
  gnn_test_assert_shape (y, (gint64[]) { 1, 5, 4 }, 3);
  gnn_test_assert_values (z, (double[]) { 2.5, 0, 1, 2.5, 3, 4, 2.5, 6, 7 }, 9, 0);
  g_assert_null (gnn_zero_pad2d_new (G_MAXINT64, 0, 0, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/convnd/conv1d-values", test_conv1d_values);
  g_test_add_func ("/nn/convnd/conv-transpose-values", test_conv_transpose_values);
  g_test_add_func ("/nn/convnd/shapes", test_conv_shapes);
  g_test_add_func ("/nn/convnd/errors", test_conv_errors);
  g_test_add_func ("/nn/convnd/gradients", test_conv_gradients);
  g_test_add_func ("/nn/pad/values", test_pad_values);
  g_test_add_func ("/nn/pad/errors", test_pad_errors);
  g_test_add_func ("/nn/pad/gradients", test_pad_gradients);
  g_test_add_func ("/nn/pad/layers", test_pad_layers);
  g_test_add_func ("/nn/convnd/layers/repr", test_layers_repr);
  g_test_add_func ("/nn/convnd/layers/parameters", test_layers_parameters);
  g_test_add_func ("/nn/convnd/layers/from-properties", test_layers_from_properties);
  g_test_add_func ("/nn/convnd/layers/construct-errors", test_layers_construct_errors);
  g_test_add_func ("/nn/convnd/layers/generator", test_layers_generator);
  return g_test_run ();
}
