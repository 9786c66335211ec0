/* Optimizer updates (trajectories against torch 1.13), checks and zero_grad. */
#include "optim-test-util.h"

#define TOL_F32 1e-6
#define TOL_F64 1e-12

static void
check_trajectory (GnnOptimizer *opt,
                  GnnTensor    *p,
                  const double *expected,
                  double        tol)
{
  g_assert_nonnull (opt);
  run_steps (opt, p, 0, 5);
  assert_values (p, expected, tol);
  g_assert_cmpuint (gnn_optimizer_get_step_count (opt), ==, 5);
}

static void
test_sgd_plain (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL));

  check_trajectory (opt, p, SGD_PLAIN_F32, TOL_F32);
  /* no momentum: no state */
  g_assert_cmpuint (gnn_state_dict_get_length (gnn_optimizer_get_state (opt, 0)), ==, 0);
}

static void
test_sgd_momentum_weight_decay (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0.9, 0.1, 0.01, FALSE, NULL));

  check_trajectory (opt, p, SGD_MOMENTUM_WD_F32, TOL_F32);
  g_assert_nonnull (gnn_state_dict_lookup (gnn_optimizer_get_state (opt, 0), "momentum_buffer"));
}

static void
test_sgd_nesterov (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.05, 0.8, 0, 0.1, TRUE, NULL));

  check_trajectory (opt, p, SGD_NESTEROV_F64, TOL_F64);
}

static void
test_sgd_maximize (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.05, 0.5, 0, 0, FALSE, NULL));

  g_object_set (opt, "maximize", TRUE, NULL);
  check_trajectory (opt, p, SGD_MAXIMIZE_F64, TOL_F64);
}

static void
test_adam (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (params, 0.01, 0.9, 0.999, 1e-8, 0, FALSE, NULL));
  GnnStateDict *state;
  GnnTensor *step;

  check_trajectory (opt, p, ADAM_F32, TOL_F32);
  state = gnn_optimizer_get_state (opt, 0);
  step = gnn_state_dict_lookup (state, "step");
  g_assert_nonnull (step);
  g_assert_cmpint (gnn_tensor_get_dtype (step), ==, GNN_DTYPE_F32);
  g_assert_cmpuint (gnn_tensor_get_ndim (step), ==, 0);
  g_assert_cmpfloat (gnn_tensor_item (step, NULL), ==, 5.0);
  g_assert_nonnull (gnn_state_dict_lookup (state, "exp_avg"));
  g_assert_nonnull (gnn_state_dict_lookup (state, "exp_avg_sq"));
  g_assert_null (gnn_state_dict_lookup (state, "max_exp_avg_sq"));
}

static void
test_adam_amsgrad_weight_decay (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (params, 0.02, 0.8, 0.99, 1e-6, 0.05, TRUE, NULL));

  check_trajectory (opt, p, ADAM_AMSGRAD_WD_F64, TOL_F64);
  g_assert_nonnull (gnn_state_dict_lookup (gnn_optimizer_get_state (opt, 0), "max_exp_avg_sq"));
}

static void
test_adamw_defaults (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adamw_new (params, 0.01, 0.9, 0.999, 1e-8, 0.01, FALSE, NULL));
  g_autoptr (GnnOptimizer) plain = g_object_new (GNN_TYPE_ADAMW, NULL);
  double wd = 0;

  g_object_get (plain, "weight-decay", &wd, NULL);
  g_assert_cmpfloat (wd, ==, 0.01);
  check_trajectory (opt, p, ADAMW_F32, TOL_F32);
}

static void
test_adamw_amsgrad (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adamw_new (params, 0.03, 0.9, 0.999, 1e-8, 0.1, TRUE, NULL));

  check_trajectory (opt, p, ADAMW_AMSGRAD_F64, TOL_F64);
}

static void
test_lr_property_changes_step (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL));
  double lr = 0;

  g_object_set (opt, "lr", 0.5, NULL);
  g_object_get (opt, "lr", &lr, NULL);
  g_assert_cmpfloat (lr, ==, 0.5);
  set_grad (p, 0);
  g_assert_true (gnn_optimizer_step (opt, NULL));
  g_assert_cmpfloat_with_epsilon (gnn_tensor_get_element (p, (gint64[]) { 0, 0 }, 2, NULL),
                                  0.5 - 0.5 * GRADS[0], 1e-15);
}

/* A parameter large enough to be split among 2 threads (1 << 17 elements
 * a range) takes the same bits as at 1 thread, momentum buffer included. */
static GnnTensor *
sgd_large_run (GnnDType dtype,
               guint    threads)
{
  const gint64 n = 300001;
  g_autofree double *v = g_new (double, n), *gv = g_new (double, n);
  g_autoptr (GnnTensor) d = NULL, g = NULL, pd = NULL, gd = NULL;
  g_autoptr (GPtrArray) params = NULL;
  g_autoptr (GnnOptimizer) opt = NULL;
  GnnTensor *p;

  for (gint64 i = 0; i < n; i++)
    {
      v[i] = sin ((double) i) * 0.5;
      gv[i] = cos ((double) i * 0.37);
    }
  d = gnn_tensor_new_from_doubles (v, n, &n, 1, NULL);
  g = gnn_tensor_new_from_doubles (gv, n, &n, 1, NULL);
  pd = gnn_tensor_to_dtype (d, dtype, NULL);
  gd = gnn_tensor_to_dtype (g, dtype, NULL);
  p = GNN_TENSOR (gnn_parameter_new (pd, TRUE));
  params = param_list (p);
  opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.05, 0.8, 0, 0.1, TRUE, NULL));
  g_assert_true (gnn_set_num_threads (threads, NULL));
  for (guint k = 0; k < 3; k++)
    {
      gnn_tensor_set_grad (p, gd);
      g_assert_true (gnn_optimizer_step (opt, NULL));
    }
  return p;
}

static void
test_sgd_split_same_bits (void)
{
  guint threads = gnn_get_num_threads ();

  for (guint k = 0; k < 2; k++)
    {
      GnnDType dtype = k == 0 ? GNN_DTYPE_F32 : GNN_DTYPE_F64;
      g_autoptr (GnnTensor) one = sgd_large_run (dtype, 1);
      g_autoptr (GnnTensor) two = sgd_large_run (dtype, 2);
      gsize size = k == 0 ? sizeof (float) : sizeof (double);

      g_assert_cmpint (memcmp (gnn_tensor_get_data (one), gnn_tensor_get_data (two), 300001 * size), ==, 0);
    }
  g_assert_true (gnn_set_num_threads (threads, NULL));
}

/* --- constructor checks ----------------------------------------------------- */

static void
expect_invalid (GnnOptimizer *opt,
                GError       *error,
                const char   *message)
{
  g_assert_null (opt);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_sgd_invalid_lr (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, -1, 0, 0, 0, FALSE, &error));

  expect_invalid (opt, error, "Invalid learning rate: -1.0");
}

static void
test_sgd_invalid_momentum_and_weight_decay (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GError) e1 = NULL;
  g_autoptr (GError) e2 = NULL;
  g_autoptr (GnnOptimizer) o1 = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, -0.5, 0, 0, FALSE, &e1));
  g_autoptr (GnnOptimizer) o2 = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, -0.25, FALSE, &e2));

  expect_invalid (o1, e1, "Invalid momentum value: -0.5");
  expect_invalid (o2, e2, "Invalid weight_decay value: -0.25");
}

static void
test_sgd_nesterov_requires_momentum (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GError) e1 = NULL;
  g_autoptr (GError) e2 = NULL;
  g_autoptr (GnnOptimizer) o1 = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, TRUE, &e1));
  g_autoptr (GnnOptimizer) o2 = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0.9, 0.1, 0, TRUE, &e2));

  expect_invalid (o1, e1, "Nesterov momentum requires a momentum and zero dampening");
  expect_invalid (o2, e2, "Nesterov momentum requires a momentum and zero dampening");
}

static void
test_adam_invalid_hyper (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  struct { double lr, b1, b2, eps, wd; const char *msg; } cases[] = {
    { -0.1, 0.9, 0.999, 1e-8, 0, "Invalid learning rate: -0.1" },
    { 0.1, 0.9, 0.999, -1e-8, 0, "Invalid epsilon value: -1e-08" },
    { 0.1, 1.0, 0.999, 1e-8, 0, "Invalid beta parameter at index 0: 1.0" },
    { 0.1, 0.9, -0.5, 1e-8, 0, "Invalid beta parameter at index 1: -0.5" },
    { 0.1, 0.9, 0.999, 1e-8, -2, "Invalid weight_decay value: -2.0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) e1 = NULL;
      g_autoptr (GError) e2 = NULL;
      g_autoptr (GnnOptimizer) a = GNN_OPTIMIZER (gnn_adam_new (params, cases[i].lr, cases[i].b1, cases[i].b2,
                                                 cases[i].eps, cases[i].wd, FALSE, &e1));
      g_autoptr (GnnOptimizer) w = GNN_OPTIMIZER (gnn_adamw_new (params, cases[i].lr, cases[i].b1, cases[i].b2,
                                                  cases[i].eps, cases[i].wd, FALSE, &e2));
      expect_invalid (a, e1, cases[i].msg);
      expect_invalid (w, e2, cases[i].msg);
    }
}

static void
test_empty_params (void)
{
  g_autoptr (GPtrArray) params = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (params, 0.1, 0.9, 0.999, 1e-8, 0, FALSE, &error));

  expect_invalid (opt, error, "optimizer got an empty parameter list");
}

static void
test_duplicate_params (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnOptimizer) opt = NULL;

  g_ptr_array_add (params, p);
  opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, &error));
  g_assert_null (opt);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "parameter 1 is parameter 0"));
}

static void
test_int_params_rejected (void)
{
  g_autoptr (GnnTensor) ok = make_param (GNN_DTYPE_F32);
  g_autoptr (GnnTensor) bad = gnn_tensor_zeros (SHAPE22, 2, GNN_DTYPE_I64, NULL);
  g_autoptr (GPtrArray) params = param_list (ok);
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnOptimizer) opt = NULL;

  g_ptr_array_add (params, bad);
  opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, &error));
  g_assert_null (opt);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "parameter 1 has dtype int64"));
}

static void
test_property_construction_validated_at_step (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = g_object_new (GNN_TYPE_SGD, "lr", -1.0, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (gnn_optimizer_add_params (opt, params, NULL));
  set_grad (p, 0);
  g_assert_false (gnn_optimizer_step (opt, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Invalid learning rate: -1.0");
  assert_values (p, P0, 0);
}

/* --- step checks ---------------------------------------------------------------- */

static void
test_step_grad_shape_mismatch_is_atomic (void)
{
  g_autoptr (GnnTensor) a = make_param (GNN_DTYPE_F32);
  g_autoptr (GnnTensor) b = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (a);
  g_autoptr (GnnTensor) bad_grad = gnn_tensor_ones ((gint64[]) { 4 }, 1, GNN_DTYPE_F32, NULL);
  g_autoptr (GnnOptimizer) opt = NULL;
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (params, b);
  opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0.9, 0, 0, FALSE, NULL));
  set_grad (a, 0);
  gnn_tensor_set_grad (b, bad_grad);
  g_assert_false (gnn_optimizer_step (opt, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "SGD.step: parameter 1 has shape [2, 2] but its gradient has shape [4]");
  /* parameter 0 was not updated and got no state */
  assert_values (a, P0, 0);
  g_assert_cmpuint (gnn_state_dict_get_length (gnn_optimizer_get_state (opt, 0)), ==, 0);
  g_assert_cmpuint (gnn_optimizer_get_step_count (opt), ==, 0);
}

static void
test_step_grad_dtype_mismatch (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnTensor) g = gnn_tensor_ones (SHAPE22, 2, GNN_DTYPE_F64, NULL);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (params, 0.1, 0.9, 0.999, 1e-8, 0, FALSE, NULL));
  g_autoptr (GError) error = NULL;

  gnn_tensor_set_grad (p, g);
  g_assert_false (gnn_optimizer_step (opt, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==,
                   "Adam.step: parameter 0 has dtype float32 but its gradient has dtype float64");
}

static void
test_step_skips_params_without_grad (void)
{
  g_autoptr (GnnTensor) a = make_param (GNN_DTYPE_F32);
  g_autoptr (GnnTensor) b = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (a);
  g_autoptr (GnnOptimizer) opt = NULL;

  g_ptr_array_add (params, b);
  opt = GNN_OPTIMIZER (gnn_adam_new (params, 0.01, 0.9, 0.999, 1e-8, 0, FALSE, NULL));
  run_steps (opt, a, 0, 5);
  assert_values (a, ADAM_F32, TOL_F32);
  assert_values (b, P0, 0);
  g_assert_cmpuint (gnn_state_dict_get_length (gnn_optimizer_get_state (opt, 1)), ==, 0);
}

static void
test_step_non_contiguous_grad (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL));
  /* the transpose of [[1, 2], [3, 4]] is [[1, 3], [2, 4]] */
  g_autoptr (GnnTensor) g = gnn_tensor_new_from_doubles ((double[]) { 1, 2, 3, 4 }, 4, SHAPE22, 2, NULL);
  g_autoptr (GnnTensor) gt = gnn_tensor_transpose (g, 0, 1, NULL);
  const double expected[] = { 0.5 - 0.1, -1.0 - 0.3, 2.0 - 0.2, 0.25 - 0.4 };

  g_assert_false (gnn_tensor_is_contiguous (gt));
  gnn_tensor_set_grad (p, gt);
  g_assert_true (gnn_optimizer_step (opt, NULL));
  assert_values (p, expected, 1e-15);
}

/* --- zero_grad ------------------------------------------------------------------ */

static void
test_zero_grad_fills_zeros (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL));
  const double zeros[4] = { 0 };
  GnnTensor *grad;

  set_grad (p, 0);
  grad = gnn_tensor_get_grad (p);
  gnn_optimizer_zero_grad (opt, FALSE);
  /* same tensor, zeroed in place (torch 1.13 default) */
  g_assert_true (gnn_tensor_get_grad (p) == grad);
  assert_values (grad, zeros, 0);
}

static void
test_zero_grad_set_to_none (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GPtrArray) params = param_list (p);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0.9, 0, 0, FALSE, NULL));

  set_grad (p, 0);
  gnn_optimizer_zero_grad (opt, TRUE);
  g_assert_null (gnn_tensor_get_grad (p));
  /* nothing to do: the step leaves the parameter alone */
  g_assert_true (gnn_optimizer_step (opt, NULL));
  assert_values (p, P0, 0);
}

/* Constructors return their own type (like the layers), and Adam/AdamW
 * share one implementation whose switch is the type: same hyper-parameters
 * except weight decay give the same step. */
static void
test_constructors_own_type (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GnnTensor) q = make_param (GNN_DTYPE_F64);
  g_autoptr (GPtrArray) pp = g_ptr_array_new ();
  g_autoptr (GPtrArray) qq = g_ptr_array_new ();
  g_autoptr (GnnSGD) sgd = NULL;
  g_autoptr (GnnAdam) adam = NULL;
  g_autoptr (GnnAdamW) adamw = NULL;
  g_autoptr (GnnStepLR) step = NULL;
  g_autoptr (GnnCosineAnnealingLR) cosine = NULL;

  g_ptr_array_add (pp, p);
  g_ptr_array_add (qq, q);
  sgd = gnn_sgd_new (pp, 0.1, 0, 0, 0, FALSE, NULL);
  adam = gnn_adam_new (pp, 0.01, 0.9, 0.999, 1e-8, 0, FALSE, NULL);
  adamw = gnn_adamw_new (qq, 0.01, 0.9, 0.999, 1e-8, 0, FALSE, NULL);
  step = gnn_step_lr_new (GNN_OPTIMIZER (sgd), 2, 0.5, NULL);
  cosine = gnn_cosine_annealing_lr_new (GNN_OPTIMIZER (adam), 4, 0, NULL);
  g_assert_true (GNN_IS_SGD (sgd) && GNN_IS_ADAM (adam) && GNN_IS_ADAMW (adamw));
  g_assert_true (GNN_IS_STEP_LR (step) && GNN_IS_COSINE_ANNEALING_LR (cosine));
  g_assert_false (GNN_IS_ADAM (adamw));

  /* without weight decay the two updates coincide */
  run_steps (GNN_OPTIMIZER (adam), p, 0, 3);
  run_steps (GNN_OPTIMIZER (adamw), q, 0, 3);
  {
    g_autoptr (GnnTensor) pc = gnn_tensor_contiguous (p);
    g_autoptr (GnnTensor) qc = gnn_tensor_contiguous (q);

    g_assert_cmpmem (gnn_tensor_get_data (pc), gnn_tensor_get_nbytes (pc),
                     gnn_tensor_get_data (qc), gnn_tensor_get_nbytes (qc));
  }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/optim/constructors/own-type", test_constructors_own_type);
  g_test_add_func ("/optim/sgd/trajectory-plain", test_sgd_plain);
  g_test_add_func ("/optim/sgd/split-same-bits", test_sgd_split_same_bits);
  g_test_add_func ("/optim/sgd/trajectory-momentum-weight-decay", test_sgd_momentum_weight_decay);
  g_test_add_func ("/optim/sgd/trajectory-nesterov", test_sgd_nesterov);
  g_test_add_func ("/optim/sgd/trajectory-maximize", test_sgd_maximize);
  g_test_add_func ("/optim/adam/trajectory", test_adam);
  g_test_add_func ("/optim/adam/trajectory-amsgrad-weight-decay", test_adam_amsgrad_weight_decay);
  g_test_add_func ("/optim/adamw/trajectory-defaults", test_adamw_defaults);
  g_test_add_func ("/optim/adamw/trajectory-amsgrad", test_adamw_amsgrad);
  g_test_add_func ("/optim/optimizer/lr-property", test_lr_property_changes_step);
  g_test_add_func ("/optim/sgd/invalid-lr", test_sgd_invalid_lr);
  g_test_add_func ("/optim/sgd/invalid-momentum-weight-decay", test_sgd_invalid_momentum_and_weight_decay);
  g_test_add_func ("/optim/sgd/nesterov-requires-momentum", test_sgd_nesterov_requires_momentum);
  g_test_add_func ("/optim/adam/invalid-hyper-parameters", test_adam_invalid_hyper);
  g_test_add_func ("/optim/optimizer/empty-params", test_empty_params);
  g_test_add_func ("/optim/optimizer/duplicate-params", test_duplicate_params);
  g_test_add_func ("/optim/optimizer/int-params-rejected", test_int_params_rejected);
  g_test_add_func ("/optim/optimizer/property-construction-validated", test_property_construction_validated_at_step);
  g_test_add_func ("/optim/step/grad-shape-mismatch-atomic", test_step_grad_shape_mismatch_is_atomic);
  g_test_add_func ("/optim/step/grad-dtype-mismatch", test_step_grad_dtype_mismatch);
  g_test_add_func ("/optim/step/skips-params-without-grad", test_step_skips_params_without_grad);
  g_test_add_func ("/optim/step/non-contiguous-grad", test_step_non_contiguous_grad);
  g_test_add_func ("/optim/zero-grad/fills-zeros", test_zero_grad_fills_zeros);
  g_test_add_func ("/optim/zero-grad/set-to-none", test_zero_grad_set_to_none);

  return g_test_run ();
}
