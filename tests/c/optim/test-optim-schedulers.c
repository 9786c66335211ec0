/* LR schedulers: rate sequences against torch 1.13, checks, state dicts. */
#include "optim-test-util.h"

static GnnOptimizer *
make_opt (GnnTensor **p_out)
{
  g_autoptr (GPtrArray) params = NULL;

  *p_out = make_param (GNN_DTYPE_F32);
  params = param_list (*p_out);
  return GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL));
}

static void
check_sequence (GnnLRScheduler *s,
                GnnOptimizer   *opt,
                const double   *expected,
                guint           n,
                double          tol)
{
  g_assert_cmpfloat (fabs (gnn_lr_scheduler_get_last_lr (s) - expected[0]), <=, tol);
  for (guint i = 1; i < n; i++)
    {
      g_assert_true (gnn_lr_scheduler_step (s, NULL));
      g_assert_cmpfloat (fabs (gnn_lr_scheduler_get_last_lr (s) - expected[i]), <=, tol);
      g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, gnn_lr_scheduler_get_last_lr (s));
      g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (s), ==, (gint64) i);
    }
}

static void
test_step_lr_sequence (void)
{
  g_autoptr (GnnTensor) p = NULL;
  g_autoptr (GnnOptimizer) opt = make_opt (&p);
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnLRScheduler) s = GNN_LR_SCHEDULER (gnn_step_lr_new (opt, 3, 0.5, &error));

  g_assert_no_error (error);
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (s), ==, 0);
  check_sequence (s, opt, STEP_LR, G_N_ELEMENTS (STEP_LR), 0);
}

static void
test_cosine_sequence_three_periods (void)
{
  g_autoptr (GnnTensor) p = NULL;
  g_autoptr (GnnOptimizer) opt = make_opt (&p);
  g_autoptr (GnnLRScheduler) s = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (opt, 4, 0.001, NULL));

  g_assert_nonnull (s);
  check_sequence (s, opt, COSINE_LR, G_N_ELEMENTS (COSINE_LR), 1e-12);
}

static void
test_step_lr_invalid_step_size (void)
{
  g_autoptr (GnnTensor) p = NULL;
  g_autoptr (GnnOptimizer) opt = make_opt (&p);
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnLRScheduler) s = GNN_LR_SCHEDULER (gnn_step_lr_new (opt, 0, 0.5, &error));

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "StepLR: step_size must be a positive integer, got 0");
  /* the optimizer's rate is untouched */
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.1);
}

static void
test_cosine_invalid_t_max (void)
{
  g_autoptr (GnnTensor) p = NULL;
  g_autoptr (GnnOptimizer) opt = make_opt (&p);
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnLRScheduler) s = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (opt, -2, 0, &error));

  g_assert_null (s);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "CosineAnnealingLR: T_max must be a positive integer below 2**61, got -2");
}

static void
test_property_construction (void)
{
  g_autoptr (GnnTensor) p = NULL;
  g_autoptr (GnnOptimizer) opt = make_opt (&p);
  g_autoptr (GnnLRScheduler) s = g_object_new (GNN_TYPE_STEP_LR, "optimizer", opt,
                                               "step-size", (gint64) 3, "gamma", 0.5, NULL);

  /* constructed means initialized: the initial step has been taken */
  check_sequence (s, opt, STEP_LR, G_N_ELEMENTS (STEP_LR), 0);
}

static void
test_second_scheduler_shares_initial_lr (void)
{
  g_autoptr (GnnTensor) p = NULL;
  g_autoptr (GnnOptimizer) opt = make_opt (&p);
  g_autoptr (GnnLRScheduler) a = GNN_LR_SCHEDULER (gnn_step_lr_new (opt, 1, 0.5, NULL));
  g_autoptr (GnnLRScheduler) b = NULL;
  g_autoptr (GnnStateDict) sd = NULL;

  g_assert_true (gnn_lr_scheduler_step (a, NULL));
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt, 0), ==, 0.05);
  /* like group.setdefault('initial_lr', lr) */
  b = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (opt, 10, 0, NULL));
  g_assert_cmpfloat (gnn_lr_scheduler_get_base_lr (b), ==, 0.1);
  sd = gnn_optimizer_state_dict (opt);
  g_assert_cmpstr (gnn_state_dict_get_metadata (sd, "param_groups.0.initial_lr"), ==, "0.1");
}

static void
test_state_dict_round_trip (void)
{
  g_autoptr (GnnTensor) p1 = NULL;
  g_autoptr (GnnTensor) p2 = NULL;
  g_autoptr (GnnOptimizer) o1 = make_opt (&p1);
  g_autoptr (GnnOptimizer) o2 = make_opt (&p2);
  g_autoptr (GnnLRScheduler) s1 = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (o1, 4, 0.001, NULL));
  g_autoptr (GnnLRScheduler) s2 = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (o2, 7, 0.5, NULL));
  g_autoptr (GnnStateDict) osd = NULL;
  g_autoptr (GnnStateDict) ssd = NULL;
  gint64 t_max = 0;

  for (guint i = 0; i < 6; i++)
    g_assert_true (gnn_lr_scheduler_step (s1, NULL));
  ssd = gnn_lr_scheduler_state_dict (s1);
  osd = gnn_optimizer_state_dict (o1);
  g_assert_cmpstr (gnn_state_dict_get_metadata (ssd, "last_epoch"), ==, "6");
  g_assert_cmpstr (gnn_state_dict_get_metadata (ssd, "t_max"), ==, "4");
  g_assert_cmpstr (gnn_state_dict_get_metadata (ssd, "eta_min"), ==, "0.001");

  g_assert_true (gnn_optimizer_load_state_dict (o2, osd, NULL));
  g_assert_true (gnn_lr_scheduler_load_state_dict (s2, ssd, NULL));
  g_object_get (s2, "t-max", &t_max, NULL);
  g_assert_cmpint (t_max, ==, 4);
  g_assert_cmpfloat (gnn_optimizer_get_group_lr (o2, 0), ==, COSINE_LR[6]);
  for (guint i = 7; i < G_N_ELEMENTS (COSINE_LR); i++)
    {
      g_assert_true (gnn_lr_scheduler_step (s1, NULL));
      g_assert_true (gnn_lr_scheduler_step (s2, NULL));
      g_assert_cmpfloat (gnn_lr_scheduler_get_last_lr (s2), ==, gnn_lr_scheduler_get_last_lr (s1));
    }
}

static void
test_state_dict_missing_key (void)
{
  g_autoptr (GnnTensor) p = NULL;
  g_autoptr (GnnOptimizer) opt = make_opt (&p);
  g_autoptr (GnnLRScheduler) s = GNN_LR_SCHEDULER (gnn_step_lr_new (opt, 2, 0.5, NULL));
  g_autoptr (GnnStateDict) sd = gnn_lr_scheduler_state_dict (s);
  g_autoptr (GError) error = NULL;

  gnn_state_dict_set_metadata (sd, "last_epoch", "12");
  gnn_state_dict_set_metadata (sd, "warmup", "3");
  g_assert_false (gnn_lr_scheduler_load_state_dict (s, sd, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_KEY);
  g_assert_cmpstr (error->message, ==, "unexpected key in state dict: 'warmup'");
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (s), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/optim/step-lr/sequence", test_step_lr_sequence);
  g_test_add_func ("/optim/step-lr/invalid-step-size", test_step_lr_invalid_step_size);
  g_test_add_func ("/optim/step-lr/property-construction", test_property_construction);
  g_test_add_func ("/optim/cosine-annealing-lr/three-periods", test_cosine_sequence_three_periods);
  g_test_add_func ("/optim/cosine-annealing-lr/invalid-t-max", test_cosine_invalid_t_max);
  g_test_add_func ("/optim/lr-scheduler/shared-initial-lr", test_second_scheduler_shares_initial_lr);
  g_test_add_func ("/optim/lr-scheduler/state-dict-round-trip", test_state_dict_round_trip);
  g_test_add_func ("/optim/lr-scheduler/state-dict-unexpected-key", test_state_dict_missing_key);

  return g_test_run ();
}
