/* MultiMarginLoss, MultiLabelMarginLoss, TripletMarginWithDistanceLoss (a C
 * distance function) and RReLU from C: values against PyTorch 1.13's
 * (float64), gradients against central differences, errors with PyTorch's
 * messages, grad_fn names. */
#include <math.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"
#include "nn-gradcheck.h"

static const gint64 shape23[2] = { 2, 3 };
static const double xv[] = { 0.5, -1.0, 2.0, 1.5, 0.0, -0.5 };

#define IN (GnnTensor **in, gconstpointer data, GError **e)

static GnnTensor *
multi_margin IN
{
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s ((const gint64[]) { 2, 0 }, 2,
                                                       (const gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) w = nn_doubles ((const double[]) { 1.0, 2.0, 0.5 }, (const gint64[]) { 3 }, 1);

  return gnn_multi_margin_loss (in[0], t, 2, 3.0, w, GNN_REDUCTION_MEAN, e);
}

static GnnTensor *
multilabel IN
{
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s ((const gint64[]) { 2, -1, 0, 1, 0, -1 }, 6,
                                                       shape23, 2, NULL);

  return gnn_multilabel_margin_loss (in[0], t, GNN_REDUCTION_MEAN, e);
}

/* Σ |a - b| over the last dimension, built of differentiable ops */
static GnnTensor *
l1_distance (GnnTensor  *a,
             GnnTensor  *b,
             gpointer    user_data,
             GError    **error)
{
  g_autoptr(GnnTensor) d = gnn_tensor_sub (a, b, error);
  g_autoptr(GnnTensor) ad = d != NULL ? gnn_tensor_abs (d, error) : NULL;
  gint dim = -1;

  (*(int *) user_data)++;
  return ad != NULL ? gnn_tensor_sum (ad, &dim, 1, FALSE, error) : NULL;
}

static GnnTensor *
triplet IN
{
  int calls = 0;
  g_autoptr(GnnTensor) half = gnn_tensor_mul_scalar (in[0], 0.5, e);
  g_autoptr(GnnTensor) flipped = gnn_tensor_flip (in[0], (const gint[]) { 0 }, 1, e);
  GnnTensor *out = gnn_triplet_margin_with_distance_loss (in[0], half, flipped, l1_distance, &calls,
                                                          4.0, TRUE, GNN_REDUCTION_MEAN, e);

  g_assert_cmpint (calls, ==, 3);               /* with swap: three distances */
  return out;
}

static void
test_values_and_gradients (void)
{
  NnGradFunc fs[] = { multi_margin, multilabel, triplet };
  const double expected[] = { 0.7291666666666666, 0.08333333333333333, 2.0 };  /* PyTorch 1.13 */
  const char *names[] = { "MultiMarginLossBackward0", "MultilabelMarginLossBackward0", "MeanBackward0" };

  for (guint i = 0; i < G_N_ELEMENTS (fs); i++)
    {
      g_autoptr(GnnTensor) x = nn_doubles (xv, shape23, 2);
      g_autoptr(GnnTensor) loss = NULL;
      g_autoptr(GError) error = NULL;

      nn_gradcheck (fs[i], NULL, &x, 1, (const gboolean[]) { TRUE }, 1e-6);
      loss = fs[i] (&x, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (gnn_tensor_item (loss, NULL), expected[i], 1e-12);
      g_assert_cmpstr (gnn_tensor_get_grad_fn_name (loss), ==, names[i]);
    }
}

static GnnTensor *
failing_distance (GnnTensor  *a,
                  GnnTensor  *b,
                  gpointer    user_data,
                  GError    **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_KEY, "no distance");
  return NULL;
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) x = nn_doubles (xv, shape23, 2);
  g_autoptr(GnnTensor) bad = gnn_tensor_new_from_int64s ((const gint64[]) { 3, 0 }, 2,
                                                         (const gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) short_t = gnn_tensor_new_from_int64s ((const gint64[]) { 0 }, 1,
                                                             (const gint64[]) { 1 }, 1, NULL);
  g_autoptr(GnnTensor) labels = gnn_tensor_new_from_int64s ((const gint64[]) { 2, -2, 0, 1, 0, -1 },
                                                            6, shape23, 2, NULL);
  g_autoptr(GError) error = NULL;
  GnnTensor *out;

  out = gnn_multi_margin_loss (x, bad, 1, 1.0, NULL, GNN_REDUCTION_MEAN, &error);
  g_assert_null (out);
  g_assert_cmpstr (error->message, ==, "target out of range");
  g_clear_error (&error);
  out = gnn_multi_margin_loss (x, short_t, 1, 1.0, NULL, GNN_REDUCTION_MEAN, &error);
  g_assert_null (out);
  g_assert_cmpstr (error->message, ==, "inconsistent target size, got: [1]");
  g_clear_error (&error);
  out = gnn_multi_margin_loss (x, bad, 3, 1.0, NULL, GNN_REDUCTION_MEAN, &error);
  g_assert_null (out);
  g_assert_cmpstr (error->message, ==, "only p == 1 and p == 2 supported");
  g_clear_error (&error);
  out = gnn_multilabel_margin_loss (x, labels, GNN_REDUCTION_MEAN, &error);
  g_assert_null (out);
  g_assert_cmpstr (error->message, ==, "argument #2 'target' is out of range");
  g_clear_error (&error);
  out = gnn_triplet_margin_with_distance_loss (x, x, x, failing_distance, NULL, 1.0, FALSE,
                                               GNN_REDUCTION_MEAN, &error);
  g_assert_null (out);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
}

static void
test_rrelu (void)
{
  g_autoptr(GnnTensor) x = nn_doubles (xv, shape23, 2);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (7);
  g_autoptr(GnnTensor) eval = NULL;
  g_autoptr(GnnTensor) train = NULL;
  g_autoptr(GnnTensor) again = NULL;
  g_autoptr(GnnTensor) total = NULL;
  g_autoptr(GnnTensor) grad = NULL;
  const double mean = (0.1 + 0.5) / 2;
  g_autofree double *ev = NULL;
  g_autofree double *tv = NULL;
  g_autofree double *av = NULL;
  g_autofree double *gv = NULL;

  gnn_tensor_set_requires_grad (x, TRUE);
  eval = gnn_tensor_rrelu (x, 0.1, 0.5, FALSE, NULL, NULL);
  ev = gnn_tensor_to_doubles (eval, NULL);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpfloat_with_epsilon (ev[i], xv[i] > 0 ? xv[i] : mean * xv[i], 1e-15);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (eval), ==, "RreluWithNoiseBackward0");
  train = gnn_tensor_rrelu (x, 0.1, 0.5, TRUE, gen, NULL);
  gnn_generator_manual_seed (gen, 7);
  again = gnn_tensor_rrelu (x, 0.1, 0.5, TRUE, gen, NULL);
  total = gnn_tensor_sum (train, NULL, 0, FALSE, NULL);
  g_assert_true (gnn_tensor_backward (total, NULL, FALSE, NULL));
  grad = g_object_ref (gnn_tensor_get_grad (x));
  tv = gnn_tensor_to_doubles (train, NULL);
  av = gnn_tensor_to_doubles (again, NULL);
  gv = gnn_tensor_to_doubles (grad, NULL);
  for (guint i = 0; i < 6; i++)
    {
      double y = tv[i], g = gv[i];

      g_assert_cmpfloat (y, ==, av[i]);
      if (xv[i] > 0)
        {
          g_assert_cmpfloat (y, ==, xv[i]);
          g_assert_cmpfloat (g, ==, 1.0);
        }
      else if (xv[i] < 0)
        {
          g_assert_cmpfloat (y / xv[i], >=, 0.1);
          g_assert_cmpfloat (y / xv[i], <, 0.5);
          g_assert_cmpfloat_with_epsilon (g, y / xv[i], 1e-15);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/multi-margin/values-and-gradients", test_values_and_gradients);
  g_test_add_func ("/nn/multi-margin/errors", test_errors);
  g_test_add_func ("/nn/multi-margin/rrelu", test_rrelu);
  return g_test_run ();
}
