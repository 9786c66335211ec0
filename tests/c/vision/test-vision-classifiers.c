/* test-vision-classifiers.c: torchvision's VGG, AlexNet, SqueezeNet,
 * MobileNetV2 and DenseNet built in C: their state dict sizes (torchvision
 * 0.14's), output shapes at small inputs, bad settings
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "gnn-test-util.h"

static guint
n_keys (gpointer m)
{
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (GNN_MODULE (m));
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);

  return g_strv_length (keys);
}

/* Calls @net (taking it) on ones [2, 3, size, size]: [2, classes] out. */
static void
check_forward (gpointer   net,
               GError    *error,
               guint      expected_keys,
               gint64     size,
               gint64     classes)
{
  g_autoptr(GnnModule) m = net;
  const gint64 in_shape[] = { 2, 3, size, size }, out_shape[] = { 2, classes };
  g_autoptr(GnnTensor) x = gnn_tensor_ones (in_shape, 4, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (n_keys (m), ==, expected_keys);
  gnn_module_eval (m);
  y = gnn_module_call (m, x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, out_shape, 2);
}

static void
test_vgg (void)
{
  GError *error = NULL;
  gpointer net = gnn_vision_vgg (11, TRUE, 7, &error);

  /* torchvision: len(vgg11_bn().state_dict()) == 62, vgg16: 32 */
  check_forward (net, error, 62, 32, 7);
  net = gnn_vision_vgg (16, FALSE, 3, &error);
  check_forward (net, error, 32, 32, 3);
  g_assert_null (gnn_vision_vgg (12, FALSE, 10, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
}

static void
test_alexnet (void)
{
  GError *error = NULL;
  gpointer net = gnn_vision_alexnet (5, &error);

  check_forward (net, error, 16, 64, 5);
}

static void
test_squeezenet (void)
{
  GError *error = NULL;
  gpointer net = gnn_vision_squeezenet1_1 (4, &error);

  check_forward (net, error, 52, 48, 4);
  net = gnn_vision_squeezenet1_0 (4, &error);
  check_forward (net, error, 52, 48, 4);
  g_assert_null (gnn_squeeze_net_new ("1_2", 10, 0.5, &error));
  g_assert_nonnull (strstr (error->message, "Unsupported SqueezeNet version 1_2"));
  g_clear_error (&error);
}

static void
test_mobilenet_v2 (void)
{
  GError *error = NULL;
  gpointer net = gnn_vision_mobilenet_v2 (6, &error);

  check_forward (net, error, 314, 32, 6);
  g_assert_null (gnn_inverted_residual_new (8, 8, 3, 6, &error));
  g_assert_nonnull (strstr (error->message, "stride should be 1 or 2 instead of 3"));
  g_clear_error (&error);
}

static void
test_densenet (void)
{
  static const gint64 small[] = { 2, 2 }, bad[] = { 2, 0 };
  GError *error = NULL;
  gpointer net = gnn_vision_densenet121 (9, &error);

  check_forward (net, error, 727, 32, 9);
  /* conv0/norm0 (6), 2 blocks of 2 layers (4 x 12), transition1 (6), norm5 (5), classifier (2) */
  net = gnn_dense_net_new (8, small, 2, 16, 3, &error);
  check_forward (net, error, 6 + 48 + 6 + 5 + 2, 32, 3);
  g_assert_null (gnn_dense_net_new (8, bad, 2, 16, 3, &error));
  g_assert_nonnull (strstr (error->message, "block_config[1]"));
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vision/classifiers/vgg", test_vgg);
  g_test_add_func ("/vision/classifiers/alexnet", test_alexnet);
  g_test_add_func ("/vision/classifiers/squeezenet", test_squeezenet);
  g_test_add_func ("/vision/classifiers/mobilenet-v2", test_mobilenet_v2);
  g_test_add_func ("/vision/classifiers/densenet", test_densenet);
  return g_test_run ();
}
