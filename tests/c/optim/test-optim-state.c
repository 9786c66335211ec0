/* Optimizer state dicts: contents, round trip, resume equivalence, atomic loads. */
#include "optim-test-util.h"

static char *
keys_of (GnnStateDict *sd)
{
  g_auto (GStrv) keys = gnn_state_dict_get_keys (sd);
  return g_strjoinv ("|", keys);
}

static GnnOptimizer *
make_adam (GnnTensor *p)
{
  g_autoptr (GPtrArray) params = param_list (p);
  return GNN_OPTIMIZER (gnn_adam_new (params, 0.02, 0.8, 0.99, 1e-6, 0.05, TRUE, NULL));
}

static GnnOptimizer *
make_sgd (GnnTensor *p)
{
  g_autoptr (GPtrArray) params = param_list (p);
  return GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0.9, 0.1, 0.01, FALSE, NULL));
}

static void
test_adam_state_dict_contents (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GnnOptimizer) opt = make_adam (p);
  g_autoptr (GnnStateDict) sd = NULL;
  g_autofree char *keys = NULL;

  run_steps (opt, p, 0, 2);
  sd = gnn_optimizer_state_dict (opt);
  keys = keys_of (sd);
  g_assert_cmpstr (keys, ==, "state.0.step|state.0.exp_avg|state.0.exp_avg_sq|state.0.max_exp_avg_sq");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.lr"), ==, "0.02");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.beta1"), ==, "0.8");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.eps"), ==, "1e-06");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.weight_decay"), ==, "0.05");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.amsgrad"), ==, "true");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.maximize"), ==, "false");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.params"), ==, "0");
  g_assert_cmpfloat (gnn_tensor_item (gnn_state_dict_lookup (sd, "state.0.step"), NULL), ==, 2.0);
  /* a copy: further steps do not change it */
  g_assert_false (gnn_tensor_shares_storage (gnn_state_dict_lookup (sd, "state.0.exp_avg"),
                                             gnn_state_dict_lookup (gnn_optimizer_get_state (opt, 0),
                                                                    "exp_avg")));
}

static void
test_sgd_state_dict_contents (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F32);
  g_autoptr (GnnOptimizer) opt = make_sgd (p);
  g_autoptr (GnnStateDict) before = gnn_optimizer_state_dict (opt);
  g_autoptr (GnnStateDict) after = NULL;
  g_autofree char *keys = NULL;

  g_assert_cmpuint (gnn_state_dict_get_length (before), ==, 0);
  g_assert_cmpstr (gnn_state_dict_get_metadata (before, "param_groups.0.nesterov"), ==, "false");
  g_assert_cmpstr (gnn_state_dict_get_metadata (before, "param_groups.0.dampening"), ==, "0.1");
  run_steps (opt, p, 0, 1);
  after = gnn_optimizer_state_dict (opt);
  keys = keys_of (after);
  g_assert_cmpstr (keys, ==, "state.0.momentum_buffer");
}

typedef GnnOptimizer *(*MakeFunc) (GnnTensor *p);

static void
check_resume (MakeFunc make, GnnDType dtype)
{
  g_autoptr (GnnTensor) straight = make_param (dtype);
  g_autoptr (GnnTensor) resumed = make_param (dtype);
  g_autoptr (GnnOptimizer) a = make (straight);
  g_autoptr (GnnOptimizer) b = make (resumed);
  g_autoptr (GnnOptimizer) c = NULL;
  g_autoptr (GnnStateDict) sd = NULL;
  g_autoptr (GError) error = NULL;
  gsize n1 = 0, n2 = 0;
  g_autofree double *v1 = NULL, *v2 = NULL;

  run_steps (a, straight, 0, 10);

  run_steps (b, resumed, 0, 5);
  sd = gnn_optimizer_state_dict (b);
  g_clear_object (&b);
  /* a fresh optimizer with other hyper-parameters: the state dict restores them */
  {
    g_autoptr (GPtrArray) params = param_list (resumed);
    c = G_OBJECT_TYPE (a) == GNN_TYPE_SGD
          ? GNN_OPTIMIZER (gnn_sgd_new (params, 1.0, 0.5, 0, 0, FALSE, NULL))
          : GNN_OPTIMIZER (gnn_adam_new (params, 1.0, 0.9, 0.999, 1e-8, 0, FALSE, NULL));
  }
  g_assert_true (gnn_optimizer_load_state_dict (c, sd, &error));
  g_assert_no_error (error);
  run_steps (c, resumed, 5, 5);

  v1 = gnn_tensor_to_doubles (straight, &n1);
  v2 = gnn_tensor_to_doubles (resumed, &n2);
  g_assert_cmpuint (n1, ==, n2);
  for (gsize i = 0; i < n1; i++)
    g_assert_cmpfloat (v1[i], ==, v2[i]);
}

static void
test_resume_adam (void)
{
  check_resume (make_adam, GNN_DTYPE_F64);
  check_resume (make_adam, GNN_DTYPE_F32);
}

static void
test_resume_sgd (void)
{
  check_resume (make_sgd, GNN_DTYPE_F32);
  check_resume (make_sgd, GNN_DTYPE_F64);
}

static void
test_load_converts_dtype (void)
{
  g_autoptr (GnnTensor) p64 = make_param (GNN_DTYPE_F64);
  g_autoptr (GnnTensor) p32 = make_param (GNN_DTYPE_F32);
  g_autoptr (GnnOptimizer) a = make_sgd (p64);
  g_autoptr (GnnOptimizer) b = make_sgd (p32);
  g_autoptr (GnnStateDict) sd = NULL;
  GnnTensor *buf;

  run_steps (a, p64, 0, 2);
  sd = gnn_optimizer_state_dict (a);
  g_assert_true (gnn_optimizer_load_state_dict (b, sd, NULL));
  buf = gnn_state_dict_lookup (gnn_optimizer_get_state (b, 0), "momentum_buffer");
  g_assert_cmpint (gnn_tensor_get_dtype (buf), ==, GNN_DTYPE_F32);
}

/* Loads @sd into a fresh Adam with state and checks that the failure
 * changed nothing. */
static void
expect_load_failure (GnnStateDict *sd,
                     GQuark        domain,
                     gint          code,
                     const char   *message)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GnnOptimizer) opt = make_adam (p);
  g_autoptr (GnnStateDict) before = NULL;
  g_autoptr (GnnStateDict) after = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) keys = NULL;

  run_steps (opt, p, 0, 1);
  before = gnn_optimizer_state_dict (opt);
  g_assert_false (gnn_optimizer_load_state_dict (opt, sd, &error));
  g_assert_error (error, domain, code);
  g_assert_cmpstr (error->message, ==, message);
  after = gnn_optimizer_state_dict (opt);
  keys = gnn_state_dict_get_keys (before);
  g_assert_cmpuint (gnn_state_dict_get_length (after), ==, gnn_state_dict_get_length (before));
  for (guint i = 0; keys[i] != NULL; i++)
    g_assert_true (gnn_tensor_equal (gnn_state_dict_lookup (before, keys[i]),
                                     gnn_state_dict_lookup (after, keys[i])));
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.02);
}

static GnnStateDict *
saved_adam_state (void)
{
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GnnOptimizer) opt = make_adam (p);

  run_steps (opt, p, 0, 3);
  gnn_optimizer_set_lr (opt, 0.5);
  return gnn_optimizer_state_dict (opt);
}

static void
test_load_shape_mismatch (void)
{
  g_autoptr (GnnStateDict) sd = saved_adam_state ();
  g_autoptr (GnnTensor) wrong = gnn_tensor_zeros ((gint64[]) { 3 }, 1, GNN_DTYPE_F64, NULL);

  gnn_state_dict_insert (sd, "state.0.exp_avg_sq", wrong);
  expect_load_failure (sd, GNN_ERROR, GNN_ERROR_SHAPE,
                       "loaded state dict: 'state.0.exp_avg_sq' has shape [3] but parameter 0 has shape [2, 2]");
}

static void
test_load_unexpected_state_key (void)
{
  g_autoptr (GnnStateDict) sd = saved_adam_state ();
  g_autoptr (GnnTensor) extra = gnn_tensor_zeros (SHAPE22, 2, GNN_DTYPE_F64, NULL);

  gnn_state_dict_insert (sd, "state.0.momentum_buffer", extra);
  expect_load_failure (sd, GNN_ERROR, GNN_ERROR_KEY,
                       "unexpected key in Adam state dict: 'state.0.momentum_buffer'");
}

static void
test_load_bad_parameter_index (void)
{
  g_autoptr (GnnStateDict) sd = saved_adam_state ();
  g_autoptr (GnnTensor) extra = gnn_tensor_zeros (SHAPE22, 2, GNN_DTYPE_F64, NULL);

  gnn_state_dict_insert (sd, "state.7.exp_avg", extra);
  expect_load_failure (sd, GNN_ERROR, GNN_ERROR_INDEX,
                       "loaded state dict has state for parameter 7 (key 'state.7.exp_avg') "
                       "but the optimizer has 1 parameters");
}

static void
test_load_group_size_mismatch (void)
{
  g_autoptr (GnnStateDict) sd = saved_adam_state ();

  gnn_state_dict_set_metadata (sd, "param_groups.0.params", "0,1");
  expect_load_failure (sd, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "loaded state dict contains a parameter group that doesn't match the size "
                       "of optimizer's group (2 parameters, optimizer has 1)");
}

/* Like PyTorch's __setstate__, options a file lacks keep the defaults. */
static void
test_load_missing_option_keeps_default (void)
{
  g_autoptr (GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GnnOptimizer) opt = make_adam (p);
  g_autoptr (GVariant) beta1 = NULL;

  run_steps (opt, p, 0, 1);
  gnn_state_dict_set_metadata (sd, "param_groups.0.params", "0");
  gnn_state_dict_set_metadata (sd, "param_groups.0.lr", "0.1");
  g_assert_true (gnn_optimizer_load_state_dict (opt, sd, NULL));
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.1);
  beta1 = gnn_optimizer_get_group_option (opt, 0, "beta1", NULL);
  g_assert_cmpfloat (g_variant_get_double (beta1), ==, 0.8);
  g_assert_cmpuint (gnn_state_dict_get_length (gnn_optimizer_get_state (opt, 0)), ==, 0);
}

static void
test_load_group_count_mismatch (void)
{
  g_autoptr (GnnStateDict) sd = saved_adam_state ();

  gnn_state_dict_set_metadata (sd, "param_groups.1.params", "");
  expect_load_failure (sd, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "loaded state dict has a different number of parameter groups "
                       "(2; the optimizer has 1)");
}

static void
test_load_bad_number (void)
{
  g_autoptr (GnnStateDict) sd = saved_adam_state ();

  gnn_state_dict_set_metadata (sd, "param_groups.0.eps", "tiny");
  expect_load_failure (sd, GNN_ERROR, GNN_ERROR_FORMAT,
                       "invalid number for param_groups.0.eps in state dict: 'tiny'");
}

static void
test_load_restores_lr (void)
{
  g_autoptr (GnnStateDict) sd = saved_adam_state ();
  g_autoptr (GnnTensor) p = make_param (GNN_DTYPE_F64);
  g_autoptr (GnnOptimizer) opt = make_adam (p);

  g_assert_true (gnn_optimizer_load_state_dict (opt, sd, NULL));
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.5);
  g_assert_cmpfloat (gnn_tensor_item (gnn_state_dict_lookup (gnn_optimizer_get_state (opt, 0), "step"),
                                      NULL), ==, 3.0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/optim/state-dict/adam-contents", test_adam_state_dict_contents);
  g_test_add_func ("/optim/state-dict/sgd-contents", test_sgd_state_dict_contents);
  g_test_add_func ("/optim/state-dict/resume-adam", test_resume_adam);
  g_test_add_func ("/optim/state-dict/resume-sgd", test_resume_sgd);
  g_test_add_func ("/optim/state-dict/load-converts-dtype", test_load_converts_dtype);
  g_test_add_func ("/optim/state-dict/load-restores-lr", test_load_restores_lr);
  g_test_add_func ("/optim/state-dict/load-shape-mismatch", test_load_shape_mismatch);
  g_test_add_func ("/optim/state-dict/load-unexpected-key", test_load_unexpected_state_key);
  g_test_add_func ("/optim/state-dict/load-bad-parameter-index", test_load_bad_parameter_index);
  g_test_add_func ("/optim/state-dict/load-group-size-mismatch", test_load_group_size_mismatch);
  g_test_add_func ("/optim/state-dict/load-missing-option-keeps-default", test_load_missing_option_keeps_default);
  g_test_add_func ("/optim/state-dict/load-group-count-mismatch", test_load_group_count_mismatch);
  g_test_add_func ("/optim/state-dict/load-bad-number", test_load_bad_number);

  return g_test_run ();
}
