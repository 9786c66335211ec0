/* gnn-data-loader-iter.c: one pass of a data loader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-worker-private.h"

/**
 * GnnDataLoaderIter:
 *
 * One pass (epoch) over a [class@Gnn.DataLoader], from
 * [method@Gnn.DataLoader.iter]. Batches come out in sampler order whatever
 * the number of workers.
 *
 * With workers (threads or processes), the caller keeps the sampler: batch `k` (a sequence
 * number) is sent to worker `k % num_workers`'s queue, at most
 * `prefetch_factor × num_workers` batches are in flight, workers push
 * finished batches to the pass's result queue and
 * [method@Gnn.DataLoaderIter.next] puts them back in order through a
 * reorder ring. Dropping the iterator mid-epoch tells the workers to skip
 * the rest of the pass; unless they are persistent, they are joined and
 * pending batches freed before the drop returns.
 *
 * An iterator may be shared by threads: next() calls run one at a time
 * (each batch goes to one caller, none is lost), and disposing the
 * iterator while another thread waits in next() stops the pass when that
 * next() returns.
 *
 * Since: 0.1
 */

struct _GnnDataLoaderIter
{
  GObject          parent_instance;

  /* next() calls run one at a time under @lock; a dispose while one runs
   * sets @stop_pending, for whoever holds @lock to stop the pass. */
  GMutex           lock;
  GThread         *owner;        /* the thread inside next(), or NULL */
  gint             stop_pending;

  GnnDataLoader   *loader;
  GnnEpoch        *epoch;
  GnnWorkerBackend *backend;     /* NULL with zero workers or once stopped */
  guint            pass;         /* this pass's id in @backend */
  guint            n_workers;
  gsize            n_batches;
  gsize            next_send;    /* next sequence number to dispatch */
  gsize            next_recv;    /* next sequence number to deliver */
  gboolean         done;
  gsize            capacity;     /* batches in flight at most */
  double           timeout;
  gint64           wait_deadline; /* the loader's timeout for the batch awaited (monotonic), or 0 */
  GVariant        *start_state;  /* the loader's state before this pass (a{sv}) */
  GnnBatchResult **ring;         /* reorder buffer, slot = seq % capacity */

  /* Iterable datasets: workers whose stream is not over yet. */
  gboolean        *active;
  guint            n_active;
  guint            cursor;       /* next worker to try, round-robin */
  gint64          *delivered;    /* batches handed out from each stream */
  guint            next_stream;  /* whose batch the caller gets next */

  gint             busy;         /* atomic: a next() or next_async() is under way */
};

G_DEFINE_FINAL_TYPE (GnnDataLoaderIter, gnn_data_loader_iter, G_TYPE_OBJECT)

static void
submit (GnnDataLoaderIter *self,
        guint              worker,
        gsize              seq)
{
  self->backend->vtable->submit (self->backend, worker, self->epoch, self->pass, seq);
}

static void
dispatch (GnnDataLoaderIter *self)
{
  guint n = self->n_workers;

  if (self->epoch->iterable)
    {
      /* PyTorch's cycle over the workers whose stream is not over. */
      while (self->n_active > 0 && self->next_send - self->next_recv < self->capacity)
        {
          while (!self->active[self->cursor])
            self->cursor = (self->cursor + 1) % n;
          submit (self, self->cursor, self->next_send++);
          self->cursor = (self->cursor + 1) % n;
        }
      return;
    }
  while (self->next_send < self->n_batches &&
         self->next_send - self->next_recv < self->capacity)
    {
      submit (self, (guint) (self->next_send % n), self->next_send);
      self->next_send++;
    }
}

/* Ends the pass: workers skip its remaining tasks; a backend that is not
 * persistent is stopped here (the last reference). With @abandon (a
 * timeout), busy workers are not waited for; returns their description. */
static char *
stop_full (GnnDataLoaderIter *self,
           gboolean           abandon)
{
  char *stuck = NULL;

  self->done = TRUE;
  if (self->epoch != NULL)
    g_atomic_int_set (&self->epoch->stop, 1);
  if (self->backend != NULL)
    stuck = self->backend->vtable->stop (self->backend, self->epoch, self->pass, abandon);
  g_clear_pointer (&self->backend, gnn_worker_backend_unref);
  for (gsize i = 0; i < self->capacity; i++)
    g_clear_pointer (&self->ring[i], gnn_batch_result_free);
  return stuck;
}

static void
stop (GnnDataLoaderIter *self)
{
  g_free (stop_full (self, FALSE));
}

/* Releases @lock, first stopping the pass if a dispose asked while it was
 * held. A dispose that finds @lock taken sets the flag before its trylock
 * fails, so the holder sees it after its unlock and takes @lock back. */
static void
leave (GnnDataLoaderIter *self)
{
  do
    {
      if (g_atomic_int_compare_and_exchange (&self->stop_pending, 1, 0))
        stop (self);
      g_mutex_unlock (&self->lock);
    }
  while (g_atomic_int_get (&self->stop_pending) && g_mutex_trylock (&self->lock));
}

static void
gnn_data_loader_iter_dispose (GObject *object)
{
  GnnDataLoaderIter *self = GNN_DATA_LOADER_ITER (object);

  /* from another thread while next() waits: that next() stops the pass
   * when it returns (waiting for it here could be forever) */
  g_atomic_int_set (&self->stop_pending, 1);
  if (g_mutex_trylock (&self->lock))
    leave (self);
  G_OBJECT_CLASS (gnn_data_loader_iter_parent_class)->dispose (object);
}

static void
gnn_data_loader_iter_finalize (GObject *object)
{
  GnnDataLoaderIter *self = GNN_DATA_LOADER_ITER (object);

  g_clear_pointer (&self->epoch, gnn_epoch_unref);
  g_clear_pointer (&self->start_state, g_variant_unref);
  g_clear_pointer (&self->ring, g_free);
  g_clear_pointer (&self->active, g_free);
  g_clear_pointer (&self->delivered, g_free);
  g_clear_object (&self->loader);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (gnn_data_loader_iter_parent_class)->finalize (object);
}

static void
gnn_data_loader_iter_class_init (GnnDataLoaderIterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_data_loader_iter_dispose;
  object_class->finalize = gnn_data_loader_iter_finalize;
}

static void
gnn_data_loader_iter_init (GnnDataLoaderIter *self)
{
  g_mutex_init (&self->lock);
}

GnnDataLoaderIter *
gnn_data_loader_iter_new_internal (GnnDataLoader    *loader,
                                   GnnEpoch         *epoch,
                                   GnnWorkerBackend *backend,
                                   guint             prefetch_factor,
                                   double            timeout,
                                   GVariant         *start_state,
                                   gsize             skip)
{
  GnnDataLoaderIter *self = g_object_new (GNN_TYPE_DATA_LOADER_ITER, NULL);
  gsize n = epoch->n_indices, bs = epoch->batch_size;

  self->loader = g_object_ref (loader);
  self->epoch = gnn_epoch_ref (epoch);
  self->n_batches = epoch->iterable ? G_MAXSIZE : n / bs + (n % bs != 0);
  self->timeout = timeout;
  self->start_state = start_state != NULL ? g_variant_ref_sink (start_state) : NULL;
  /* A resumed pass: the batches already delivered are neither fetched nor
   * sent; batch k still goes to worker k % n, as in the uninterrupted pass. */
  self->next_send = self->next_recv = MIN (skip, self->n_batches);
  if (epoch->iterable)
    {
      /* a resumed pass counts on from what its streams skip */
      self->delivered = g_new0 (gint64, epoch->n_streams);
      for (guint i = 0; i < epoch->n_streams; i++)
        self->delivered[i] = epoch->skip[i] / (gint64) MAX (epoch->batch_size, 1);
      self->next_stream = self->cursor = epoch->first_stream;
    }
  if (backend == NULL)
    return self;

  self->backend = gnn_worker_backend_ref (backend);
  self->pass = backend->vtable->begin (backend, epoch);
  self->n_workers = backend->num_workers;
  /* prefetch_factor is a hint, as in torch: beyond the batches of the pass
   * (or 65536 in flight) more slots would only cost memory — a huge factor
   * must not become a huge allocation. */
  self->capacity = MIN ((gsize) prefetch_factor * self->n_workers,
                        MIN (self->n_batches - self->next_send, (gsize) 65536));
  self->capacity = MAX (self->capacity, 1);
  self->ring = g_new0 (GnnBatchResult *, self->capacity);
  if (epoch->iterable)
    {
      self->n_active = self->n_workers;
      self->active = g_new (gboolean, self->n_active);
      for (guint i = 0; i < self->n_active; i++)
        self->active[i] = TRUE;
    }
  dispatch (self);
  return self;
}

static gboolean
fail (GnnDataLoaderIter  *self,
      GError             *err,
      GError            **error)
{
  stop (self);
  g_propagate_error (error, err);
  return FALSE;
}

/* PyTorch's message, plus the workers left behind (a stuck thread is
 * abandoned, not waited for, so the loader stays droppable). */
static gboolean
timed_out (GnnDataLoaderIter  *self,
           GError            **error)
{
  g_autofree char *stuck = stop_full (self, TRUE);

  if (stuck != NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT,
                 "DataLoader timed out after %g seconds (still busy, abandoned: %s)",
                 self->timeout, stuck);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT,
                 "DataLoader timed out after %g seconds", self->timeout);
  return FALSE;
}

/* next() and next_timeout(): @slice_end (monotonic µs, 0: none) ends a
 * wait without touching the pass, so a caller can run its own checks
 * (Python's signal handlers) and call again. The loader's timeout counts
 * from the first wait for a batch, across slices. */
static gboolean
iter_next (GnnDataLoaderIter  *self,
           gint64              slice_end,
           gboolean           *timed_out_slice,
           GnnBatch          **batch,
           GError            **error)
{
  GnnBatchResult *r;
  GnnBatch *out;
  gsize slot;
  gint64 deadline = 0;

  if (batch != NULL)
    *batch = NULL;
  if (self->done || self->next_recv >= self->n_batches)
    {
      stop (self);
      return FALSE;
    }

  if (self->backend == NULL)   /* zero workers: load in the caller */
    {
      GError *err = NULL;
      gboolean end = FALSE;

      if (self->epoch->iterable)
        out = gnn_epoch_fetch_stream_batch (self->epoch, 0, &end, &err);
      else
        out = gnn_epoch_fetch_batch (self->epoch, self->next_recv, &err);
      /* a failed batch is not counted: a state saved now resumes with it */
      if (err != NULL)
        return fail (self, err, error);
      if (!self->epoch->iterable)
        self->next_recv++;
      if (end)
        {
          stop (self);
          return FALSE;
        }
      if (self->epoch->iterable)
        self->delivered[0]++;
      if (batch != NULL)
        *batch = out;
      else
        gnn_batch_unref (out);
      return TRUE;
    }

  for (;;)
    {
      if (self->next_recv == self->next_send)   /* iterable: every stream is over */
        {
          stop (self);
          return FALSE;
        }
      slot = self->next_recv % self->capacity;
      while (self->ring[slot] == NULL)
        {
          GError *err = NULL;

          /* The loader's timeout counts from the first wait for this batch
           * (across slices); a slice ends a wait sooner. */
          if (self->timeout > 0 && self->timeout < 1e12 && self->wait_deadline == 0)
            self->wait_deadline = g_get_monotonic_time () +
                                  (gint64) (self->timeout * G_USEC_PER_SEC);   /* longer: forever */
          deadline = self->wait_deadline;
          if (slice_end != 0 && (deadline == 0 || slice_end < deadline))
            deadline = slice_end;
          r = self->backend->vtable->receive (self->backend, self->epoch, self->pass, deadline, &err);
          if (err != NULL)
            return fail (self, err, error);
          if (r == NULL && self->wait_deadline != 0 &&
              g_get_monotonic_time () >= self->wait_deadline)
            return timed_out (self, error);
          if (r == NULL && slice_end != 0)
            {
              *timed_out_slice = TRUE;
              return TRUE;
            }
          if (r == NULL)   /* no slice, no deadline: cannot happen */
            return timed_out (self, error);
          if (r->seq < self->next_recv || r->seq >= self->next_recv + self->capacity)
            {
              gnn_batch_result_free (r);   /* not ours (never happens) */
              continue;
            }
          g_clear_pointer (&self->ring[r->seq % self->capacity], gnn_batch_result_free);
          self->ring[r->seq % self->capacity] = r;
        }
      r = g_steal_pointer (&self->ring[slot]);
      self->wait_deadline = 0;
      if (r->error != NULL)
        {
          GError *err = g_steal_pointer (&r->error);

          /* not counted: a state saved now resumes with this batch */
          gnn_batch_result_free (r);
          return fail (self, err, error);
        }
      self->next_recv++;
      if (r->end)   /* this worker's stream is over: skip its turn */
        {
          if (self->active[r->worker])
            {
              self->active[r->worker] = FALSE;
              self->n_active--;
            }
          gnn_batch_result_free (r);
          dispatch (self);
          continue;
        }
      break;
    }
  dispatch (self);
  if (self->epoch->iterable)
    {
      self->delivered[r->worker]++;
      self->next_stream = (r->worker + 1) % self->n_workers;
    }
  out = g_steal_pointer (&r->batch);
  gnn_batch_result_free (r);
  if (batch != NULL)
    *batch = out;
  else
    gnn_batch_unref (out);
  return TRUE;
}

/* iter_next() for one thread at a time; the iterator is kept alive until
 * it returns. With @claim (next(), next_timeout()), refused while
 * next_async() holds the claim. A next() from inside the batch it is
 * loading (a dataset calling next() on its own loader's pass) would wait
 * for itself: refused. */
static gboolean
iter_next_exclusive (GnnDataLoaderIter  *self,
                     gint64              slice_end,
                     gboolean           *timed_out_slice,
                     GnnBatch          **batch,
                     gboolean            claim,
                     GError            **error)
{
  gboolean ok;

  if (batch != NULL)
    *batch = NULL;
  if (g_atomic_pointer_get (&self->owner) == (gpointer) g_thread_self ())
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "DataLoader: next() called on a pass from inside its own next() "
                           "(by the dataset or collate_fn)");
      return FALSE;
    }
  g_object_ref (self);
  g_mutex_lock (&self->lock);
  g_atomic_pointer_set (&self->owner, g_thread_self ());
  if (claim && !gnn_data_loader_iter_claim (self, error))
    ok = FALSE;
  else
    {
      ok = iter_next (self, slice_end, timed_out_slice, batch, error);
      if (claim)
        gnn_data_loader_iter_release (self);
    }
  g_atomic_pointer_set (&self->owner, NULL);
  leave (self);
  g_object_unref (self);
  return ok;
}

/**
 * gnn_data_loader_iter_next:
 * @self: a #GnnDataLoaderIter
 * @batch: (out) (transfer container) (element-type Gnn.Tensor) (optional) (nullable):
 *   the next batch (one tensor per item field; the array holds references:
 *   free it with g_ptr_array_unref()), or %NULL at the end
 * @error: return location for a #GError
 *
 * Returns the next batch, in sampler order. An error in a worker's
 * `get_item` or `collate` comes back here with the worker id and the
 * sample index in its message ("DataLoader worker 1: sample index 17: …");
 * waiting longer than the loader's timeout fails with %GNN_ERROR_TIMEOUT
 * "DataLoader timed out after 5 seconds". After an error or the end, the
 * pass is stopped and later calls return %FALSE.
 *
 * Returns: %TRUE with a batch, %FALSE at the end of the epoch or on error
 *
 * Since: 0.1
 */
gboolean
gnn_data_loader_iter_next (GnnDataLoaderIter  *self,
                           GPtrArray         **batch,
                           GError            **error)
{
  g_autoptr(GnnBatch) out = NULL;
  gboolean ok = gnn_data_loader_iter_next_batch (self, batch != NULL ? &out : NULL, error);

  if (batch != NULL)
    *batch = out != NULL ? gnn_batch_get_tensors (out) : NULL;
  return ok;
}

/**
 * gnn_data_loader_iter_next_batch:
 * @self: a #GnnDataLoaderIter
 * @batch: (out) (transfer full) (optional) (nullable): the next batch, with
 *   the field names and kind of the dataset's items (a batch of dict items
 *   is a dict batch), or %NULL at the end
 * @error: return location for a #GError
 *
 * [method@Gnn.DataLoaderIter.next] with a named, typed batch: the names
 * cross worker threads and processes (forked or spawned) with the tensors.
 *
 * Returns: %TRUE with a batch, %FALSE at the end of the epoch or on error
 *
 * Since: 0.1
 */
gboolean
gnn_data_loader_iter_next_batch (GnnDataLoaderIter  *self,
                                 GnnBatch          **batch,
                                 GError            **error)
{
  gboolean unused;

  g_return_val_if_fail (GNN_IS_DATA_LOADER_ITER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  return iter_next_exclusive (self, 0, &unused, batch, TRUE, error);
}

/* One async caller at a time: next_async() claims the iterator for its
 * slices (which run in a GTask thread); a next() meanwhile is refused
 * rather than racing on the reorder buffer. Synchronous callers wait for
 * each other on the lock instead (see iter_next_exclusive). */
gboolean
gnn_data_loader_iter_claim (GnnDataLoaderIter  *self,
                            GError            **error)
{
  if (g_atomic_int_compare_and_exchange (&self->busy, 0, 1))
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                       "DataLoader iterator: another next() is already under way");
  return FALSE;
}

void
gnn_data_loader_iter_release (GnnDataLoaderIter *self)
{
  g_atomic_int_set (&self->busy, 0);
}

gboolean
gnn_data_loader_iter_next_claimed (GnnDataLoaderIter  *self,
                                   gint64              timeout_usec,
                                   gboolean           *timed_out,
                                   GnnBatch          **batch,
                                   GError            **error)
{
  *timed_out = FALSE;
  return iter_next_exclusive (self, g_get_monotonic_time () + timeout_usec, timed_out, batch,
                              FALSE, error);
}

/**
 * gnn_data_loader_iter_next_timeout:
 * @self: a #GnnDataLoaderIter
 * @timeout_usec: how long to wait for the batch at most, in microseconds (> 0)
 * @timed_out: (out): set to %TRUE if no batch came within @timeout_usec
 * @batch: (out) (transfer container) (element-type Gnn.Tensor) (nullable):
 *   the next batch, as from [method@Gnn.DataLoaderIter.next], or %NULL
 * @error: return location for a #GError
 *
 * Like [method@Gnn.DataLoaderIter.next], but waits at most @timeout_usec
 * for the workers: if no batch came by then, returns %TRUE with
 * @timed_out set and no batch, and leaves the pass as it was — the next
 * call waits on for the same batch. A caller that must react to something
 * else while it waits calls this in a loop: the Python binding lets its
 * signal handlers run between two calls, so Ctrl-C raises
 * KeyboardInterrupt (a wait inside next() would retry forever). The
 * loader's own timeout still counts from the first wait for the batch and
 * stops the pass with %GNN_ERROR_TIMEOUT. With zero workers the batch is
 * loaded in the caller, whatever @timeout_usec.
 *
 * Returns: %TRUE with a batch or on @timed_out, %FALSE at the end of the
 *   epoch or on error
 *
 * Since: 0.1
 */
gboolean
gnn_data_loader_iter_next_timeout (GnnDataLoaderIter  *self,
                                   gint64              timeout_usec,
                                   gboolean           *timed_out,
                                   GPtrArray         **batch,
                                   GError            **error)
{
  g_autoptr(GnnBatch) out = NULL;
  gboolean ok;

  ok = gnn_data_loader_iter_next_batch_timeout (self, timeout_usec, timed_out,
                                                batch != NULL ? &out : NULL, error);
  if (batch != NULL)
    *batch = out != NULL ? gnn_batch_get_tensors (out) : NULL;
  return ok;
}

/**
 * gnn_data_loader_iter_next_batch_timeout:
 * @self: a #GnnDataLoaderIter
 * @timeout_usec: how long to wait for the batch at most, in microseconds (> 0)
 * @timed_out: (out): set to %TRUE if no batch came within @timeout_usec
 * @batch: (out) (transfer full) (optional) (nullable): the next batch, as
 *   from [method@Gnn.DataLoaderIter.next_batch], or %NULL
 * @error: return location for a #GError
 *
 * [method@Gnn.DataLoaderIter.next_timeout] with a named, typed batch.
 *
 * Returns: %TRUE with a batch or on @timed_out, %FALSE at the end of the
 *   epoch or on error
 *
 * Since: 0.1
 */
gboolean
gnn_data_loader_iter_next_batch_timeout (GnnDataLoaderIter  *self,
                                         gint64              timeout_usec,
                                         gboolean           *timed_out,
                                         GnnBatch          **batch,
                                         GError            **error)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER_ITER (self), FALSE);
  g_return_val_if_fail (timeout_usec > 0, FALSE);
  g_return_val_if_fail (timed_out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  *timed_out = FALSE;
  return iter_next_exclusive (self, g_get_monotonic_time () + timeout_usec, timed_out, batch,
                              TRUE, error);
}

/**
 * gnn_data_loader_iter_get_state:
 * @self: a #GnnDataLoaderIter
 *
 * Gets where this pass stands, like torchdata's
 * `StatefulDataLoader.state_dict()`: the state of the loader before the
 * pass (pass number, the generator states its sampling used) and the
 * number of batches handed to the caller — not those prefetched (nor one
 * that failed), and with persistent workers the seed they were started
 * from (`worker-seed`). Give it
 * to [ctor@Gnn.DataLoaderIter.new_from_state] (or
 * [method@Gnn.DataLoader.load_state]) to continue with exactly the batches
 * this pass would have yielded next, whatever the worker mode and count;
 * g_variant_print() makes it a string for a checkpoint's metadata.
 *
 * Over an iterable dataset the state also holds how many batches each
 * worker's stream delivered and whose turn is next: a resumed pass (with
 * the same number of workers, since the streams are the workers' shares)
 * skips those items in each stream — through the iterator's `skip` method
 * when it can seek — and yields exactly the batches that would have come.
 *
 * Returns: (transfer full): the state, an `a{sv}` variant
 *
 * Since: 0.1
 */
GVariant *
gnn_data_loader_iter_get_state (GnnDataLoaderIter *self)
{
  GVariantDict dict;

  g_return_val_if_fail (GNN_IS_DATA_LOADER_ITER (self), NULL);
  g_variant_dict_init (&dict, self->start_state);
  if (self->epoch->iterable)
    {
      gint64 total = 0;

      for (guint i = 0; i < self->epoch->n_streams; i++)
        total += self->delivered[i];
      g_variant_dict_insert (&dict, "batches", "x", total);
      g_variant_dict_insert_value (&dict, "stream-batches",
                                   g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, self->delivered,
                                                              self->epoch->n_streams,
                                                              sizeof (gint64)));
      g_variant_dict_insert (&dict, "next-stream", "u", self->next_stream);
    }
  else
    g_variant_dict_insert (&dict, "batches", "x", (gint64) self->next_recv);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

/**
 * gnn_data_loader_iter_get_length:
 * @self: a #GnnDataLoaderIter
 *
 * Gets the number of batches of the epoch this iterator walks.
 *
 * Returns: the number of batches of this pass, or -1 for an iterable dataset
 *
 * Since: 0.1
 */
gint64
gnn_data_loader_iter_get_length (GnnDataLoaderIter *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER_ITER (self), 0);
  return self->epoch->iterable ? -1 : (gint64) self->n_batches;
}
