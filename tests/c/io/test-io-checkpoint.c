/* Training checkpoints: model + optimizer + scheduler + epoch in one file,
 * rebuilt from the file alone; training resumed from it goes on exactly as
 * the uninterrupted run (SGD with momentum + StepLR, Adam + cosine
 * annealing), and inconsistent or damaged checkpoints are refused. */
#include <string.h>

#include <glib/gstdio.h>
#include <gnn/gnn.h>

#include "gnn-test-util.h"

static char *tmp_dir;

static GnnModule *
make_model (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (5);
  g_autoptr(GnnLinear) a = gnn_linear_new (4, 6, TRUE, gen, NULL);
  g_autoptr(GnnTanh) act = gnn_tanh_new ();
  g_autoptr(GnnLinear) b = gnn_linear_new (6, 2, TRUE, gen, NULL);
  GnnModule *layers[] = { GNN_MODULE (a), GNN_MODULE (act), GNN_MODULE (b) };

  return GNN_MODULE (gnn_sequential_new (layers, 3));
}

static void
train_steps (GnnModule      *model,
             GnnOptimizer   *opt,
             GnnLRScheduler *sched,
             guint           first,
             guint           n)
{
  const gint64 xs[2] = { 3, 4 };

  for (guint i = first; i < first + n; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = gnn_test_arange (GNN_DTYPE_F32, -(double) i, xs, 2);
      g_autoptr(GnnTensor) xs_ = gnn_tensor_mul_scalar (x, 0.1, NULL);
      g_autoptr(GnnTensor) y = gnn_module_call (model, xs_, &error);
      g_autoptr(GnnTensor) sq = gnn_tensor_mul (y, y, NULL);
      g_autoptr(GnnTensor) loss = gnn_tensor_mean (sq, NULL, 0, FALSE, NULL);

      g_assert_no_error (error);
      gnn_optimizer_zero_grad (opt, TRUE);
      g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
      g_assert_true (gnn_optimizer_step (opt, &error));
      g_assert_true (gnn_lr_scheduler_step (sched, &error));
    }
}

static void
resume (gboolean adam)
{
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  g_autoptr(GnnOptimizer) opt = adam ?
    GNN_OPTIMIZER (gnn_adam_new (params, 0.01, 0.8, 0.95, 1e-7, 0.01, TRUE, NULL)) :
    GNN_OPTIMIZER (gnn_sgd_new (params, 0.1, 0.9, 0.0, 1e-3, TRUE, NULL));
  g_autoptr(GnnLRScheduler) sched = adam ?
    GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (opt, 7, 1e-4, NULL)) :
    GNN_LR_SCHEDULER (gnn_step_lr_new (opt, 2, 0.5, NULL));
  g_autoptr(GnnCheckpoint) saved = NULL;
  g_autoptr(GnnCheckpoint) loaded = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "train.safetensors", NULL);
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt2;
  GnnLRScheduler *sched2;

  train_steps (model, opt, sched, 0, 3);
  saved = gnn_checkpoint_new (model, opt, sched, 3);
  g_assert_true (gnn_checkpoint_save (saved, path, NULL, &error));
  g_assert_no_error (error);
  loaded = gnn_checkpoint_load (path, GNN_LOAD_FLAGS_COPY, &error);
  g_assert_no_error (error);

  g_assert_cmpint (gnn_checkpoint_get_epoch (loaded), ==, 3);
  opt2 = gnn_checkpoint_get_optimizer (loaded);
  sched2 = gnn_checkpoint_get_scheduler (loaded);
  g_assert_true (G_OBJECT_TYPE (opt2) == G_OBJECT_TYPE (opt));
  g_assert_true (G_OBJECT_TYPE (sched2) == G_OBJECT_TYPE (sched));
  g_assert_true (gnn_lr_scheduler_get_optimizer (sched2) == opt2);
  g_assert_cmpuint (gnn_optimizer_get_n_params (opt2), ==, params->len);
  g_assert_true (gnn_optimizer_get_param (opt2, 0) ==
                 GNN_TENSOR (gnn_module_get_parameter (gnn_checkpoint_get_model (loaded), "0.weight",
                                                       NULL)));
  g_assert_cmpfloat (gnn_optimizer_get_lr (opt2), ==, gnn_optimizer_get_lr (opt));
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (sched2), ==,
                   gnn_lr_scheduler_get_last_epoch (sched));
  gnn_test_assert_same_state (model, gnn_checkpoint_get_model (loaded));

  /* both go on the same way */
  train_steps (model, opt, sched, 3, 4);
  train_steps (gnn_checkpoint_get_model (loaded), opt2, sched2, 3, 4);
  gnn_test_assert_same_state (model, gnn_checkpoint_get_model (loaded));
  g_assert_cmpfloat (gnn_optimizer_get_lr (opt2), ==, gnn_optimizer_get_lr (opt));
}

static void
test_resume_sgd_step_lr (void)
{
  resume (FALSE);
}

static void
test_resume_adam_cosine (void)
{
  resume (TRUE);
}

/* Two parameter groups with their own options: rebuilt group by group. */
static void
test_param_groups (void)
{
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GPtrArray) first = gnn_module_named_parameters (gnn_module_get_submodule (model, "0", NULL),
                                                            NULL, TRUE, NULL);
  g_autoptr(GPtrArray) last = gnn_module_named_parameters (gnn_module_get_submodule (model, "2", NULL),
                                                           NULL, TRUE, NULL);
  g_autoptr(GObject) opt = g_object_new (GNN_TYPE_SGD, "lr", 0.1, "momentum", 0.9, NULL);
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  g_autoptr(GnnLRScheduler) sched = NULL;
  g_autoptr(GnnCheckpoint) loaded = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "groups.safetensors", NULL);
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt2;

  g_variant_dict_insert (options, "lr", "d", 0.01);
  g_variant_dict_insert (options, "momentum", "d", 0.5);
  g_assert_true (gnn_optimizer_add_param_group (GNN_OPTIMIZER (opt), first, NULL, &error));
  g_assert_true (gnn_optimizer_add_param_group (GNN_OPTIMIZER (opt), last,
                                                g_variant_dict_end (options), &error));
  g_assert_no_error (error);
  sched = GNN_LR_SCHEDULER (gnn_step_lr_new (GNN_OPTIMIZER (opt), 2, 0.5, NULL));
  train_steps (model, GNN_OPTIMIZER (opt), sched, 0, 3);
  {
    g_autoptr(GnnCheckpoint) saved = gnn_checkpoint_new (model, GNN_OPTIMIZER (opt), sched, 3);

    g_assert_true (gnn_checkpoint_save (saved, path, NULL, &error));
  }
  loaded = gnn_checkpoint_load (path, GNN_LOAD_FLAGS_NONE, &error);
  g_assert_no_error (error);
  opt2 = gnn_checkpoint_get_optimizer (loaded);
  g_assert_cmpuint (gnn_optimizer_get_n_param_groups (opt2), ==, 2);
  for (guint g = 0; g < 2; g++)
    {
      g_autoptr(GPtrArray) a = gnn_optimizer_get_group_params (GNN_OPTIMIZER (opt), g);
      g_autoptr(GPtrArray) b = gnn_optimizer_get_group_params (opt2, g);
      g_autoptr(GVariant) ma = gnn_optimizer_get_group_option (GNN_OPTIMIZER (opt), g, "momentum", NULL);
      g_autoptr(GVariant) mb = gnn_optimizer_get_group_option (opt2, g, "momentum", NULL);

      g_assert_cmpuint (a->len, ==, b->len);
      g_assert_cmpfloat (gnn_optimizer_get_group_lr (opt2, g), ==,
                         gnn_optimizer_get_group_lr (GNN_OPTIMIZER (opt), g));
      g_assert_true (g_variant_equal (ma, mb));
    }
  train_steps (model, GNN_OPTIMIZER (opt), sched, 3, 3);
  train_steps (gnn_checkpoint_get_model (loaded), opt2, gnn_checkpoint_get_scheduler (loaded), 3, 3);
  gnn_test_assert_same_state (model, gnn_checkpoint_get_model (loaded));
}

static void
test_model_only (void)
{
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GnnCheckpoint) saved = gnn_checkpoint_new (model, NULL, NULL, -1);
  g_autoptr(GnnCheckpoint) loaded = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "model-only.safetensors", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (gnn_checkpoint_save (saved, path, NULL, &error));
  loaded = gnn_checkpoint_load (path, GNN_LOAD_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_null (gnn_checkpoint_get_optimizer (loaded));
  g_assert_null (gnn_checkpoint_get_scheduler (loaded));
  g_assert_cmpint (gnn_checkpoint_get_epoch (loaded), ==, -1);
  gnn_test_assert_same_state (model, gnn_checkpoint_get_model (loaded));
}

static void
test_refused (void)
{
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GnnModule) other = make_model ();
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  g_autoptr(GPtrArray) other_params = gnn_module_named_parameters (other, NULL, TRUE, NULL);
  g_autoptr(GnnSGD) opt = gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL);
  g_autoptr(GnnSGD) other_opt = gnn_sgd_new (other_params, 0.1, 0, 0, 0, FALSE, NULL);
  g_autoptr(GnnStepLR) other_sched = gnn_step_lr_new (GNN_OPTIMIZER (other_opt), 1, 0.5, NULL);
  g_autofree char *path = g_build_filename (tmp_dir, "bad.safetensors", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnCheckpoint) wrong_params = gnn_checkpoint_new (model, GNN_OPTIMIZER (other_opt), NULL, 0);
  g_autoptr(GnnCheckpoint) wrong_sched = gnn_checkpoint_new (model, GNN_OPTIMIZER (opt),
                                                             GNN_LR_SCHEDULER (other_sched), 0);
  g_autoptr(GnnCheckpoint) loaded = NULL;

  g_assert_false (gnn_checkpoint_save (wrong_params, path, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "parameter 0 of the optimizer's group 0 is not a parameter"));
  g_clear_error (&error);
  g_assert_false (gnn_checkpoint_save (wrong_sched, path, NULL, &error));
  g_assert_nonnull (strstr (error->message, "the scheduler's optimizer is not the checkpoint's"));
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* a model file is not a training checkpoint */
  g_assert_true (gnn_module_save_model (model, path, NULL, &error));
  loaded = gnn_checkpoint_load (path, GNN_LOAD_FLAGS_NONE, &error);
  g_assert_null (loaded);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "not a training checkpoint"));
}

/* Damaged descriptions: each refused with the culprit named. */
static void
test_hostile (void)
{
  static const struct { const char *from, *to, *needle; } edits[] = {
    { "\"param_groups\":[[\"0.weight\"", "\"param_groups\":[[\"0.nope\"", "parameter '0.nope' is not a parameter" },
    { "\"type\":\"GnnSGD\"", "\"type\":\"GnnAdamNope\"", "\"GnnAdamNope\", which is not a Gnn type" },
    { "\"type\":\"GnnSGD\"", "\"type\":\"GnnLinear\"", "not an instantiable GnnOptimizer" },
    { "\"type\":\"GnnStepLR\"", "\"type\":\"GnnSGD\"", "not an instantiable GnnLRScheduler" },
    { "\"epoch\":4", "\"epoch\":\"4\"", "the epoch is not an integer" },
    { "\"version\":1,\"epoch\"", "\"version\":9,\"epoch\"", "version 9 is not supported" },
    { "\"step-size\":2", "\"step-size\":0", "property \"step-size\" is out of its range" },
  };
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  g_autoptr(GnnSGD) opt = gnn_sgd_new (params, 0.1, 0, 0, 0, FALSE, NULL);
  g_autoptr(GnnStepLR) sched = gnn_step_lr_new (GNN_OPTIMIZER (opt), 2, 0.5, NULL);
  g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new (model, GNN_OPTIMIZER (opt),
                                                      GNN_LR_SCHEDULER (sched), 4);
  g_autofree char *path = g_build_filename (tmp_dir, "hostile.safetensors", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_autofree char *text = NULL;

  g_assert_true (gnn_checkpoint_save (ckpt, path, NULL, &error));
  sd = gnn_state_dict_load_with_flags (path, GNN_LOAD_FLAGS_COPY, &error);
  text = g_strdup (gnn_state_dict_get_metadata (sd, "gnn.training"));
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_autofree char *edited = NULL;
      g_autoptr(GnnCheckpoint) loaded = NULL;
      g_auto(GStrv) parts = g_strsplit (text, edits[i].from, 2);

      if (parts[1] == NULL)
        g_error ("\"%s\" not in %s", edits[i].from, text);
      edited = g_strjoin (edits[i].to, parts[0], parts[1], NULL);
      gnn_state_dict_set_metadata (sd, "gnn.training", edited);
      g_assert_true (gnn_state_dict_save (sd, path, NULL, &error));
      loaded = gnn_checkpoint_load (path, GNN_LOAD_FLAGS_NONE, &error);
      g_assert_null (loaded);
      if (strstr (error->message, edits[i].needle) == NULL)
        g_error ("\"%s\" lacks \"%s\"", error->message, edits[i].needle);
      g_clear_error (&error);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("gnn-io-checkpoint-XXXXXX", NULL);
  g_test_add_func ("/io/checkpoint/resume/sgd-step-lr", test_resume_sgd_step_lr);
  g_test_add_func ("/io/checkpoint/resume/adam-cosine", test_resume_adam_cosine);
  g_test_add_func ("/io/checkpoint/param-groups", test_param_groups);
  g_test_add_func ("/io/checkpoint/model-only", test_model_only);
  g_test_add_func ("/io/checkpoint/refused", test_refused);
  g_test_add_func ("/io/checkpoint/hostile", test_hostile);
  status = g_test_run ();
  gnn_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
