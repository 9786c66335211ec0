/* gnn-io-async.c: the _async/_finish forms of state-dict and model-file
 * load and save, on GTask
 *
 * Each runs its synchronous function in a GTask thread. Cancellation is
 * looked at before the file is touched: a load cancelled later still
 * reports G_IO_ERROR_CANCELLED (its result is dropped), a save that has
 * started completes — saves are atomic, so a file is never half written —
 * and reports its own outcome.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

/* Which synchronous function a task runs. */
typedef enum
{
  LOAD_STATE_DICT,
  SAVE_STATE_DICT,
  LOAD_MODEL,
  SAVE_MODEL,
} JobKind;

typedef struct
{
  JobKind       kind;
  char         *path;
  GnnLoadFlags  flags;
  GHashTable   *metadata;
} FileJob;

static void
file_job_free (FileJob *job)
{
  g_free (job->path);
  g_clear_pointer (&job->metadata, g_hash_table_unref);
  g_free (job);
}

/* The task's thread: the synchronous function, after a last look at the
 * cancellable. */
static void
file_job_thread (GTask        *task,
                 gpointer      source,
                 gpointer      data,
                 GCancellable *cancellable)
{
  FileJob *job = data;
  GError *error = NULL;
  gpointer object = NULL;
  gboolean ok;

  if (g_task_return_error_if_cancelled (task))
    return;
  switch (job->kind)
    {
    case LOAD_STATE_DICT:
      ok = (object = gnn_state_dict_load_with_flags (job->path, job->flags, &error)) != NULL;
      break;
    case SAVE_STATE_DICT:
      ok = gnn_state_dict_save (GNN_STATE_DICT (source), job->path, job->metadata, &error);
      break;
    case LOAD_MODEL:
      ok = (object = gnn_module_load_model (job->path, job->flags, &error)) != NULL;
      break;
    default:
      ok = gnn_module_save_model (GNN_MODULE (source), job->path, job->metadata, &error);
    }
  if (!ok)
    g_task_return_error (task, error);
  else if (object != NULL)
    g_task_return_pointer (task, object, g_object_unref);
  else
    g_task_return_boolean (task, TRUE);
}

/* Runs @kind on @path for @source (NULL for loads) in a GTask thread. */
static void
run_file_job (JobKind              kind,
              gpointer             source,
              gpointer             tag,
              const char          *path,
              GnnLoadFlags         flags,
              GHashTable          *metadata,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (source, cancellable, callback, user_data);
  FileJob *job = g_new0 (FileJob, 1);

  g_task_set_source_tag (task, tag);
  job->kind = kind;
  job->path = g_strdup (path);
  job->flags = flags;
  job->metadata = metadata != NULL ? g_hash_table_ref (metadata) : NULL;
  g_task_set_task_data (task, job, (GDestroyNotify) file_job_free);
  /* a started save reports its own outcome (see above) */
  g_task_set_check_cancellable (task, kind == LOAD_STATE_DICT || kind == LOAD_MODEL);
  g_task_run_in_thread (task, file_job_thread);
}

static gboolean
check_task (GAsyncResult *result,
            gpointer      source,
            gpointer      tag)
{
  return g_task_is_valid (result, source) && g_task_get_source_tag (G_TASK (result)) == tag;
}

/* --- state dicts ---------------------------------------------------------- */

/**
 * gnn_state_dict_load_async:
 * @path: the safetensors file
 * @flags: how to load, as for [func@Gnn.StateDict.load_with_flags]
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the state dict is loaded
 * @user_data: data for @callback
 *
 * Loads a state dict from a file in a worker thread, as
 * [func@Gnn.StateDict.load_with_flags] does; @callback runs in the
 * thread-default main context of the caller.
 *
 * Since: 0.1
 */
void
gnn_state_dict_load_async (const char          *path,
                           GnnLoadFlags         flags,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (path != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  run_file_job (LOAD_STATE_DICT, NULL, gnn_state_dict_load_async, path, flags, NULL,
                cancellable, callback, user_data);
}

/**
 * gnn_state_dict_load_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Ends a load started with [func@Gnn.StateDict.load_async].
 *
 * Returns: (transfer full): the state dict, or %NULL with @error set
 *   (%G_IO_ERROR_CANCELLED when it was cancelled)
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_state_dict_load_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (check_task (result, NULL, gnn_state_dict_load_async), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * gnn_state_dict_save_async:
 * @self: a #GnnStateDict
 * @path: the file to write
 * @metadata: (nullable) (element-type utf8 utf8): extra metadata, as for
 *   [method@Gnn.StateDict.save]
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the file is written
 * @user_data: data for @callback
 *
 * Saves the state dict in a worker thread, as [method@Gnn.StateDict.save]
 * does. The tensors are read while the file is written: do not modify
 * them until @callback runs. A cancellation before the write starts
 * writes nothing; once started, the (atomic) save completes.
 *
 * Since: 0.1
 */
void
gnn_state_dict_save_async (GnnStateDict        *self,
                           const char          *path,
                           GHashTable          *metadata,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (GNN_IS_STATE_DICT (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  run_file_job (SAVE_STATE_DICT, self, gnn_state_dict_save_async, path, 0, metadata,
                cancellable, callback, user_data);
}

/**
 * gnn_state_dict_save_finish:
 * @self: a #GnnStateDict
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Ends a save started with [method@Gnn.StateDict.save_async].
 *
 * Returns: %TRUE if the file was written, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_state_dict_save_finish (GnnStateDict  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (check_task (result, self, gnn_state_dict_save_async), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- model files ---------------------------------------------------------- */

/**
 * gnn_module_load_model_async:
 * @path: the model file
 * @flags: how to load, as for [func@Gnn.Module.load_model]
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the model is built
 * @user_data: data for @callback
 *
 * Rebuilds a model from a model file in a worker thread, as
 * [func@Gnn.Module.load_model] does. The file's types are built in that
 * thread: a type written in JavaScript cannot be (GJS runs it on the main
 * thread only); use the synchronous form for those.
 *
 * Since: 0.1
 */
void
gnn_module_load_model_async (const char          *path,
                             GnnLoadFlags         flags,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (path != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  run_file_job (LOAD_MODEL, NULL, gnn_module_load_model_async, path, flags, NULL,
                cancellable, callback, user_data);
}

/**
 * gnn_module_load_model_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Ends a load started with [func@Gnn.Module.load_model_async].
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 *   (%G_IO_ERROR_CANCELLED when it was cancelled)
 *
 * Since: 0.1
 */
GnnModule *
gnn_module_load_model_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (check_task (result, NULL, gnn_module_load_model_async), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * gnn_module_save_model_async:
 * @self: a module
 * @path: the file to write
 * @metadata: (nullable) (element-type utf8 utf8): extra metadata, as for
 *   [method@Gnn.Module.save_model]
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the file is written
 * @user_data: data for @callback
 *
 * Saves the module's architecture and weights in a worker thread, as
 * [method@Gnn.Module.save_model] does: do not train or change the module
 * until @callback runs. A cancellation before the write starts writes
 * nothing; once started, the (atomic) save completes. A module with
 * classes written in JavaScript keeps their properties in JavaScript,
 * which only the main thread may read: save those synchronously.
 *
 * Since: 0.1
 */
void
gnn_module_save_model_async (GnnModule           *self,
                             const char          *path,
                             GHashTable          *metadata,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (GNN_IS_MODULE (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  run_file_job (SAVE_MODEL, self, gnn_module_save_model_async, path, 0, metadata,
                cancellable, callback, user_data);
}

/**
 * gnn_module_save_model_finish:
 * @self: a module
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Ends a save started with [method@Gnn.Module.save_model_async].
 *
 * Returns: %TRUE if the file was written, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_module_save_model_finish (GnnModule     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (check_task (result, self, gnn_module_save_model_async), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
