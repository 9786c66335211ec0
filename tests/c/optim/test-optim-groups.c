/* The C API of parameter groups and callbacks: groups with their own
 * options, options by name, the checks, state dicts of several groups, a
 * closure (LBFGS) and an lr_lambda written in C. */
#include "optim-test-util.h"

static GnnTensor *
vector_param (double value,
              gint64 n)
{
  g_autoptr (GnnTensor) t = gnn_tensor_full (&n, 1, value, GNN_DTYPE_F64, NULL);

  return GNN_TENSOR (gnn_parameter_new (t, TRUE));
}

static GVariant *
lr_option (double lr)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "lr", g_variant_new_double (lr));
  return g_variant_builder_end (&b);
}

/* SGD over a (group 0, the defaults) and b (group 1, lr 0.5, weight_decay 0.1,
 * a key of the user's own). */
static GnnOptimizer *
two_groups (GnnTensor *a,
            GnnTensor *b)
{
  g_autoptr (GPtrArray) first = param_list (a);
  g_autoptr (GPtrArray) second = param_list (b);
  g_autoptr (GError) error = NULL;
  GnnOptimizer *opt = g_initable_new (GNN_TYPE_SGD, NULL, &error, "lr", 0.1, "momentum", 0.9, NULL);
  GVariantBuilder options;

  g_assert_no_error (error);
  g_assert_true (gnn_optimizer_add_param_group (opt, first, NULL, &error));
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "lr", g_variant_new_double (0.5));
  g_variant_builder_add (&options, "{sv}", "weight-decay", g_variant_new_int32 (1));
  g_variant_builder_add (&options, "{sv}", "name", g_variant_new_string ("head"));
  g_assert_true (gnn_optimizer_add_param_group (opt, second, g_variant_builder_end (&options),
                                                &error));
  g_assert_no_error (error);
  return opt;
}

/* The first element of @t. */
static double
first_value (GnnTensor *t)
{
  g_autofree double *v = gnn_tensor_to_doubles (t, NULL);

  return v[0];
}

static double
option_double (GnnOptimizer *opt,
               guint         group,
               const char   *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) v = gnn_optimizer_get_group_option (opt, group, name, &error);

  g_assert_no_error (error);
  return g_variant_get_double (v);
}

static void
test_options_by_name (void)
{
  g_autoptr (GnnTensor) a = vector_param (1, 3);
  g_autoptr (GnnTensor) b = vector_param (2, 2);
  g_autoptr (GnnOptimizer) opt = two_groups (a, b);
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) name = NULL;
  g_autoptr (GPtrArray) params = NULL;
  g_auto (GStrv) names = NULL;
  const char *expected[] = { "lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize",
                             "name", NULL };

  g_assert_cmpuint (gnn_optimizer_get_n_param_groups (opt), ==, 2);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.1);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 1), ==, 0.5);
  g_assert_cmpfloat (option_double (opt, 1, "weight_decay"), ==, 1.0);   /* an int is a number */
  g_assert_cmpfloat (option_double (opt, 1, "momentum"), ==, 0.9);       /* the default */
  names = gnn_optimizer_list_group_options (opt, 1);
  g_assert_cmpstrv (names, expected);
  name = gnn_optimizer_get_group_option (opt, 1, "name", NULL);
  g_assert_cmpstr (g_variant_get_string (name, NULL), ==, "head");
  params = gnn_optimizer_get_group_params (opt, 1);
  g_assert_cmpuint (params->len, ==, 1);
  g_assert_true (params->pdata[0] == b);
  g_assert_true (gnn_optimizer_get_param (opt, 1) == b);

  /* writes */
  g_assert_true (gnn_optimizer_set_group_option (opt, 0, "momentum", g_variant_new_double (0.5),
                                                 &error));
  g_assert_cmpfloat (option_double (opt, 0, "momentum"), ==, 0.5);
  g_assert_cmpfloat (option_double (opt, 1, "momentum"), ==, 0.9);
  gnn_optimizer_set_group_lr (opt, 1, 0.25);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 1), ==, 0.25);

  /* what does not fit changes nothing */
  g_assert_false (gnn_optimizer_set_group_option (opt, 0, "nesterov", g_variant_new_double (1),
                                                  &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_clear_error (&error);
  g_assert_null (gnn_optimizer_get_group_option (opt, 0, "betas", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpstr (error->message, ==, "parameter group 0 has no option 'betas'");
  g_clear_error (&error);
  g_assert_null (gnn_optimizer_get_group_option (opt, 2, "lr", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

static void
test_property_sets_every_group (void)
{
  g_autoptr (GnnTensor) a = vector_param (1, 3);
  g_autoptr (GnnTensor) b = vector_param (2, 2);
  g_autoptr (GnnOptimizer) opt = two_groups (a, b);
  g_autoptr (GnnTensor) c = vector_param (3, 1);
  g_autoptr (GPtrArray) third = param_list (c);

  g_object_set (opt, "lr", 0.01, "nesterov", TRUE, "dampening", 0.0, NULL);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.01);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 1), ==, 0.01);
  g_assert_cmpfloat (gnn_optimizer_get_lr (opt), ==, 0.01);
  /* new groups start from the properties */
  g_assert_true (gnn_optimizer_add_param_group (opt, third, lr_option (0.3), NULL));
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 2), ==, 0.3);
  g_assert_cmpfloat (option_double (opt, 2, "momentum"), ==, 0.9);
}

static void
test_each_group_steps_with_its_options (void)
{
  g_autoptr (GnnTensor) a = vector_param (1, 3);
  g_autoptr (GnnTensor) b = vector_param (2, 2);
  g_autoptr (GnnOptimizer) opt = two_groups (a, b);
  g_autoptr (GnnTensor) ga = gnn_tensor_full ((gint64[]) { 3 }, 1, 1.0, GNN_DTYPE_F64, NULL);
  g_autoptr (GnnTensor) gb = gnn_tensor_full ((gint64[]) { 2 }, 1, 1.0, GNN_DTYPE_F64, NULL);
  g_autoptr (GError) error = NULL;

  gnn_tensor_set_grad (a, ga);
  gnn_tensor_set_grad (b, gb);
  g_assert_true (gnn_optimizer_step (opt, &error));
  /* a: 1 - 0.1 * 1; b: 2 - 0.5 * (1 + 1 * 2) (weight decay 1) */
  g_assert_cmpfloat (first_value (a), ==, 0.9);
  g_assert_cmpfloat (first_value (b), ==, 0.5);
}

static void
test_a_parameter_in_two_groups (void)
{
  g_autoptr (GnnTensor) a = vector_param (1, 3);
  g_autoptr (GnnTensor) b = vector_param (2, 2);
  g_autoptr (GnnOptimizer) opt = two_groups (a, b);
  g_autoptr (GPtrArray) again = param_list (a);
  g_autoptr (GError) error = NULL;

  g_assert_false (gnn_optimizer_add_param_group (opt, again, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "some parameters appear in more than one parameter group");
  g_assert_cmpuint (gnn_optimizer_get_n_param_groups (opt), ==, 2);
  g_assert_cmpuint (gnn_optimizer_get_n_params (opt), ==, 2);
}

static void
test_invalid_hyper_parameters (void)
{
  struct { GType type; const char *name; double value; const char *message; } cases[] = {
    { GNN_TYPE_ADADELTA, "rho", 1.5, "Invalid rho value: 1.5" },
    { GNN_TYPE_ADAGRAD, "lr-decay", -1, "Invalid lr_decay value: -1.0" },
    { GNN_TYPE_ADAMAX, "beta2", 1, "Invalid beta parameter at index 1: 1.0" },
    { GNN_TYPE_NADAM, "momentum-decay", -0.5, "Invalid momentum_decay value: -0.5" },
    { GNN_TYPE_RMSPROP, "alpha", -0.01, "Invalid alpha value: -0.01" },
    { GNN_TYPE_RPROP, "etaminus", 1.5, "Invalid eta values: 1.5, 1.2" },
    { GNN_TYPE_ASGD, "lr", -0.1, "Invalid learning rate: -0.1" },
    { GNN_TYPE_RADAM, "eps", -1e-8, "Invalid epsilon value: -1e-08" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      GObject *opt = g_initable_new (cases[i].type, NULL, &error, cases[i].name, cases[i].value,
                                     NULL);

      g_assert_null (opt);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

static void
test_state_dict_of_groups (void)
{
  g_autoptr (GnnTensor) a = vector_param (1, 3);
  g_autoptr (GnnTensor) b = vector_param (2, 2);
  g_autoptr (GnnOptimizer) opt = two_groups (a, b);
  g_autoptr (GnnTensor) a2 = vector_param (1, 3);
  g_autoptr (GnnTensor) b2 = vector_param (2, 2);
  g_autoptr (GnnOptimizer) other = two_groups (a2, b2);
  g_autoptr (GnnTensor) grad = gnn_tensor_full ((gint64[]) { 2 }, 1, 1.0, GNN_DTYPE_F64, NULL);
  g_autoptr (GnnStateDict) sd = NULL;
  g_autoptr (GVariant) name = NULL;
  g_autoptr (GError) error = NULL;

  gnn_tensor_set_grad (b, grad);
  g_assert_true (gnn_optimizer_step (opt, NULL));
  gnn_optimizer_set_group_lr (opt, 1, 0.125);
  sd = gnn_optimizer_state_dict (opt);
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.1.lr"), ==, "0.125");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.1.params"), ==, "1");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.1.name"), ==, "'head'");
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.nesterov"), ==, "false");
  g_assert_nonnull (gnn_state_dict_lookup (sd, "state.1.momentum_buffer"));
  g_assert_null (gnn_state_dict_lookup (sd, "state.0.momentum_buffer"));

  gnn_optimizer_set_group_lr (other, 1, 7);
  g_assert_true (gnn_optimizer_load_state_dict (other, sd, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (other, 1), ==, 0.125);
  name = gnn_optimizer_get_group_option (other, 1, "name", NULL);
  g_assert_cmpstr (g_variant_get_string (name, NULL), ==, "head");
  g_assert_nonnull (gnn_state_dict_lookup (gnn_optimizer_get_state (other, 1), "momentum_buffer"));
}

/* --- a closure in C: LBFGS minimizing sum((x - 3)^2) ------------------------- */

typedef struct
{
  GnnTensor *x;
  guint      calls;
  guint      fail_at;   /* 0: never */
} Quadratic;

static GnnTensor *
quadratic_closure (gpointer   user_data,
                   GError   **error)
{
  Quadratic *q = user_data;
  gsize n = 0;
  g_autofree double *x = gnn_tensor_to_doubles (q->x, &n);
  g_autofree double *g = g_new (double, n);
  const gint64 shape = (gint64) n;
  double loss = 0;
  g_autoptr (GnnTensor) grad = NULL;

  if (++q->calls == q->fail_at)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the data went away");
      return NULL;
    }
  for (gsize i = 0; i < n; i++)
    {
      loss += (x[i] - 3) * (x[i] - 3);
      g[i] = 2 * (x[i] - 3);
    }
  grad = gnn_tensor_new_from_doubles (g, n, &shape, 1, NULL);
  gnn_tensor_set_grad (q->x, grad);
  return gnn_tensor_new_from_doubles (&loss, 1, NULL, 0, NULL);
}

static void
test_lbfgs_closure_in_c (void)
{
  g_autoptr (GnnTensor) x = vector_param (0, 4);
  g_autoptr (GPtrArray) params = param_list (x);
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnOptimizer) opt = g_initable_new (GNN_TYPE_LBFGS, NULL, &error,
                                                 "line-search-fn", "strong_wolfe", NULL);
  g_autoptr (GnnTensor) loss = NULL;
  g_autofree double *values = NULL;
  Quadratic q = { x, 0, 0 };

  g_assert_no_error (error);
  g_assert_true (gnn_optimizer_add_param_group (opt, params, NULL, NULL));
  g_assert_false (gnn_optimizer_step (opt, &error));   /* LBFGS needs a closure */
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (gnn_optimizer_step_with_closure (opt, quadratic_closure, &q, &loss, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_tensor_item (loss, NULL), ==, 36);   /* the first evaluation */
  g_assert_cmpuint (q.calls, >, 1);
  values = gnn_tensor_to_doubles (x, NULL);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (fabs (values[i] - 3), <, 1e-6);
}

static void
test_failing_closure_changes_nothing (void)
{
  g_autoptr (GnnTensor) x = vector_param (0, 4);
  g_autoptr (GPtrArray) params = param_list (x);
  g_autoptr (GnnOptimizer) opt = g_initable_new (GNN_TYPE_LBFGS, NULL, NULL, "lr", 0.1, NULL);
  g_autoptr (GnnStateDict) before = NULL;
  g_autoptr (GnnStateDict) after = NULL;
  g_autoptr (GError) error = NULL;
  Quadratic q = { x, 0, 0 };

  g_assert_true (gnn_optimizer_add_param_group (opt, params, NULL, NULL));
  g_assert_true (gnn_optimizer_step_with_closure (opt, quadratic_closure, &q, NULL, NULL));
  before = gnn_optimizer_state_dict (opt);
  {
    g_autofree double *x_before = gnn_tensor_to_doubles (x, NULL);
    g_autofree double *x_after = NULL;

    q.calls = 0;
    q.fail_at = 3;      /* after the parameters moved */
    g_assert_false (gnn_optimizer_step_with_closure (opt, quadratic_closure, &q, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
    x_after = gnn_tensor_to_doubles (x, NULL);
    g_assert_cmpmem (x_before, 4 * sizeof (double), x_after, 4 * sizeof (double));
  }
  after = gnn_optimizer_state_dict (opt);
  g_assert_cmpuint (gnn_state_dict_get_length (after), ==, gnn_state_dict_get_length (before));
  g_assert_true (gnn_tensor_equal (gnn_state_dict_lookup (after, "state.0.d"),
                                   gnn_state_dict_lookup (before, "state.0.d")));
  g_assert_cmpuint (gnn_optimizer_get_step_count (opt), ==, 1);
}

static void
test_other_optimizers_call_the_closure_once (void)
{
  g_autoptr (GnnTensor) x = vector_param (0, 4);
  g_autoptr (GPtrArray) params = param_list (x);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_rmsprop_new (params, 0.01, NULL));
  Quadratic q = { x, 0, 0 };

  g_assert_true (gnn_optimizer_step_with_closure (opt, quadratic_closure, &q, NULL, NULL));
  g_assert_cmpuint (q.calls, ==, 1);
  g_assert_cmpfloat (first_value (x), >, 0);
}

/* --- an lr_lambda in C ------------------------------------------------------- */

static void
halve_or_fail (gint64    epoch,
               guint     group,
               double   *factor,
               gpointer  user_data,
               GError  **error)
{
  (void) user_data;
  if (epoch == 3)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "epoch 3 is cursed");
      return;
    }
  *factor = group == 0 ? pow (0.5, (double) epoch) : 1.0;
}

static void
count_destroy (gpointer data)
{
  (*(guint *) data)++;
}

static void
test_lambda_lr_callback (void)
{
  g_autoptr (GnnTensor) a = vector_param (1, 3);
  g_autoptr (GnnTensor) b = vector_param (2, 2);
  g_autoptr (GnnOptimizer) opt = two_groups (a, b);
  g_autoptr (GError) error = NULL;
  GnnLambdaLR *sched;
  guint destroyed = 0;

  sched = gnn_lambda_lr_new (opt, halve_or_fail, &destroyed, count_destroy, -1, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (sched), NULL));
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (sched), NULL));
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.025);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 1), ==, 0.5);
  g_assert_false (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (sched), &error));
  g_assert_cmpstr (error->message, ==, "epoch 3 is cursed");
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (sched)), ==, 2);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.025);
  g_object_unref (sched);
  g_assert_cmpuint (destroyed, ==, 1);
  /* without a function (g_object_new) steps say so */
  sched = g_object_new (GNN_TYPE_LAMBDA_LR, "optimizer", opt, NULL);
  g_clear_error (&error);
  g_assert_false (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (sched), &error));
  g_assert_cmpstr (error->message, ==, "LambdaLR needs an lr_lambda (given to gnn_lambda_lr_new)");
  g_object_unref (sched);
}

static void
test_scheduler_per_group (void)
{
  g_autoptr (GnnTensor) a = vector_param (1, 3);
  g_autoptr (GnnTensor) b = vector_param (2, 2);
  g_autoptr (GnnOptimizer) opt = two_groups (a, b);
  g_autoptr (GnnLRScheduler) s = GNN_LR_SCHEDULER (gnn_step_lr_new (opt, 1, 0.5, NULL));
  g_autofree double *base = NULL;
  g_autofree double *last = NULL;
  guint n = 0;

  g_assert_true (gnn_lr_scheduler_step (s, NULL));
  last = gnn_lr_scheduler_get_last_lrs (s, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (last[0], ==, 0.05);
  g_assert_cmpfloat (last[1], ==, 0.25);
  base = gnn_lr_scheduler_get_base_lrs (s, &n);
  g_assert_cmpfloat (base[1], ==, 0.5);
  g_assert_cmpfloat (option_double (opt, 1, "initial_lr"), ==, 0.5);
}

static void
test_plateau (void)
{
  g_autoptr (GnnTensor) a = vector_param (1, 3);
  g_autoptr (GnnTensor) b = vector_param (2, 2);
  g_autoptr (GnnOptimizer) opt = two_groups (a, b);
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnReduceLROnPlateau) s = g_initable_new (GNN_TYPE_REDUCE_LR_ON_PLATEAU, NULL, &error,
                                                       "optimizer", opt, "patience", (gint64) 1,
                                                       "factor", 0.5, NULL);
  const double metrics[] = { 1.0, 1.0, 1.0 };

  g_assert_no_error (error);
  g_assert_false (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));   /* needs the metric */
  g_clear_error (&error);
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    g_assert_true (gnn_reduce_lr_on_plateau_step_with_metric (s, metrics[i], NULL));
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.05);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 1), ==, 0.25);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/optim/groups/options-by-name", test_options_by_name);
  g_test_add_func ("/optim/groups/property-sets-every-group", test_property_sets_every_group);
  g_test_add_func ("/optim/groups/each-group-its-options", test_each_group_steps_with_its_options);
  g_test_add_func ("/optim/groups/parameter-in-two-groups", test_a_parameter_in_two_groups);
  g_test_add_func ("/optim/groups/state-dict", test_state_dict_of_groups);
  g_test_add_func ("/optim/optimizer/invalid-hyper-parameters", test_invalid_hyper_parameters);
  g_test_add_func ("/optim/closure/lbfgs-in-c", test_lbfgs_closure_in_c);
  g_test_add_func ("/optim/closure/failure-changes-nothing", test_failing_closure_changes_nothing);
  g_test_add_func ("/optim/closure/called-once", test_other_optimizers_call_the_closure_once);
  g_test_add_func ("/optim/scheduler/lambda-callback", test_lambda_lr_callback);
  g_test_add_func ("/optim/scheduler/per-group", test_scheduler_per_group);
  g_test_add_func ("/optim/scheduler/plateau", test_plateau);

  return g_test_run ();
}
