/* gnn-process-worker.c: the serving loop of a worker process (forked or
 * spawned): runs tasks and writes their batches into segments
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "data/gnn-process-private.h"
#include "tensor/gnn-parallel-private.h"

/* --- the child ------------------------------------------------------------ */

/* The worker's slots (only ever used in a child process). */
static struct { int fd; guint8 *map; gsize size; } child_slots[GNN_WIRE_SLOTS];

/* A segment of at least @size bytes: a free slot (*@slot >= 0, *@fresh when
 * it had to be (re)made) or a one-off segment (*@slot = -1). Returns the fd
 * (owned by the slot, or by the caller for a one-off segment). */
static int
child_segment (GnnProcessWorker *w,
               guint           id,
               gsize           size,
               guint8        **map,
               int            *slot,
               gboolean       *fresh)
{
  gint *busy = &w->control->busy[id * GNN_WIRE_SLOTS];
  int best = -1;

  *fresh = FALSE;
  for (int k = 0; k < GNN_WIRE_SLOTS; k++)
    if (!g_atomic_int_get (&busy[k]))
      {
        if (child_slots[k].size == size)
          {
            best = k;
            break;
          }
        if (best < 0)
          best = k;
      }
  *slot = best;
  if (best < 0)
    return gnn_wire_segment_new (size, map);
  if (child_slots[best].size != size)
    {
      if (child_slots[best].size > 0)
        {
          munmap (child_slots[best].map, child_slots[best].size);
          close (child_slots[best].fd);
          child_slots[best].size = 0;
        }
      child_slots[best].fd = gnn_wire_segment_new (size, &child_slots[best].map);
      if (child_slots[best].fd < 0)
        return -1;
      child_slots[best].size = size;
      *fresh = TRUE;
    }
  g_atomic_int_set (&busy[best], 1);
  *map = child_slots[best].map;
  return child_slots[best].fd;
}

static int
segment_error (GError **error)
{
  int saved = errno;

  g_set_error (error, GNN_ERROR, GNN_ERROR_IO,
               "cannot create a shared-memory segment for the batch: %s", g_strerror (saved));
  return -1;
}

/* Stacks @items straight into a new segment (the default collation). */
static int
write_items (GnnProcessWorker     *w,
             guint                 id,
             const GnnBatchSource *src,
             gsize      *size_out,
             int        *slot,
             gboolean   *fresh,
             GError    **error)
{
  guint n_fields = src->n_fields;
  g_autofree GnnFieldPlan *plans = g_new (GnnFieldPlan, MAX (n_fields, 1));
  gsize offset, size, names_bytes;
  GnnWireSegmentTensor *ts;
  guint8 *map;
  int fd;

  if (!gnn_default_collate_plan (src, plans, error) ||
      !gnn_wire_names_size (src->layout, n_fields, &names_bytes, error))
    return -1;
  size = gnn_wire_segment_data_start (n_fields, names_bytes);
  for (guint f = 0; f < n_fields; f++)
    size += gnn_wire_align_up (MAX (plans[f].n_bytes, 1));
  fd = child_segment (w, id, size, &map, slot, fresh);
  if (fd < 0)
    return segment_error (error);
  ts = gnn_wire_segment_header_write (map, n_fields, src->layout, names_bytes);
  offset = gnn_wire_segment_data_start (n_fields, names_bytes);
  for (guint f = 0; f < n_fields; f++)
    {
      ts[f].dtype = plans[f].dtype;
      ts[f].ndim = plans[f].ndim;
      memcpy (ts[f].shape, plans[f].shape, sizeof ts[f].shape);
      ts[f].offset = offset;
      ts[f].n_bytes = plans[f].n_bytes;
      gnn_default_collate_fill (src, f, &plans[f], map + offset);
      offset += gnn_wire_align_up (MAX (plans[f].n_bytes, 1));
    }
  if (*slot < 0)
    munmap (map, size);
  *size_out = size;
  return fd;
}

/* Copies a collated batch into a new segment. */
static int
write_batch (GnnProcessWorker *w,
             guint       id,
             GnnBatch   *batch,
             gsize      *size_out,
             int        *slot,
             gboolean   *fresh,
             GError    **error)
{
  guint n_fields = gnn_batch_get_n_fields (batch);
  gsize offset, size, names_bytes;
  GnnWireSegmentTensor *ts;
  guint8 *map;
  int fd;

  if (!gnn_wire_names_size (batch, n_fields, &names_bytes, error))
    return -1;
  size = gnn_wire_segment_data_start (n_fields, names_bytes);
  for (guint i = 0; i < n_fields; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (gnn_batch_get_field (batch, i));

      size += gnn_wire_align_up (MAX ((gsize) p->numel * gnn_dtype_get_size (p->dtype), 1));
    }
  fd = child_segment (w, id, size, &map, slot, fresh);
  if (fd < 0)
    return segment_error (error);
  ts = gnn_wire_segment_header_write (map, n_fields, batch, names_bytes);
  offset = gnn_wire_segment_data_start (n_fields, names_bytes);
  for (guint i = 0; i < n_fields; i++)
    {
      GnnTensor *t = gnn_batch_get_field (batch, i);
      GnnTensorPrivate *p = gnn_tensor_priv (t);
      gsize n_bytes = (gsize) p->numel * gnn_dtype_get_size (p->dtype);
      gint64 strides[GNN_MAX_DIMS];

      ts[i].dtype = p->dtype;
      ts[i].ndim = p->ndim;
      memset (ts[i].shape, 0, sizeof ts[i].shape);
      memcpy (ts[i].shape, p->shape, p->ndim * sizeof (gint64));
      ts[i].offset = offset;
      ts[i].n_bytes = n_bytes;
      if (n_bytes > 0 && gnn_tensor_is_contiguous (t))
        memcpy (map + offset, gnn_tensor_priv_data (p), n_bytes);
      else if (n_bytes > 0)
        {
          gnn_contiguous_strides (p->shape, p->ndim, strides);
          gnn_strided_copy (p->dtype, map + offset, strides, p->dtype,
                            gnn_tensor_priv_data (p), p->strides, p->shape, p->ndim);
        }
      offset += gnn_wire_align_up (MAX (n_bytes, 1));
    }
  if (*slot < 0)
    munmap (map, size);
  *size_out = size;
  return fd;
}

/* The default collation's stacking straight into a segment, for
 * gnn_fetch_and_collate. */
typedef struct
{
  GnnProcessWorker *w;
  gsize             size;
  int               slot;
  gboolean          fresh;
  int               fd;
} Stacking;

static gboolean
stack_into_segment (gpointer              data,
                    const GnnBatchSource *src,
                    GError              **error)
{
  Stacking *st = data;

  st->fd = write_items (st->w, st->w->id, src, &st->size, &st->slot, &st->fresh, error);
  return st->fd >= 0;
}

/* Runs one task and sends its result; FALSE if the result could not be
 * sent, after which the worker exits: the parent then sees it end instead
 * of waiting for a batch that never comes. */
static gboolean
child_run_task (GnnProcessWorker  *w,
                const GnnWireMessage     *task,
                const gint64      *indices,
                GnnEpoch         **stream,
                guint             *stream_epoch_id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatch) batch = NULL;
  Stacking st = { w, 0, -1, FALSE, -1 };
  gboolean end = FALSE, stacked = FALSE, sent = TRUE;

  if (task->n >= 0)
    {
      batch = gnn_fetch_and_collate (w->dataset, w->collate, indices, (gsize) task->n,
                                     &w->control->current_epoch, (gint) task->epoch,
                                     task->sample_seed, stack_into_segment, &st, &stacked, &error);
      if (error != NULL && g_atomic_int_get (&w->control->current_epoch) != (gint) task->epoch)
        return TRUE;   /* the pass was dropped: nobody waits for this batch */
      if (stacked && error != NULL && !g_error_matches (error, GNN_ERROR, GNN_ERROR_IO))
        gnn_prefix_collate_error (&error, indices[0]);
    }
  else
    {
      /* An iterable dataset: this worker's own stream, new every pass. */
      if (*stream == NULL || *stream_epoch_id != task->epoch)
        {
          g_clear_pointer (stream, gnn_epoch_unref);
          *stream = gnn_epoch_new_iterable (GNN_ITERABLE_DATASET (w->dataset), w->collate,
                                            task->batch_size, task->drop_last, 1);
          (*stream)->skip[0] = -1 - task->n;
          *stream_epoch_id = task->epoch;
        }
      batch = gnn_epoch_fetch_stream_batch (*stream, 0, &end, &error);
    }
  if (batch != NULL)
    st.fd = write_batch (w, w->id, batch, &st.size, &st.slot, &st.fresh, &error);

  if (error != NULL)
    sent = gnn_wire_send_error (w->id, w->sock, task, error);
  else if (end)
    {
      GnnWireMessage m = { GNN_MSG_END, task->epoch, task->seq, 0, 0, 0, 0 };

      sent = gnn_wire_send (w->sock, &m, NULL, 0, -1, TRUE);
    }
  else
    {
      /* extra: the slot + 1 (0: one-off); drop_last: a new segment in the slot */
      GnnWireMessage m = { GNN_MSG_BATCH, task->epoch, task->seq, (gint64) st.size, 0, st.fresh,
                    (guint32) (st.slot + 1) };

      sent = gnn_wire_send (w->sock, &m, NULL, 0, st.slot < 0 || st.fresh ? st.fd : -1,
                                       TRUE);
    }
  if (st.fd >= 0 && st.slot < 0)
    close (st.fd);
  return sent;
}

void
gnn_process_worker_main (GnnProcessWorker *w)
{
  guint8 *buf = g_malloc (GNN_WIRE_MAX_MESSAGE);
  GnnEpoch *stream = NULL;
  guint stream_epoch_id = 0;

  signal (SIGPIPE, SIG_IGN);
  /* Ctrl-C reaches the whole process group: the parent decides (Python
   * raises KeyboardInterrupt there and the pass stays usable); a worker
   * that died of it, or raised it inside get_item, would lose the pass. */
  signal (SIGINT, SIG_IGN);
  gnn_worker_info_set_current (w->info);
  /* torch seeds a worker process's default generator with the worker's
   * seed: augmentations drawing from it differ between workers */
  gnn_manual_seed (gnn_worker_info_get_seed (w->info));
  /* one compute thread per worker, as PyTorch's worker loop sets: N
   * workers with the parent's count each would oversubscribe the cores
   * (worker_init may raise it). Gnn's count only: calling OpenBLAS here
   * would restart its pool in every worker. */
  gnn_parallel_set_threads (1);
  if (w->worker_init != NULL)
    w->worker_init (w->info, w->worker_init_data);

  for (;;)
    {
      const GnnWireMessage *m = (const GnnWireMessage *) buf;
      const gint64 *indices = (const gint64 *) (buf + sizeof (GnnWireMessage));
      gpointer mapped = NULL;
      gsize mapped_size = 0;
      gboolean sent;
      int fd = -1;
      ssize_t r = gnn_wire_receive (w->sock, buf, &fd);

      if (r <= 0 || m->type == GNN_MSG_SHUTDOWN)
        break;
      if (m->type != GNN_MSG_TASK || g_atomic_int_get (&w->control->current_epoch) != (gint) m->epoch)
        {
          if (fd >= 0)
            close (fd);
          continue;
        }
      if (fd >= 0)   /* many indices: in a memfd */
        {
          mapped_size = MAX ((gsize) m->n * sizeof (gint64), 1);
          mapped = mmap (NULL, mapped_size, PROT_READ, MAP_SHARED, fd, 0);
          close (fd);
          if (mapped == MAP_FAILED)
            break;
          indices = mapped;
        }
      else if (m->n >= 0 && (gsize) r < sizeof (GnnWireMessage) + (gsize) m->n * sizeof (gint64))
        break;
      sent = child_run_task (w, m, indices, &stream, &stream_epoch_id);
      if (mapped != NULL)
        munmap (mapped, mapped_size);
      if (!sent)
        break;
    }
  g_free (buf);
}
