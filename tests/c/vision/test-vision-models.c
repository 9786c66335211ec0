/* test-vision-models.c: torchvision's ResNets built in C (their children,
 * state dict keys and output shapes), AdaptiveAvgPool2d, bad sizes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"

static guint
n_keys (GnnModule *m)
{
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (m);
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);

  return g_strv_length (keys);
}

static void
test_resnet18 (void)
{
  static const gint64 in_shape[] = { 2, 3, 32, 32 }, out_shape[] = { 2, 10 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnResNet) net = gnn_vision_resnet18 (10, &error);
  g_autoptr(GnnTensor) x = NULL, y = NULL;
  g_autoptr(GnnModule) fc = NULL;

  g_assert_no_error (error);
  /* torchvision: len(resnet18().state_dict()) == 122, len(resnet50(...)) == 320 */
  g_assert_cmpuint (n_keys (GNN_MODULE (net)), ==, 122);
  g_assert_nonnull (gnn_module_get_parameter (GNN_MODULE (net), "layer2.0.downsample.0.weight",
                                              NULL));
  g_assert_null (gnn_module_get_parameter (GNN_MODULE (net), "layer1.0.downsample.0.weight",
                                           NULL));
  x = gnn_tensor_ones (in_shape, 4, GNN_DTYPE_F32, NULL);
  y = gnn_module_call (GNN_MODULE (net), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, out_shape, 2);
}

static void
test_resnet50 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnResNet) net = gnn_vision_resnet50 (1000, &error);
  GnnParameter *w;

  g_assert_no_error (error);
  g_assert_cmpuint (n_keys (GNN_MODULE (net)), ==, 320);
  w = gnn_module_get_parameter (GNN_MODULE (net), "fc.weight", &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_shape (GNN_TENSOR (w), NULL)[1], ==, 2048);
  g_assert_nonnull (gnn_module_get_parameter (GNN_MODULE (net), "layer1.0.bn3.weight", NULL));
}

static void
test_resnet_bad_sizes (void)
{
  static const gint64 three[] = { 2, 2, 2 }, zero[] = { 2, 0, 2, 2 };
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_res_net_new (GNN_RES_NET_BLOCK_BASIC, three, 3, 10, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "layers must hold 4"));
  g_clear_error (&error);
  g_assert_null (gnn_res_net_new (GNN_RES_NET_BLOCK_BOTTLENECK, zero, 4, 10, &error));
  g_assert_nonnull (strstr (error->message, "layers[1]"));
  g_clear_error (&error);
  g_assert_null (gnn_vision_resnet18 (0, &error));
  g_assert_nonnull (strstr (error->message, "num_classes"));
}

static void
test_adaptive_avg_pool2d (void)
{
  static const gint64 shape[] = { 1, 1, 4, 4 };
  /* arange(16) as 4x4 pooled to 2x2 and to 1x1 */
  static const double quarters[] = { 2.5, 4.5, 10.5, 12.5 }, whole[] = { 7.5 };
  static const double thirds[] = { 2.5, 3.5, 4.5, 6.5, 7.5, 8.5, 10.5, 11.5, 12.5 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, 0, shape, 4);
  g_autoptr(GnnTensor) a = gnn_tensor_adaptive_avg_pool2d (x, 2, 2, &error);
  g_autoptr(GnnTensor) b = gnn_tensor_adaptive_avg_pool2d (x, 1, 1, &error);
  g_autoptr(GnnTensor) c = NULL;

  g_assert_no_error (error);
  gnn_test_assert_values (a, quarters, 4, 1e-6);
  gnn_test_assert_values (b, whole, 1, 1e-6);
  /* uneven windows overlap, as torch's: floor (o·4/3) to ceil ((o+1)·4/3) */
  c = gnn_tensor_adaptive_avg_pool2d (x, 3, 3, &error);
  g_assert_no_error (error);
  gnn_test_assert_values (c, thirds, 9, 1e-6);
  g_assert_null (gnn_adaptive_avg_pool2d_new (-2, 1, &error));   /* 0 is torch's empty output, -1 its None */
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vision/models/resnet18", test_resnet18);
  g_test_add_func ("/vision/models/resnet50", test_resnet50);
  g_test_add_func ("/vision/models/bad-sizes", test_resnet_bad_sizes);
  g_test_add_func ("/vision/models/adaptive-avg-pool2d", test_adaptive_avg_pool2d);
  return g_test_run ();
}
