/* gnn-data-loader-async.c: the next batch of a pass on a GTask
 *
 * The wait runs in a GTask thread in slices of next_timeout, looking at the
 * cancellable between two: a cancelled wait leaves the pass as it was and
 * the batch it waited for comes with the next call. The iterator's claim
 * (gnn-data-loader-iter.c) is held from the call until the result is
 * there, so a next() meanwhile fails instead of racing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

#define WAIT_SLICE_USEC (50 * 1000)

/* Waits in slices until a batch, the end, an error or a cancellation; the
 * claim is released before the result is returned, so the callback may
 * ask for the next batch. */
static void
next_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  GnnDataLoaderIter *self = source;
  GnnBatch *batch = NULL;
  GError *error = NULL;
  gboolean timed_out = TRUE, ok = TRUE;

  while (ok && timed_out)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        break;
      ok = gnn_data_loader_iter_next_claimed (self, WAIT_SLICE_USEC, &timed_out, &batch, &error);
    }
  gnn_data_loader_iter_release (self);
  if (error != NULL)
    g_task_return_error (task, error);
  else if (!ok)
    g_task_return_pointer (task, NULL, NULL);   /* the end of the pass */
  else
    g_task_return_pointer (task, batch, (GDestroyNotify) gnn_batch_unref);
}

/**
 * gnn_data_loader_iter_next_async:
 * @self: a #GnnDataLoaderIter
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the batch is there (or the pass
 *   has ended)
 * @user_data: data for @callback
 *
 * Waits for the next batch in a worker thread, as
 * [method@Gnn.DataLoaderIter.next] does, and calls @callback in the
 * caller's thread-default main context. While it waits, other calls of
 * [method@Gnn.DataLoaderIter.next] (and of this) fail with
 * %G_IO_ERROR_PENDING; @callback may ask for the next batch. With zero workers the batch is loaded in that
 * thread: a dataset written in JavaScript needs the synchronous form.
 *
 * Cancelling @cancellable ends the wait within 50 ms with
 * %G_IO_ERROR_CANCELLED and leaves the pass as it was: the next call
 * returns the batch this one waited for.
 *
 * Since: 0.1
 */
void
gnn_data_loader_iter_next_async (GnnDataLoaderIter   *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;

  g_return_if_fail (GNN_IS_DATA_LOADER_ITER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, gnn_data_loader_iter_next_async);
  /* a batch taken from the pass is delivered even if a cancellation
   * came after it: dropping it would lose it */
  g_task_set_check_cancellable (task, FALSE);
  if (!gnn_data_loader_iter_claim (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_run_in_thread (task, next_thread);
}

/**
 * gnn_data_loader_iter_next_finish:
 * @self: a #GnnDataLoaderIter
 * @result: the #GAsyncResult given to the callback
 * @batch: (out) (transfer container) (element-type Gnn.Tensor) (optional) (nullable):
 *   the batch, as from [method@Gnn.DataLoaderIter.next], or %NULL at the
 *   end of the pass
 * @error: return location for a #GError
 *
 * Ends a wait started with [method@Gnn.DataLoaderIter.next_async].
 *
 * Returns: %TRUE with a batch, %FALSE at the end of the pass (without an
 *   error) or with @error set (%G_IO_ERROR_CANCELLED when it was
 *   cancelled)
 *
 * Since: 0.1
 */
gboolean
gnn_data_loader_iter_next_finish (GnnDataLoaderIter  *self,
                                  GAsyncResult       *result,
                                  GPtrArray         **batch,
                                  GError            **error)
{
  g_autoptr(GnnBatch) out = NULL;
  gboolean ok = gnn_data_loader_iter_next_batch_finish (self, result, &out, error);

  if (batch != NULL)
    *batch = out != NULL ? gnn_batch_get_tensors (out) : NULL;
  return ok;
}

/**
 * gnn_data_loader_iter_next_batch_finish:
 * @self: a #GnnDataLoaderIter
 * @result: the #GAsyncResult given to the callback
 * @batch: (out) (transfer full) (optional) (nullable): the batch, as from
 *   [method@Gnn.DataLoaderIter.next_batch], or %NULL at the end of the pass
 * @error: return location for a #GError
 *
 * Ends a wait started with [method@Gnn.DataLoaderIter.next_async], giving
 * the named, typed batch.
 *
 * Returns: %TRUE with a batch, %FALSE at the end of the pass (without an
 *   error) or with @error set (%G_IO_ERROR_CANCELLED when it was
 *   cancelled)
 *
 * Since: 0.1
 */
gboolean
gnn_data_loader_iter_next_batch_finish (GnnDataLoaderIter  *self,
                                        GAsyncResult       *result,
                                        GnnBatch          **batch,
                                        GError            **error)
{
  GnnBatch *out;
  GError *local = NULL;

  g_return_val_if_fail (GNN_IS_DATA_LOADER_ITER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == gnn_data_loader_iter_next_async,
                        FALSE);

  if (batch != NULL)
    *batch = NULL;
  out = g_task_propagate_pointer (G_TASK (result), &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (out == NULL)
    return FALSE;
  if (batch != NULL)
    *batch = out;
  else
    gnn_batch_unref (out);
  return TRUE;
}
