/* test-io-async.c: state-dict and model-file load/save on GTask, run from a
 * GMainLoop: results equal the synchronous ones, errors come through
 * _finish, a cancellation before the work starts leaves no file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static GnnModule *
new_model (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (7);

  return GNN_MODULE (gnn_linear_new (4, 3, TRUE, gen, NULL));
}

static void
test_state_dict_round_trip (void)
{
  g_autoptr(GnnModule) model = new_model ();
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (model);
  g_autofree char *path = tmp_path ("sd.safetensors");
  g_autoptr(GnnStateDict) loaded = NULL;
  g_autoptr(GAsyncResult) saved = NULL;
  g_autoptr(GAsyncResult) read = NULL;
  g_autoptr(GError) error = NULL;
  GnnTestAsync w;

  gnn_test_async_init (&w);
  gnn_state_dict_save_async (sd, path, NULL, NULL, gnn_test_async_done, &w);
  saved = gnn_test_async_run (&w);
  g_assert_true (gnn_state_dict_save_finish (sd, saved, &error));
  g_assert_no_error (error);

  gnn_test_async_init (&w);
  gnn_state_dict_load_async (path, GNN_LOAD_FLAGS_NONE, NULL, gnn_test_async_done, &w);
  read = gnn_test_async_run (&w);
  loaded = gnn_state_dict_load_finish (read, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_state_dict_get_length (loaded), ==, 2);
  g_assert_true (gnn_tensor_equal (gnn_state_dict_lookup (loaded, "weight"),
                                   gnn_state_dict_lookup (sd, "weight")));
}

static void
test_model_round_trip (void)
{
  g_autoptr(GnnModule) model = new_model ();
  g_autofree char *path = tmp_path ("model.safetensors");
  g_autoptr(GnnModule) loaded = NULL;
  g_autoptr(GAsyncResult) saved = NULL;
  g_autoptr(GAsyncResult) read = NULL;
  g_autoptr(GError) error = NULL;
  GnnTestAsync w;

  gnn_test_async_init (&w);
  gnn_module_save_model_async (model, path, NULL, NULL, gnn_test_async_done, &w);
  saved = gnn_test_async_run (&w);
  g_assert_true (gnn_module_save_model_finish (model, saved, &error));
  g_assert_no_error (error);

  gnn_test_async_init (&w);
  gnn_module_load_model_async (path, GNN_LOAD_FLAGS_NONE, NULL, gnn_test_async_done, &w);
  read = gnn_test_async_run (&w);
  loaded = gnn_module_load_model_finish (read, &error);
  g_assert_no_error (error);
  g_assert_true (GNN_IS_LINEAR (loaded));
  g_assert_true (gnn_tensor_equal (GNN_TENSOR (gnn_module_get_parameter (loaded, "bias", NULL)),
                                   GNN_TENSOR (gnn_module_get_parameter (model, "bias", NULL))));
}

/* The synchronous error, through _finish. */
static void
test_errors (void)
{
  g_autofree char *missing = tmp_path ("missing.safetensors");
  g_autoptr(GAsyncResult) r1 = NULL;
  g_autoptr(GAsyncResult) r2 = NULL;
  g_autoptr(GError) error = NULL;
  GnnTestAsync w;

  gnn_test_async_init (&w);
  gnn_state_dict_load_async (missing, GNN_LOAD_FLAGS_NONE, NULL, gnn_test_async_done, &w);
  r1 = gnn_test_async_run (&w);
  g_assert_null (gnn_state_dict_load_finish (r1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  gnn_test_async_init (&w);
  gnn_module_load_model_async (tmp_dir, GNN_LOAD_FLAGS_NONE, NULL, gnn_test_async_done, &w);
  r2 = gnn_test_async_run (&w);
  g_assert_null (gnn_module_load_model_finish (r2, &error));
  g_assert_nonnull (error);
}

/* Cancelled before the thread starts: G_IO_ERROR_CANCELLED, nothing
 * written, nothing loaded. */
static void
test_cancelled (void)
{
  g_autoptr(GnnModule) model = new_model ();
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (model);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *path = tmp_path ("cancelled.safetensors");
  g_autofree char *model_path = tmp_path ("cancelled-model.safetensors");
  g_autoptr(GAsyncResult) r1 = NULL;
  g_autoptr(GAsyncResult) r2 = NULL;
  g_autoptr(GAsyncResult) r3 = NULL;
  g_autoptr(GError) error = NULL;
  GnnTestAsync w;

  g_cancellable_cancel (cancellable);
  gnn_test_async_init (&w);
  gnn_state_dict_save_async (sd, path, NULL, cancellable, gnn_test_async_done, &w);
  r1 = gnn_test_async_run (&w);
  g_assert_false (gnn_state_dict_save_finish (sd, r1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  gnn_test_async_init (&w);
  gnn_module_save_model_async (model, model_path, NULL, cancellable, gnn_test_async_done, &w);
  r2 = gnn_test_async_run (&w);
  g_assert_false (gnn_module_save_model_finish (model, r2, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (g_file_test (model_path, G_FILE_TEST_EXISTS));

  gnn_test_async_init (&w);
  gnn_module_load_model_async (model_path, GNN_LOAD_FLAGS_NONE, cancellable, gnn_test_async_done, &w);
  r3 = gnn_test_async_run (&w);
  g_assert_null (gnn_module_load_model_finish (r3, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("gnn-io-async-XXXXXX", NULL);
  g_test_add_func ("/io/async/state-dict-round-trip", test_state_dict_round_trip);
  g_test_add_func ("/io/async/model-round-trip", test_model_round_trip);
  g_test_add_func ("/io/async/errors", test_errors);
  g_test_add_func ("/io/async/cancelled", test_cancelled);
  status = g_test_run ();
  gnn_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
