/* Loss modules: values and gradients against PyTorch (numbers from torch
 * 1.13), options as properties, the weight buffers, repr and errors. */
#include <math.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"

static const float x_values[] = { 1.0f, 2.0f, 3.0f, 1.0f, -1.0f, 0.5f };
static const gint64 x_shape[2] = { 2, 3 };

/* x = [[1, 2, 3], [1, -1, 0.5]], requiring grad */
static GnnTensor *
make_input (void)
{
  GnnTensor *x = gnn_tensor_new_from_floats (x_values, 6, x_shape, 2, NULL);

  gnn_tensor_set_requires_grad (x, TRUE);
  return x;
}

static GnnTensor *
make_classes (void)
{
  const gint64 t[] = { 2, 0 };
  const gint64 shape[1] = { 2 };

  return gnn_tensor_new_from_int64s (t, 2, shape, 1, NULL);
}

/* Checks loss.item() and x.grad after backward. */
static void
assert_loss_and_grad (GnnTensor    *loss,
                      GnnTensor    *x,
                      double        expected_loss,
                      const double *expected_grad)
{
  g_autoptr(GError) error = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (loss);
  g_assert_cmpuint (gnn_tensor_get_ndim (loss), ==, 0);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (loss, NULL), expected_loss, 1e-5);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_values (gnn_tensor_get_grad (x), expected_grad, 6, 1e-5);
}

static void
test_cross_entropy_default (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnTensor) t = make_classes ();
  g_autoptr(GnnCrossEntropyLoss) criterion = g_object_new (GNN_TYPE_CROSS_ENTROPY_LOSS, NULL);
  g_autoptr(GnnTensor) loss = gnn_cross_entropy_loss_compute (criterion, x, t, &error);
  const double grad[] = { 0.04501529, 0.12236425, -0.16737950, -0.21295151, 0.03884779, 0.17410371 };

  g_assert_no_error (error);
  assert_loss_and_grad (loss, x, 0.48128146, grad);
}

static void
test_cross_entropy_weight_smoothing (void)
{
  const float w[] = { 1.0f, 2.0f, 3.0f };
  const gint64 wshape[1] = { 3 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnTensor) t = make_classes ();
  g_autoptr(GnnTensor) weight = gnn_tensor_new_from_floats (w, 3, wshape, 1, NULL);
  g_autoptr(GnnCrossEntropyLoss) criterion =
    gnn_cross_entropy_loss_new (weight, -100, GNN_REDUCTION_MEAN, 0.1);
  g_autoptr(GnnTensor) loss = gnn_cross_entropy_loss_compute (criterion, x, t, &error);
  const double grad[] = { 0.05693883, 0.16076146, -0.21770026, -0.07545666, 0.00469962, 0.07075704 };

  g_assert_no_error (error);
  assert_loss_and_grad (loss, x, 0.52729416, grad);
}

static void
test_cross_entropy_properties (void)
{
  g_autoptr(GnnCrossEntropyLoss) criterion =
    gnn_cross_entropy_loss_new (NULL, 7, GNN_REDUCTION_SUM, 0.25);
  g_autofree char *reduction = NULL;
  gint64 ignore_index = 0;
  double smoothing = 0.0;
  GnnTensor *weight = (GnnTensor *) 0x1;

  g_object_get (criterion, "reduction", &reduction, "ignore-index", &ignore_index,
                "label-smoothing", &smoothing, "weight", &weight, NULL);
  g_assert_cmpstr (reduction, ==, "sum");
  g_assert_cmpint (ignore_index, ==, 7);
  g_assert_cmpfloat (smoothing, ==, 0.25);
  g_assert_null (weight);
}

static void
test_cross_entropy_ignore_index (void)
{
  const gint64 tv[] = { 2, -100 };
  const gint64 shape[1] = { 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s (tv, 2, shape, 1, NULL);
  g_autoptr(GnnCrossEntropyLoss) criterion = g_object_new (GNN_TYPE_CROSS_ENTROPY_LOSS, NULL);
  g_autoptr(GnnTensor) loss = gnn_cross_entropy_loss_compute (criterion, x, t, &error);

  /* only row 0 counts: -log_softmax([1, 2, 3])[2] */
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (loss, NULL), 0.40760596, 1e-5);
}

static void
test_nll_sum (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnTensor) t = make_classes ();
  g_autoptr(GnnNLLLoss) criterion = gnn_nll_loss_new (NULL, -100, GNN_REDUCTION_SUM);
  g_autoptr(GnnTensor) loss = gnn_nll_loss_compute (criterion, x, t, &error);
  const double grad[] = { 0, 0, -1, -1, 0, 0 };

  g_assert_no_error (error);
  assert_loss_and_grad (loss, x, -4.0, grad);
}

static void
test_mse_mean (void)
{
  const float yv[] = { 0.0f, 1.0f, 2.0f, 1.0f, 1.0f, 1.0f };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnTensor) y = gnn_tensor_new_from_floats (yv, 6, x_shape, 2, NULL);
  g_autoptr(GnnMSELoss) criterion = g_object_new (GNN_TYPE_MSE_LOSS, NULL);
  g_autoptr(GnnTensor) loss = gnn_mse_loss_compute (criterion, x, y, &error);
  const double grad[] = { 1.0 / 3, 1.0 / 3, 1.0 / 3, 0.0, -2.0 / 3, -1.0 / 6 };

  g_assert_no_error (error);
  assert_loss_and_grad (loss, x, 1.20833337, grad);
}

static void
test_mse_none (void)
{
  const float yv[] = { 0.0f, 1.0f, 2.0f, 1.0f, 1.0f, 1.0f };
  const double expected[] = { 1.0, 1.0, 1.0, 0.0, 4.0, 0.25 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnTensor) y = gnn_tensor_new_from_floats (yv, 6, x_shape, 2, NULL);
  g_autoptr(GnnMSELoss) criterion = gnn_mse_loss_new (GNN_REDUCTION_NONE);
  g_autoptr(GnnTensor) loss = gnn_mse_loss_compute (criterion, x, y, &error);

  g_assert_no_error (error);
  gnn_test_assert_values (loss, expected, 6, 1e-5);
  g_assert_cmpuint (gnn_tensor_get_ndim (loss), ==, 2);
}

static void
test_bce_pos_weight (void)
{
  const float yv[] = { 0.0f, 1.0f, 1.0f, 1.0f, 0.0f, 0.5f };
  const float pw[] = { 1.0f, 2.0f, 3.0f };
  const gint64 pshape[1] = { 3 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnTensor) y = gnn_tensor_new_from_floats (yv, 6, x_shape, 2, NULL);
  g_autoptr(GnnTensor) pos_weight = gnn_tensor_new_from_floats (pw, 3, pshape, 1, NULL);
  g_autoptr(GnnBCEWithLogitsLoss) criterion =
    gnn_bce_with_logits_loss_new (NULL, pos_weight, GNN_REDUCTION_MEAN);
  g_autoptr(GnnTensor) loss = gnn_bce_with_logits_loss_compute (criterion, x, y, &error);
  const double grad[] = { 0.12184310, -0.03973432, -0.02371295, -0.04482357, 0.04482357, -0.04251355 };

  g_assert_no_error (error);
  assert_loss_and_grad (loss, x, 0.58959287, grad);
}

/* The weights are buffers: in the state dict only when set (PyTorch's
 * register_buffer('weight', None)). */
static void
test_weight_buffers (void)
{
  const float pw[] = { 1.0f, 2.0f, 3.0f };
  const gint64 pshape[1] = { 3 };
  g_autoptr(GnnTensor) pos_weight = gnn_tensor_new_from_floats (pw, 3, pshape, 1, NULL);
  g_autoptr(GnnBCEWithLogitsLoss) bce = gnn_bce_with_logits_loss_new (NULL, pos_weight, GNN_REDUCTION_MEAN);
  g_autoptr(GnnCrossEntropyLoss) ce = g_object_new (GNN_TYPE_CROSS_ENTROPY_LOSS, NULL);
  g_autoptr(GnnStateDict) bce_sd = gnn_module_state_dict (GNN_MODULE (bce));
  g_autoptr(GnnStateDict) ce_sd = gnn_module_state_dict (GNN_MODULE (ce));
  g_auto(GStrv) keys = gnn_state_dict_get_keys (bce_sd);

  g_assert_cmpuint (g_strv_length (keys), ==, 1);
  g_assert_cmpstr (keys[0], ==, "pos_weight");
  g_assert_true (gnn_state_dict_lookup (bce_sd, "pos_weight") == pos_weight ||
                 gnn_tensor_equal (gnn_state_dict_lookup (bce_sd, "pos_weight"), pos_weight));
  g_assert_cmpuint (gnn_state_dict_get_length (ce_sd), ==, 0);
  g_assert_true (gnn_module_has_child (GNN_MODULE (ce), "weight"));
}

static void
test_repr (void)
{
  g_autoptr(GnnCrossEntropyLoss) ce = g_object_new (GNN_TYPE_CROSS_ENTROPY_LOSS, NULL);
  g_autoptr(GnnNLLLoss) nll = g_object_new (GNN_TYPE_NLL_LOSS, NULL);
  g_autoptr(GnnMSELoss) mse = g_object_new (GNN_TYPE_MSE_LOSS, NULL);
  g_autoptr(GnnBCEWithLogitsLoss) bce = g_object_new (GNN_TYPE_BCE_WITH_LOGITS_LOSS, NULL);
  g_autofree char *s1 = gnn_module_to_string (GNN_MODULE (ce));
  g_autofree char *s2 = gnn_module_to_string (GNN_MODULE (nll));
  g_autofree char *s3 = gnn_module_to_string (GNN_MODULE (mse));
  g_autofree char *s4 = gnn_module_to_string (GNN_MODULE (bce));

  g_assert_cmpstr (s1, ==, "CrossEntropyLoss()");
  g_assert_cmpstr (s2, ==, "NLLLoss()");
  g_assert_cmpstr (s3, ==, "MSELoss()");
  g_assert_cmpstr (s4, ==, "BCEWithLogitsLoss()");
}

static void
test_bad_reduction (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnMSELoss) criterion = g_object_new (GNN_TYPE_MSE_LOSS, "reduction", "foo", NULL);
  g_autoptr(GnnTensor) loss = gnn_mse_loss_compute (criterion, x, x, &error);

  g_assert_null (loss);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "foo is not a valid value for reduction");
}

static void
test_call_needs_target (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnCrossEntropyLoss) criterion = g_object_new (GNN_TYPE_CROSS_ENTROPY_LOSS, NULL);
  g_autoptr(GnnTensor) out = gnn_module_call (GNN_MODULE (criterion), x, &error);

  g_assert_null (out);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_true (g_str_has_prefix (error->message,
                                   "CrossEntropyLoss.forward() missing 1 required positional argument: 'target'"));
}

static void
test_target_out_of_bounds (void)
{
  const gint64 tv[] = { 2, 5 };
  const gint64 shape[1] = { 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make_input ();
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s (tv, 2, shape, 1, NULL);
  g_autoptr(GnnNLLLoss) criterion = g_object_new (GNN_TYPE_NLL_LOSS, NULL);
  g_autoptr(GnnTensor) loss = gnn_nll_loss_compute (criterion, x, t, &error);

  g_assert_null (loss);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==, "Target 5 is out of bounds.");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/loss/cross-entropy/default", test_cross_entropy_default);
  g_test_add_func ("/nn/loss/cross-entropy/weight-smoothing", test_cross_entropy_weight_smoothing);
  g_test_add_func ("/nn/loss/cross-entropy/properties", test_cross_entropy_properties);
  g_test_add_func ("/nn/loss/cross-entropy/ignore-index", test_cross_entropy_ignore_index);
  g_test_add_func ("/nn/loss/nll/sum", test_nll_sum);
  g_test_add_func ("/nn/loss/mse/mean", test_mse_mean);
  g_test_add_func ("/nn/loss/mse/none", test_mse_none);
  g_test_add_func ("/nn/loss/bce-with-logits/pos-weight", test_bce_pos_weight);
  g_test_add_func ("/nn/loss/weight-buffers", test_weight_buffers);
  g_test_add_func ("/nn/loss/repr", test_repr);
  g_test_add_func ("/nn/loss/bad-reduction", test_bad_reduction);
  g_test_add_func ("/nn/loss/call-needs-target", test_call_needs_target);
  g_test_add_func ("/nn/loss/target-out-of-bounds", test_target_out_of_bounds);
  return g_test_run ();
}
