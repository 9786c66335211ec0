/* Convolution and pooling: functional ops and the Conv2d/MaxPool2d/AvgPool2d layers. */
#include <math.h>
#include <string.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static void
test_conv2d_values (void)
{
  /* 1x1x3x3 input 0..8, 2x2 kernel of ones, bias 1: sums of 2x2 windows + 1 */
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 1, 1, 3, 3 }, 4);
  g_autoptr(GnnTensor) w = gnn_tensor_ones ((gint64[]) { 1, 1, 2, 2 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) b = gnn_tensor_ones ((gint64[]) { 1 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (x, w, b, 1, 1, 0, 0, 1, 1, 1, NULL);
  const double expect[] = { 9, 13, 21, 25 };
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (y, &ndim);

  g_assert_cmpuint (ndim, ==, 4);
  g_assert_cmpint (shape[2], ==, 2);
  g_assert_cmpint (shape[3], ==, 2);
  gnn_test_assert_values (y, expect, 4, 1e-5);
}

static void
test_conv2d_padding_stride (void)
{
  /* 3x3 ones kernel, padding 1, stride 2 on 0..8: corner windows */
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 1, 3, 3 }, 3);
  g_autoptr(GnnTensor) w = gnn_tensor_ones ((gint64[]) { 1, 1, 3, 3 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (x, w, NULL, 2, 2, 1, 1, 1, 1, 1, NULL);
  const double expect[] = { 0 + 1 + 3 + 4, 1 + 2 + 4 + 5, 3 + 4 + 6 + 7, 4 + 5 + 7 + 8 };

  g_assert_cmpuint (gnn_tensor_get_ndim (y), ==, 3);   /* unbatched in, unbatched out */
  gnn_test_assert_values (y, expect, 4, 1e-5);
}

static void
test_conv2d_groups (void)
{
  /* depthwise: 2 channels, each scaled by its own 1x1 filter */
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 1, 2, 1, 2 }, 4);
  g_autoptr(GnnTensor) w = gnn_tensor_new_from_floats ((float[]) { 2, -1 }, 2,
                                                       (gint64[]) { 2, 1, 1, 1 }, 4, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (x, w, NULL, 1, 1, 0, 0, 1, 1, 2, NULL);
  const double expect[] = { 0, 2, -2, -3 };

  gnn_test_assert_values (y, expect, 4, 1e-5);
}

static void
test_conv2d_bad_ndim (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_zeros ((gint64[]) { 8, 1, 3, 3 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (x, w, NULL, 1, 1, 0, 0, 1, 1, 1, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Expected 3D (unbatched) or 4D (batched) input to conv2d, "
                                            "but got input of size: [2, 3]"));
}

static void
test_conv2d_bad_channels (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 2, 3, 5, 5 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_zeros ((gint64[]) { 8, 1, 3, 3 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (x, w, NULL, 1, 1, 0, 0, 1, 1, 1, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Given groups=1, weight of size [8, 1, 3, 3], expected "
                                            "input[2, 3, 5, 5] to have 1 channels, but got 3 channels instead"));
}

static void
test_conv2d_kernel_too_big (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 1, 1, 2, 2 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_zeros ((gint64[]) { 1, 1, 3, 3 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (x, w, NULL, 1, 1, 0, 0, 1, 1, 1, &error);

  g_assert_null (y);
  g_assert_nonnull (strstr (error->message, "Kernel size can't be greater than actual input size"));
}

static void
test_conv2d_int_dtype (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 1, 1, 3, 3 }, 4, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) w = gnn_tensor_zeros ((gint64[]) { 1, 1, 3, 3 }, 4, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (x, w, NULL, 1, 1, 0, 0, 1, 1, 1, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
}

static void
test_conv2d_layer_repr_and_params (void)
{
  g_autoptr(GnnConv2d) conv = gnn_conv2d_new (1, 8, 3, 1, 1, TRUE, NULL);
  g_autofree char *repr = gnn_module_extra_repr (GNN_MODULE (conv));
  GnnParameter *w = gnn_module_get_parameter (GNN_MODULE (conv), "weight", NULL);
  GnnParameter *b = gnn_module_get_parameter (GNN_MODULE (conv), "bias", NULL);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (GNN_TENSOR (w), &ndim);

  g_assert_cmpstr (repr, ==, "1, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)");
  g_assert_cmpuint (ndim, ==, 4);
  g_assert_cmpint (shape[0], ==, 8);
  g_assert_cmpint (shape[1], ==, 1);
  g_assert_nonnull (b);
  g_assert_cmpint (gnn_tensor_get_numel (GNN_TENSOR (b)), ==, 8);
}

static void
test_conv2d_layer_full_repr (void)
{
  g_autoptr(GnnConv2d) conv = gnn_conv2d_new_full (2, 8, 3, 5, 2, 1, 0, 0, 2, 2, 2, FALSE, NULL, NULL);
  g_autofree char *repr = gnn_module_extra_repr (GNN_MODULE (conv));

  g_assert_cmpstr (repr, ==, "2, 8, kernel_size=(3, 5), stride=(2, 1), dilation=(2, 2), groups=2, bias=False");
  g_assert_false (gnn_module_has_child (GNN_MODULE (conv), "bias") &&
                  gnn_module_get_child (GNN_MODULE (conv), "bias", NULL) != NULL);
}

static void
test_conv2d_layer_bad_groups (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnConv2d) conv = gnn_conv2d_new_full (4, 6, 3, 3, 1, 1, 0, 0, 1, 1, 3, TRUE, NULL, &error);

  g_assert_null (conv);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "in_channels must be divisible by groups"));
}

static void
test_conv2d_layer_generator_reproducible (void)
{
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (42);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (42);
  g_autoptr(GnnConv2d) a = gnn_conv2d_new_full (3, 4, 3, 3, 1, 1, 0, 0, 1, 1, 1, TRUE, g1, NULL);
  g_autoptr(GnnConv2d) b = gnn_conv2d_new_full (3, 4, 3, 3, 1, 1, 0, 0, 1, 1, 1, TRUE, g2, NULL);
  GnnTensor *wa = GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (a), "weight", NULL));
  GnnTensor *wb = GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (b), "weight", NULL));
  g_autofree double *v = NULL;
  gsize n;
  double bound = 1.0 / sqrt (27.0), maxabs = 0;

  g_assert_true (gnn_tensor_equal (wa, wb));
  v = gnn_tensor_to_doubles (wa, &n);
  for (gsize i = 0; i < n; i++)
    maxabs = MAX (maxabs, fabs (v[i]));
  g_assert_cmpfloat (maxabs, <=, bound + 1e-6);
}

static void
test_conv2d_layer_forward (void)
{
  g_autoptr(GnnConv2d) conv = gnn_conv2d_new (1, 2, 3, 1, 1, TRUE, NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { 2, 1, 4, 5 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (conv), x, NULL);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (y, &ndim);

  g_assert_cmpuint (ndim, ==, 4);
  g_assert_cmpint (shape[0], ==, 2);
  g_assert_cmpint (shape[1], ==, 2);
  g_assert_cmpint (shape[2], ==, 4);
  g_assert_cmpint (shape[3], ==, 5);
}

static void
test_conv2d_layer_from_properties (void)
{
  g_autoptr(GnnConv2d) conv = g_object_new (GNN_TYPE_CONV2D, "in-channels", (gint64) 3,
                                            "out-channels", (gint64) 6, "kernel-h", (gint64) 2,
                                            "kernel-w", (gint64) 2, "has-bias", FALSE, NULL);
  g_autofree char *repr = gnn_module_extra_repr (GNN_MODULE (conv));
  gint64 groups = 0;

  g_object_get (conv, "groups", &groups, NULL);
  g_assert_cmpint (groups, ==, 1);
  g_assert_cmpstr (repr, ==, "3, 6, kernel_size=(2, 2), stride=(1, 1), bias=False");
}

static void
test_max_pool2d_values (void)
{
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 1, 1, 4, 4 }, 4);
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool2d (x, 2, 2, 0, 0, 0, 0, 1, 1, FALSE, NULL);
  const double expect[] = { 5, 7, 13, 15 };

  gnn_test_assert_values (y, expect, 4, 1e-5);
}

static void
test_max_pool2d_ceil_and_padding (void)
{
  /* 5x5, kernel 2, ceil: 3x3 output; last window only covers the last row/col */
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 1, 5, 5 }, 3);
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool2d (x, 2, 2, 0, 0, 0, 0, 1, 1, TRUE, NULL);
  g_autoptr(GnnTensor) z = gnn_tensor_max_pool2d (x, 3, 3, 2, 2, 1, 1, 1, 1, FALSE, NULL);
  const double expect_y[] = { 6, 8, 9, 16, 18, 19, 21, 23, 24 };
  const double expect_z[] = { 6, 8, 9, 16, 18, 19, 21, 23, 24 };

  gnn_test_assert_values (y, expect_y, 9, 1e-5);
  gnn_test_assert_values (z, expect_z, 9, 1e-5);
}

static void
test_max_pool2d_nan (void)
{
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats ((float[]) { 1, NAN, 0, 2 }, 4,
                                                       (gint64[]) { 1, 2, 2 }, 3, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool2d (x, 2, 2, 0, 0, 0, 0, 1, 1, FALSE, NULL);

  g_assert_true (isnan (gnn_tensor_get_element (y, (gint64[]) { 0, 0, 0 }, 3, NULL)));
}

static void
test_max_pool2d_bad_padding (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 1, 1, 5, 5 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool2d (x, 3, 3, 0, 0, 2, 2, 1, 1, FALSE, &error);

  g_assert_null (y);
  g_assert_nonnull (strstr (error->message, "pad should be at most half of kernel size, but got pad=2 "
                                            "and kernel_size=3"));
}

static void
test_pool_output_too_small (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 1, 1, 2, 2 }, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_avg_pool2d (x, 3, 3, 0, 0, 0, 0, FALSE, TRUE, 0, &error);

  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Given input size: (1x2x2). Calculated output size: "
                                            "(1x0x0). Output size is too small"));
}

static void
test_pool_bad_ndim (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 2, 3 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool2d (x, 2, 2, 0, 0, 0, 0, 1, 1, FALSE, &error);

  g_assert_null (y);
  g_assert_nonnull (strstr (error->message, "non-empty 3D or 4D (batch mode) tensor expected for input"));
}

static void
test_avg_pool2d_divisors (void)
{
  /* 2x2 ones, kernel 2, padding 1, stride 2 -> each window sees one pixel */
  g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { 1, 2, 2 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) incl = gnn_tensor_avg_pool2d (x, 2, 2, 0, 0, 1, 1, FALSE, TRUE, 0, NULL);
  g_autoptr(GnnTensor) excl = gnn_tensor_avg_pool2d (x, 2, 2, 0, 0, 1, 1, FALSE, FALSE, 0, NULL);
  g_autoptr(GnnTensor) over = gnn_tensor_avg_pool2d (x, 2, 2, 0, 0, 1, 1, FALSE, TRUE, 2, NULL);
  const double quarter[] = { 0.25, 0.25, 0.25, 0.25 };
  const double one[] = { 1, 1, 1, 1 };
  const double half[] = { 0.5, 0.5, 0.5, 0.5 };

  gnn_test_assert_values (incl, quarter, 4, 1e-5);
  gnn_test_assert_values (excl, one, 4, 1e-5);
  gnn_test_assert_values (over, half, 4, 1e-5);
}

static void
test_pool_layers_repr (void)
{
  g_autoptr(GnnMaxPool2d) mp = gnn_max_pool2d_new (2, 0, 0, 1, FALSE, NULL);
  g_autoptr(GnnMaxPool2d) mp2 = gnn_max_pool2d_new_full (2, 3, 1, 1, 0, 0, 1, 1, TRUE, NULL);
  g_autoptr(GnnAvgPool2d) ap = gnn_avg_pool2d_new (2, 0, 0, FALSE, TRUE, 0, NULL);
  g_autofree char *r1 = gnn_module_extra_repr (GNN_MODULE (mp));
  g_autofree char *r2 = gnn_module_extra_repr (GNN_MODULE (mp2));
  g_autofree char *r3 = gnn_module_extra_repr (GNN_MODULE (ap));

  g_assert_cmpstr (r1, ==, "kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False");
  g_assert_cmpstr (r2, ==, "kernel_size=(2, 3), stride=1, padding=0, dilation=1, ceil_mode=True");
  g_assert_cmpstr (r3, ==, "kernel_size=2, stride=2, padding=0");
}

static void
test_pool_layer_forward (void)
{
  g_autoptr(GnnMaxPool2d) mp = gnn_max_pool2d_new (2, 0, 0, 1, FALSE, NULL);
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, (gint64[]) { 1, 1, 4, 4 }, 4);
  g_autoptr(GnnTensor) y = gnn_module_call (GNN_MODULE (mp), x, NULL);
  const double expect[] = { 5, 7, 13, 15 };

  gnn_test_assert_values (y, expect, 4, 1e-5);
}

/* The gradient goes to the element forward picked (saved indices), with
 * PyTorch's rule: the first maximum in scan order, the last NaN; values and
 * gradients as torch 1.13 gives them. A huge window walks only its taps
 * inside the input (it used to take 11 s). */
static void
check_max_pool_grad (const double *values,
                     gint64        h,
                     gint64        w,
                     gint64        kh,
                     gint64        kw,
                     gint64        stride,
                     gboolean      ceil_mode,
                     const double *expect_out,
                     gsize         n_out,
                     const double *expect_grad)
{
  const gint64 shape[4] = { 1, 1, h, w };
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_doubles (values, h * w, shape, 4, NULL);
  g_autoptr(GnnTensor) xf = gnn_tensor_to_dtype (x, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) total = NULL;
  g_autoptr(GError) error = NULL;

  gnn_tensor_set_requires_grad (xf, TRUE);
  y = gnn_tensor_max_pool2d (xf, kh, kw, stride, stride, 0, 0, 1, 1, ceil_mode, &error);
  g_assert_no_error (error);
  gnn_test_assert_values (y, expect_out, n_out, 0);
  total = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_backward (total, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_values (gnn_tensor_get_grad (xf), expect_grad, h * w, 0);
}

static void
test_max_pool2d_grad_ties (void)
{
  const double ones[4] = { 1, 1, 1, 1 }, neg_inf[4] = { -INFINITY, -INFINITY, -INFINITY, -INFINITY };
  const double nans[4] = { NAN, 1, NAN, 2 }, overlap[6] = { 1, 3, 3, 2, 3, 0 };
  const double row[4] = { 1, 2, 3, 4 };

  check_max_pool_grad (ones, 2, 2, 2, 2, 0, FALSE, (double[]) { 1 }, 1, (double[]) { 1, 0, 0, 0 });
  check_max_pool_grad (neg_inf, 2, 2, 2, 2, 0, FALSE, (double[]) { -INFINITY }, 1,
                       (double[]) { 1, 0, 0, 0 });
  check_max_pool_grad (nans, 2, 2, 2, 2, 0, FALSE, (double[]) { NAN }, 1, (double[]) { 0, 0, 1, 0 });
  check_max_pool_grad (overlap, 2, 3, 2, 2, 1, FALSE, (double[]) { 3, 3 }, 2,
                       (double[]) { 0, 2, 0, 0, 0, 0 });
  check_max_pool_grad (row, 1, 4, 1, G_MAXINT32, 0, TRUE, (double[]) { 4 }, 1,
                       (double[]) { 0, 0, 0, 1 });
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nn/conv2d/values", test_conv2d_values);
  g_test_add_func ("/nn/conv2d/padding-stride-unbatched", test_conv2d_padding_stride);
  g_test_add_func ("/nn/conv2d/groups", test_conv2d_groups);
  g_test_add_func ("/nn/conv2d/bad-ndim", test_conv2d_bad_ndim);
  g_test_add_func ("/nn/conv2d/bad-channels", test_conv2d_bad_channels);
  g_test_add_func ("/nn/conv2d/kernel-too-big", test_conv2d_kernel_too_big);
  g_test_add_func ("/nn/conv2d/int-dtype", test_conv2d_int_dtype);
  g_test_add_func ("/nn/conv2d/layer/repr-and-params", test_conv2d_layer_repr_and_params);
  g_test_add_func ("/nn/conv2d/layer/full-repr", test_conv2d_layer_full_repr);
  g_test_add_func ("/nn/conv2d/layer/bad-groups", test_conv2d_layer_bad_groups);
  g_test_add_func ("/nn/conv2d/layer/generator-reproducible", test_conv2d_layer_generator_reproducible);
  g_test_add_func ("/nn/conv2d/layer/forward", test_conv2d_layer_forward);
  g_test_add_func ("/nn/conv2d/layer/from-properties", test_conv2d_layer_from_properties);
  g_test_add_func ("/nn/max-pool2d/values", test_max_pool2d_values);
  g_test_add_func ("/nn/max-pool2d/ceil-and-padding", test_max_pool2d_ceil_and_padding);
  g_test_add_func ("/nn/max-pool2d/nan", test_max_pool2d_nan);
  g_test_add_func ("/nn/max-pool2d/grad-ties", test_max_pool2d_grad_ties);
  g_test_add_func ("/nn/max-pool2d/bad-padding", test_max_pool2d_bad_padding);
  g_test_add_func ("/nn/pool/output-too-small", test_pool_output_too_small);
  g_test_add_func ("/nn/pool/bad-ndim", test_pool_bad_ndim);
  g_test_add_func ("/nn/avg-pool2d/divisors", test_avg_pool2d_divisors);
  g_test_add_func ("/nn/pool/layers-repr", test_pool_layers_repr);
  g_test_add_func ("/nn/pool/layer-forward", test_pool_layer_forward);

  return g_test_run ();
}
