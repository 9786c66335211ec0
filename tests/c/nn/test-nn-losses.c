/* Losses: values against PyTorch 1.13's (float64), gradients with respect
 * to every differentiable input against central differences, errors with
 * PyTorch's messages, and the loss modules built from their properties. */
#include <math.h>

#include <gnn/gnn.h>

#include "gnn-test-util.h"
#include "nn-gradcheck.h"

static const gint64 shape23[2] = { 2, 3 };
static const double xv[] = { 0.5, -1.0, 2.0, 1.5, 0.0, -0.5 };
static const double yv[] = { 1.0, -0.5, 0.0, 1.0, 2.0, -1.5 };
static const double pv[] = { 0.2, 0.7, 0.9, 0.4, 0.5, 0.05 };
static const double tv[] = { 0.0, 1.0, 1.0, 0.0, 1.0, 0.0 };
static const double sv[] = { 1.0, -1.0, 1.0, -1.0, -1.0, 1.0 };
static const double vv[] = { 0.5, 1.0, 2.0, 0.1, 0.3, 0.7 };

/* The inputs of a case, made fresh for each use (0: x, 1: y, 2: p, 3: t,
 * 4: s, 5: v, 6: |y|, 7: the pair labels [1, -1], 8: p as [2, 3] after
 * softmax is not needed: class indices [2, 0]). */
static GnnTensor *
make (int which)
{
  static const double *const values[] = { xv, yv, pv, tv, sv, vv };
  double absy[6];

  if (which < 6)
    return nn_doubles (values[which], shape23, 2);
  if (which == 6)
    {
      for (int i = 0; i < 6; i++)
        absy[i] = fabs (yv[i]);
      return nn_doubles (absy, shape23, 2);
    }
  if (which == 7)
    return nn_doubles ((const double[]) { 1.0, -1.0 }, (const gint64[]) { 2 }, 1);
  return gnn_tensor_new_from_int64s ((const gint64[]) { 2, 0 }, 2, (const gint64[]) { 2 }, 1, NULL);
}

typedef struct
{
  const char *name;
  GnnTensor *(*f) (GnnTensor **in, gconstpointer data, GError **error);
  int         inputs[3];
  guint       n_inputs;
  gboolean    wrt[3];
  double      expected;        /* PyTorch 1.13 */
} Case;

#define IN (GnnTensor **in, gconstpointer data, GError **e)
static GnnTensor *l1 IN { return gnn_l1_loss (in[0], in[1], GNN_REDUCTION_MEAN, e); }
static GnnTensor *mse IN { return gnn_mse_loss (in[0], in[1], GNN_REDUCTION_SUM, e); }
static GnnTensor *sl1 IN { return gnn_smooth_l1_loss (in[0], in[1], GNN_REDUCTION_MEAN, 0.5, e); }
static GnnTensor *huber IN { return gnn_huber_loss (in[0], in[1], GNN_REDUCTION_MEAN, 0.8, e); }
static GnnTensor *bce IN { return gnn_binary_cross_entropy (in[0], in[1], NULL, GNN_REDUCTION_MEAN, e); }
static GnnTensor *
bce_logits IN
{
  g_autoptr(GnnTensor) pw = nn_doubles ((const double[]) { 1.0, 2.0, 0.5 }, (const gint64[]) { 3 }, 1);

  return gnn_binary_cross_entropy_with_logits (in[0], in[1], NULL, pw, GNN_REDUCTION_MEAN, e);
}
static GnnTensor *kl IN { return gnn_kl_div (in[0], in[1], GNN_REDUCTION_BATCHMEAN, FALSE, e); }
static GnnTensor *poisson IN { return gnn_poisson_nll_loss (in[0], in[1], TRUE, FALSE, 1e-8, GNN_REDUCTION_MEAN, e); }
static GnnTensor *gauss IN { return gnn_gaussian_nll_loss (in[0], in[1], in[2], FALSE, 1e-6, GNN_REDUCTION_MEAN, e); }
static GnnTensor *mlsm IN { return gnn_multilabel_soft_margin_loss (in[0], in[1], NULL, GNN_REDUCTION_MEAN, e); }
static GnnTensor *hinge IN { return gnn_hinge_embedding_loss (in[0], in[1], 1.0, GNN_REDUCTION_MEAN, e); }
static GnnTensor *mr IN { return gnn_margin_ranking_loss (in[0], in[1], in[2], 0.3, GNN_REDUCTION_MEAN, e); }
static GnnTensor *cosemb IN { return gnn_cosine_embedding_loss (in[0], in[1], in[2], 0.0, GNN_REDUCTION_MEAN, e); }
static GnnTensor *triplet IN { return gnn_triplet_margin_loss (in[0], in[1], in[2], 1.0, 2.0, 1e-6, FALSE, GNN_REDUCTION_MEAN, e); }
static GnnTensor *soft_margin IN { return gnn_soft_margin_loss (in[0], in[1], GNN_REDUCTION_MEAN, e); }
static GnnTensor *nll IN { return gnn_nll_loss (in[0], in[1], NULL, -100, GNN_REDUCTION_MEAN, e); }
static GnnTensor *ce IN { return gnn_cross_entropy (in[0], in[1], NULL, -100, GNN_REDUCTION_MEAN, 0.1, e); }

static GnnTensor *
ce_prob IN
{
  g_autoptr(GnnTensor) probs = gnn_tensor_softmax (in[1], 1, e);

  return probs != NULL ? gnn_cross_entropy (in[0], probs, NULL, -100, GNN_REDUCTION_MEAN, 0.0, e) : NULL;
}

static const Case cases[] = {
  { "l1", l1, { 0, 1 }, 2, { TRUE, TRUE }, 1.08333333333 },
  { "mse", mse, { 0, 1 }, 2, { TRUE, TRUE }, 9.75 },
  { "smooth_l1", sl1, { 0, 1 }, 2, { TRUE, TRUE }, 0.833333333333 },
  { "huber", huber, { 0, 1 }, 2, { TRUE, TRUE }, 0.569166666667 },
  { "bce", bce, { 2, 3 }, 2, { TRUE, TRUE }, 0.323407518271 },
  { "bce_logits", bce_logits, { 0, 3 }, 2, { TRUE, TRUE }, 1.20430816467 },
  { "kl_div", kl, { 0, 2 }, 2, { TRUE, TRUE }, -1.65213050202 },
  { "poisson_nll", poisson, { 0, 6 }, 2, { TRUE, TRUE }, 2.45731275681 },
  { "gaussian_nll", gauss, { 0, 1, 5 }, 3, { TRUE, TRUE, TRUE }, 1.34572266005 },
  { "multilabel_soft_margin", mlsm, { 0, 3 }, 2, { TRUE, TRUE }, 0.880484020911 },
  { "hinge_embedding", hinge, { 0, 4 }, 2, { TRUE, FALSE }, 0.833333333333 },
  { "margin_ranking", mr, { 0, 1, 4 }, 3, { TRUE, TRUE, FALSE }, 0.266666666667 },
  { "cosine_embedding", cosemb, { 0, 1, 7 }, 3, { TRUE, TRUE, FALSE }, 0.569069084192 },
  { "triplet_margin", triplet, { 0, 1, 2 }, 3, { TRUE, TRUE, TRUE }, 1.51903389967 },
  { "soft_margin", soft_margin, { 0, 4 }, 2, { TRUE, FALSE }, 0.713817354244 },
  { "nll", nll, { 0, 8 }, 2, { TRUE, FALSE }, -1.75 },
  { "cross_entropy_smoothing", ce, { 0, 8 }, 2, { TRUE, FALSE }, 0.407166837776 },
  { "cross_entropy_probabilities", ce_prob, { 0, 2 }, 2, { TRUE, TRUE }, 1.51089549171 },
};

static void
test_value (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GError) error = NULL;
  GnnTensor *in[3] = { NULL, };
  g_autoptr(GnnTensor) loss = NULL;

  for (guint i = 0; i < c->n_inputs; i++)
    in[i] = make (c->inputs[i]);
  loss = c->f (in, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_tensor_get_ndim (loss), ==, 0);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (loss, NULL), c->expected, 1e-9);
  for (guint i = 0; i < c->n_inputs; i++)
    g_object_unref (in[i]);
}

static void
test_gradient (gconstpointer data)
{
  const Case *c = data;
  GnnTensor *in[3] = { NULL, };

  for (guint i = 0; i < c->n_inputs; i++)
    in[i] = make (c->inputs[i]);
  nn_gradcheck (c->f, NULL, in, c->n_inputs, c->wrt, 1e-6);
  for (guint i = 0; i < c->n_inputs; i++)
    g_object_unref (in[i]);
}

/* reduction none keeps one loss per element; sum and mean agree with it */
static void
test_reductions (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make (0);
  g_autoptr(GnnTensor) y = make (1);
  g_autoptr(GnnTensor) none = gnn_huber_loss (x, y, GNN_REDUCTION_NONE, 0.8, &error);
  g_autoptr(GnnTensor) sum = gnn_huber_loss (x, y, GNN_REDUCTION_SUM, 0.8, &error);
  g_autoptr(GnnTensor) mean = gnn_huber_loss (x, y, GNN_REDUCTION_MEAN, 0.8, &error);
  g_autoptr(GnnTensor) total = NULL;

  g_assert_no_error (error);
  gnn_test_assert_shape (none, shape23, 2);
  total = gnn_tensor_sum (none, NULL, 0, FALSE, NULL);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (total, NULL), gnn_tensor_item (sum, NULL), 1e-12);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (mean, NULL) * 6, gnn_tensor_item (sum, NULL), 1e-12);
}

static void
assert_fails (GnnTensor  *result,
              GError     *error,
              const char *message)
{
  g_assert_null (result);
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) x = make (0);
  g_autoptr(GnnTensor) p = make (2);
  g_autoptr(GnnTensor) y = make (1);
  g_autoptr(GnnTensor) row = gnn_tensor_narrow (y, 0, 0, 1, NULL);
  g_autoptr(GnnTensor) first = gnn_tensor_select (x, 0, 0, NULL);
  g_autoptr(GnnTensor) ints = gnn_tensor_to_dtype (x, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) labels = make (8);
  g_autoptr(GnnTensor) labels32 = gnn_tensor_to_dtype (labels, GNN_DTYPE_I32, NULL);
  g_autoptr(GnnTensor) out_of_range = gnn_tensor_new_from_int64s ((const gint64[]) { 0, 3 }, 2,
                                                                  (const gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) three = gnn_tensor_new_from_int64s ((const gint64[]) { 0, 1, 2 }, 3,
                                                           (const gint64[]) { 3 }, 1, NULL);
  GError *error = NULL;

#define FAILS(expr, message) G_STMT_START {                                     \
    GnnTensor *r = (expr);                                                      \
    assert_fails (r, error, message);                                           \
    g_clear_error (&error);                                                     \
  } G_STMT_END
  FAILS (gnn_binary_cross_entropy (p, row, NULL, GNN_REDUCTION_MEAN, &error),
         "Using a target size (torch.Size([1, 3])) that is different to the input size "
         "(torch.Size([2, 3])) is deprecated. Please ensure they have the same size.");
  FAILS (gnn_binary_cross_entropy (x, p, NULL, GNN_REDUCTION_MEAN, &error),
         "all elements of input should be between 0 and 1");
  FAILS (gnn_binary_cross_entropy_with_logits (x, row, NULL, NULL, GNN_REDUCTION_MEAN, &error),
         "Target size (torch.Size([1, 3])) must be the same as input size (torch.Size([2, 3]))");
  FAILS (gnn_smooth_l1_loss (x, x, GNN_REDUCTION_MEAN, -1, &error),
         "smooth_l1_loss does not support negative values for beta.");
  FAILS (gnn_huber_loss (x, x, GNN_REDUCTION_MEAN, 0, &error),
         "huber_loss does not support non-positive values for delta.");
  FAILS (gnn_mse_loss (x, x, GNN_REDUCTION_BATCHMEAN, &error),
         "batchmean is not a valid value for reduction");
  FAILS (gnn_mse_loss (ints, ints, GNN_REDUCTION_MEAN, &error),
         "\"mse_cpu\" not implemented for 'Long'");
  FAILS (gnn_nll_loss (x, labels32, NULL, -100, GNN_REDUCTION_MEAN, &error),
         "expected scalar type Long but found Int");
  FAILS (gnn_nll_loss (x, out_of_range, NULL, -100, GNN_REDUCTION_MEAN, &error),
         "Target 3 is out of bounds.");
  FAILS (gnn_nll_loss (x, three, NULL, -100, GNN_REDUCTION_MEAN, &error),
         "Expected input batch_size (2) to match target batch_size (3).");
  FAILS (gnn_triplet_margin_loss (x, row, first, 1, 2, 1e-6, FALSE, GNN_REDUCTION_MEAN, &error),
         "All inputs should have same dimension but got 2D, 2D and 1D inputs.");
#undef FAILS
}

static void
test_modules (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make (0);
  g_autoptr(GnnTensor) y = make (1);
  g_autoptr(GnnTensor) s = make (4);
  g_autoptr(GnnModule) huber = g_object_new (GNN_TYPE_HUBER_LOSS, "delta", 0.8, NULL);
  g_autoptr(GnnModule) kl = g_object_new (GNN_TYPE_KL_DIV_LOSS, "reduction", "batchmean",
                                          "log-target", TRUE, NULL);
  g_autoptr(GnnMarginRankingLoss) mr = gnn_margin_ranking_loss_new (0.3, GNN_REDUCTION_MEAN);
  g_autoptr(GnnModule) l1 = g_object_new (GNN_TYPE_L1_LOSS, "reduction", "batchmean", NULL);
  g_autoptr(GnnTensor) a = gnn_huber_loss_compute (GNN_HUBER_LOSS (huber), x, y, &error);
  g_autoptr(GnnTensor) b = gnn_kl_div_loss_compute (GNN_KL_DIV_LOSS (kl), x, y, &error);
  g_autoptr(GnnTensor) c = gnn_margin_ranking_loss_compute (mr, x, y, s, &error);
  g_autoptr(GnnTensor) want_b = gnn_kl_div (x, y, GNN_REDUCTION_BATCHMEAN, TRUE, NULL);
  g_autoptr(GnnTensor) bad = NULL;
  g_autofree char *repr = gnn_module_to_string (kl);
  gboolean log_target = FALSE;

  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (a, NULL), 0.569166666667, 1e-9);
  g_assert_cmpfloat (gnn_tensor_item (b, NULL), ==, gnn_tensor_item (want_b, NULL));
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (c, NULL), 0.266666666667, 1e-9);
  g_assert_cmpstr (repr, ==, "KLDivLoss()");
  g_object_get (kl, "log-target", &log_target, NULL);
  g_assert_true (log_target);

  /* one input: PyTorch's missing-argument message */
  bad = gnn_module_call (GNN_MODULE (mr), x, &error);
  g_assert_null (bad);
  g_assert_true (g_str_has_prefix (error->message, "MarginRankingLoss.forward() missing 2 required "
                                   "positional arguments: 'input2' and 'target'"));
  g_clear_error (&error);
  /* batchmean is KLDivLoss's only */
  bad = gnn_l1_loss_compute (GNN_L1_LOSS (l1), x, y, &error);
  g_assert_null (bad);
  g_assert_cmpstr (error->message, ==, "batchmean is not a valid value for reduction");
}

/* ctc_loss of log_softmax (x), x = sin (0 .. 39) as [5, 2, 4] */
static GnnTensor *
ctc_inputs (GnnTensor **x_out)
{
  double v[40];

  for (int i = 0; i < 40; i++)
    v[i] = sin (i);
  *x_out = nn_doubles (v, (const gint64[]) { 5, 2, 4 }, 3);
  return gnn_tensor_new_from_int64s ((const gint64[]) { 1, 2, 3, 3 }, 4, (const gint64[]) { 2, 2 }, 2, NULL);
}

static GnnTensor *
ctc IN
{
  const gint64 *lengths = data;
  g_autoptr(GnnTensor) lp = gnn_tensor_log_softmax (in[0], 2, e);
  g_autoptr(GnnTensor) il = gnn_tensor_new_from_int64s (lengths, 2, (const gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) tl = gnn_tensor_new_from_int64s ((const gint64[]) { 2, 2 }, 2, (const gint64[]) { 2 }, 1, NULL);

  return lp != NULL ? gnn_ctc_loss (lp, in[1], il, tl, 0, GNN_REDUCTION_MEAN, TRUE, e) : NULL;
}

static void
test_ctc (void)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *in[2];
  g_autoptr(GnnTensor) lp = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autoptr(GnnTensor) none = NULL;
  g_autoptr(GnnTensor) il = gnn_tensor_new_from_int64s ((const gint64[]) { 5, 2 }, 2, (const gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) tl = gnn_tensor_new_from_int64s ((const gint64[]) { 2, 2 }, 2, (const gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnTensor) long_il = gnn_tensor_new_from_int64s ((const gint64[]) { 5, 6 }, 2, (const gint64[]) { 2 }, 1, NULL);
  static const gint64 lengths[2] = { 5, 4 }, short_lengths[2] = { 5, 2 };

  in[1] = ctc_inputs (&in[0]);
  loss = ctc (in, lengths, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (loss, NULL), 1.75342594875, 1e-9);
  /* an input too short for its target: an infinite loss, or 0 with zero_infinity */
  lp = gnn_tensor_log_softmax (in[0], 2, NULL);
  none = gnn_ctc_loss (lp, in[1], il, tl, 0, GNN_REDUCTION_NONE, FALSE, &error);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (none, (const gint64[]) { 0 }, 1, NULL),
                                  3.3142133341730657, 1e-9);
  g_assert_true (isinf (gnn_tensor_get_element (none, (const gint64[]) { 1 }, 1, NULL)));
  nn_gradcheck (ctc, lengths, in, 2, (const gboolean[]) { TRUE, FALSE }, 1e-6);
  nn_gradcheck (ctc, short_lengths, in, 2, (const gboolean[]) { TRUE, FALSE }, 1e-6);
  g_clear_object (&none);
  none = gnn_ctc_loss (lp, in[1], long_il, tl, 0, GNN_REDUCTION_NONE, FALSE, &error);
  g_assert_null (none);
  g_assert_cmpstr (error->message, ==, "Expected input_lengths to have value at most 5, but got "
                   "value 6 (while checking arguments for ctc_loss_cpu)");
  g_object_unref (in[0]);
  g_object_unref (in[1]);
}

/* The module call path: criterion (input, target) through call_args, the
 * target as a keyword too, hooks seeing the call. */
static GnnValue *
double_output (GnnModule  *module,
               GnnValue   *args,
               GnnValue   *kwargs,
               GnnValue   *output,
               gpointer    user_data,
               GError    **error)
{
  GnnTensor *doubled;

  g_assert_cmpuint (gnn_value_get_length (args), ==, 2);
  (*(guint *) user_data)++;
  doubled = gnn_tensor_mul_scalar (gnn_value_get_tensor (output), 2.0, error);
  return doubled != NULL ? gnn_value_take_tensor (doubled) : NULL;
}

static void
test_call_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = make (0);
  g_autoptr(GnnTensor) y = make (1);
  g_autoptr(GnnTensor) s = make (4);
  g_autoptr(GnnMSELoss) mse = gnn_mse_loss_new (GNN_REDUCTION_SUM);
  g_autoptr(GnnMarginRankingLoss) mr = gnn_margin_ranking_loss_new (0.3, GNN_REDUCTION_MEAN);
  g_autoptr(GnnValue) args = gnn_value_new_tensor_tuple ((GnnTensor *[]) { x, y }, 2);
  g_autoptr(GnnValue) one = gnn_value_new_tensor_tuple ((GnnTensor *[]) { x }, 1);
  g_autoptr(GnnValue) three = gnn_value_new_tensor_tuple ((GnnTensor *[]) { x, y, s }, 3);
  g_autoptr(GnnValue) target = gnn_value_new_tensor (y);
  g_autoptr(GnnValue) kwargs = gnn_value_new_dict ((const char *[]) { "target" }, &target, 1);
  g_autoptr(GnnValue) out = gnn_module_call_args (GNN_MODULE (mse), args, NULL, &error);
  g_autoptr(GnnValue) by_name = NULL;
  g_autoptr(GnnValue) hooked = NULL;
  g_autoptr(GnnValue) ranked = NULL;
  g_autoptr(GnnValue) missing = NULL;
  g_autoptr(GnnHookHandle) handle = NULL;
  guint calls = 0;

  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_tensor_item (gnn_value_get_tensor (out), NULL), ==, 9.75);
  by_name = gnn_module_call_args (GNN_MODULE (mse), one, kwargs, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_tensor_item (gnn_value_get_tensor (by_name), NULL), ==, 9.75);
  handle = gnn_module_register_forward_hook_args (GNN_MODULE (mse), double_output, &calls, NULL,
                                                  GNN_HOOK_FLAGS_NONE);
  hooked = gnn_module_call_args (GNN_MODULE (mse), args, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (calls, ==, 1);
  g_assert_cmpfloat (gnn_tensor_item (gnn_value_get_tensor (hooked), NULL), ==, 19.5);
  ranked = gnn_module_call_args (GNN_MODULE (mr), three, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (gnn_value_get_tensor (ranked), NULL),
                                  0.266666666667, 1e-9);
  missing = gnn_module_call_args (GNN_MODULE (mr), args, NULL, &error);
  g_assert_null (missing);
  g_assert_cmpstr (error->message, ==, "MarginRankingLoss.forward() missing 1 required positional "
                   "argument: 'target'");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *v = g_strdup_printf ("/nn/losses/value/%s", cases[i].name);
      g_autofree char *g = g_strdup_printf ("/nn/losses/gradient/%s", cases[i].name);

      g_test_add_data_func (v, &cases[i], test_value);
      g_test_add_data_func (g, &cases[i], test_gradient);
    }
  g_test_add_func ("/nn/losses/reductions", test_reductions);
  g_test_add_func ("/nn/losses/errors", test_errors);
  g_test_add_func ("/nn/losses/modules", test_modules);
  g_test_add_func ("/nn/losses/ctc", test_ctc);
  g_test_add_func ("/nn/losses/call-path", test_call_path);
  return g_test_run ();
}
