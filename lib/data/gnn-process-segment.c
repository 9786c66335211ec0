/* gnn-process-segment.c: the loader's side of the batch segments its
 * worker processes send: maps them, wraps their tensors (the mapping lives
 * until the last of them is freed) and frees a reusable slot then
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/gnn-process-private.h"

/* The shared page, refcounted: batches still alive keep it mapped. */
struct _GnnProcessShared
{
  gatomicrefcount ref_count;
  GnnWireControl *control;
  gsize           size;
};

static GnnProcessShared *
shared_ref (GnnProcessShared *sh)
{
  g_atomic_ref_count_inc (&sh->ref_count);
  return sh;
}

void
gnn_process_shared_unref (GnnProcessShared *sh)
{
  if (!g_atomic_ref_count_dec (&sh->ref_count))
    return;
  munmap (sh->control, sh->size);
  g_free (sh);
}

GnnProcessShared *
gnn_process_shared_new (GnnWireControl *control,
                        gsize           size)
{
  GnnProcessShared *sh = g_new (GnnProcessShared, 1);

  g_atomic_ref_count_init (&sh->ref_count);
  sh->control = control;
  sh->size = size;
  return sh;
}

/* A received segment, mapped. */
struct _GnnProcessSegment
{
  gatomicrefcount ref_count;
  gpointer        map;
  gsize           size;
};

/* One batch in a slot: frees the slot when its last tensor goes. */
typedef struct
{
  gatomicrefcount    ref_count;
  GnnProcessSegment *segment;
  GnnProcessShared  *shared;
  gint              *busy;
} Hold;

static void
hold_unref (gpointer data)
{
  Hold *h = data;

  if (!g_atomic_ref_count_dec (&h->ref_count))
    return;
  g_atomic_int_set (h->busy, 0);
  gnn_process_segment_unref (h->segment);
  gnn_process_shared_unref (h->shared);
  g_free (h);
}

void
gnn_process_segment_unref (gpointer data)
{
  GnnProcessSegment *s = data;

  if (!g_atomic_ref_count_dec (&s->ref_count))
    return;
  munmap (s->map, s->size);
  g_free (s);
}

GnnProcessSegment *
gnn_process_segment_map (int      fd,
                         gsize    size,
                         GError **error)
{
  GnnProcessSegment *seg;
  gpointer map = MAP_FAILED;
  struct stat st;

  /* The size comes from the child: pages past the file's end would raise
   * SIGBUS in the parent when the batch is read. */
  if (fstat (fd, &st) != 0)
    ;
  else if (size < sizeof (GnnWireSegmentHeader) || st.st_size < 0 || size > (guint64) st.st_size)
    errno = EPROTO;
  else
    map = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                   "DataLoader: cannot map a batch from a worker process: %s", g_strerror (errno));
      return NULL;
    }
  seg = g_new (GnnProcessSegment, 1);
  g_atomic_ref_count_init (&seg->ref_count);
  seg->map = map;
  seg->size = size;
  return seg;
}

/* Wraps the tensors of the batch in @seg (takes a reference: @hold's, or
 * @seg's own for a one-off segment). */
static GnnBatch *
map_batch (GnnProcessSegment *seg,
           Hold              *hold,
           GError           **error)
{
  g_autoptr(GPtrArray) batch = NULL;
  const GnnWireSegmentHeader *h;
  const GnnWireSegmentTensor *ts;
  gpointer map = seg->map, owner = hold != NULL ? (gpointer) hold : (gpointer) seg;
  GDestroyNotify owner_unref = hold != NULL ? hold_unref : gnn_process_segment_unref;
  gsize size = seg->size;
  GnnBatch *named;

  h = map;
  ts = (const GnnWireSegmentTensor *) (h + 1);
  if (h->magic != GNN_WIRE_SEGMENT_MAGIC ||
      h->n_tensors > (size - sizeof *h) / sizeof (GnnWireSegmentTensor))
    goto bad;
  batch = g_ptr_array_new_full (h->n_tensors, g_object_unref);
  for (guint i = 0; i < h->n_tensors; i++)
    {
      GnnTensor *t;

      if (ts[i].ndim > GNN_MAX_DIMS || ts[i].offset > size || ts[i].n_bytes > size - ts[i].offset)
        goto bad;
      t = gnn_tensor_new_wrap ((guint8 *) map + ts[i].offset, ts[i].n_bytes, ts[i].dtype,
                               ts[i].shape, ts[i].ndim, owner_unref, owner, error);
      if (t == NULL)
        {
          owner_unref (owner);
          return NULL;
        }
      if (hold != NULL)
        g_atomic_ref_count_inc (&hold->ref_count);
      else
        g_atomic_ref_count_inc (&seg->ref_count);
      g_ptr_array_add (batch, t);
    }
  owner_unref (owner);   /* the tensors hold it now */
  owner = NULL;
  named = gnn_wire_segment_batch (h, size - sizeof *h - h->n_tensors * sizeof *ts,
                                  g_steal_pointer (&batch));
  if (named != NULL)
    return named;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER,
                       "DataLoader: a worker process sent a malformed batch");
  return NULL;

bad:
  owner_unref (owner);
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER,
                       "DataLoader: a worker process sent a malformed batch");
  return NULL;
}

GnnBatch *
gnn_process_segment_wrap_slot (GnnProcessSegment *seg,
                               GnnProcessShared  *shared,
                               gint              *busy,
                               GError           **error)
{
  Hold *hold = g_new (Hold, 1);

  g_atomic_ref_count_init (&hold->ref_count);
  hold->segment = seg;
  g_atomic_ref_count_inc (&seg->ref_count);
  hold->shared = shared_ref (shared);
  hold->busy = busy;
  return map_batch (seg, hold, error);
}

GnnBatch *
gnn_process_segment_wrap (GnnProcessSegment *seg,
                          GError           **error)
{
  return map_batch (seg, NULL, error);
}
