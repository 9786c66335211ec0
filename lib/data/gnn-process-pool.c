/* gnn-process-pool.c: the worker processes of a data loader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The children are forked when the pool is created (at the start of a pass,
 * or once for persistent workers), so they inherit the dataset, the
 * collation and the loader's signal handlers. Each worker has one
 * SOCK_SEQPACKET socket: the parent sends tasks (pass id, sequence number,
 * indices), the child answers with a message and, for a batch, a memfd
 * holding it (a header describing the tensors, then their data, 64-byte
 * aligned), passed with SCM_RIGHTS. The parent maps the segment, closes the
 * descriptor, and wraps each tensor around its part of the mapping; the
 * mapping goes away when the last of those tensors is freed. The default
 * collation stacks the items straight into the segment (one copy of the
 * data in all).
 *
 * A page of shared memory (mapped before the fork) holds the current pass
 * id: children skip tasks of another pass and abandon a batch between two
 * items when the pass changes, which is how dropping an iterator stops
 * them. A pidfd per child makes its death visible to poll() at once.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "data/gnn-worker-pool.h"

#define SEGMENT_MAGIC 0x474e4e42u   /* "GNNB" */
#define ALIGN 64
#define MAX_MESSAGE (64 * 1024)
#define INLINE_INDICES ((MAX_MESSAGE - (gsize) sizeof (Message)) / sizeof (gint64))
#define SHUTDOWN_GRACE_USEC (500 * 1000)

enum { GNN_MSG_TASK = 1, GNN_MSG_SHUTDOWN, GNN_MSG_BATCH, GNN_MSG_ERROR, GNN_MSG_END };

typedef struct
{
  guint32 type;
  guint32 epoch;
  guint64 seq;
  gint64  n;           /* TASK: indices (inline or in the memfd), -1: next stream batch;
                          BATCH: segment size; ERROR: error code */
  guint64 batch_size;  /* TASK, streams */
  guint32 drop_last;   /* TASK, streams */
  guint32 extra;       /* ERROR: bytes of the domain name (with its NUL) before the message */
} Message;

typedef struct
{
  guint32 magic;
  guint32 n_tensors;
} SegmentHeader;

typedef struct
{
  gint32  dtype;
  guint32 ndim;
  gint64  shape[GNN_MAX_DIMS];
  guint64 offset;
  guint64 n_bytes;
} SegmentTensor;

/* Reusable segments: each worker keeps SLOTS memfds mapped; a slot is busy
 * from the moment the child fills it until the parent frees the last tensor
 * of the batch in it. A child without a free slot of the right size makes
 * a one-off segment. */
#define SLOTS 8

typedef struct
{
  gint current_epoch;   /* 0: none */
  gint busy[];          /* num_workers × SLOTS */
} Control;

/* The shared page, refcounted: batches still alive keep it mapped. */
typedef struct
{
  gatomicrefcount ref_count;
  Control        *control;
  gsize           size;
} Shared;

static Shared *
shared_ref (Shared *sh)
{
  g_atomic_ref_count_inc (&sh->ref_count);
  return sh;
}

static void
shared_unref (Shared *sh)
{
  if (!g_atomic_ref_count_dec (&sh->ref_count))
    return;
  munmap (sh->control, sh->size);
  g_free (sh);
}

typedef struct
{
  GPid           pid;        /* 0 once reaped */
  int            fd;         /* parent's end */
  int            child_fd;   /* child's end (closed in the parent after the fork) */
  int            pidfd;      /* -1 without pidfd_open */
  GnnWorkerInfo *info;
} Proc;

struct _GnnProcessPool
{
  gatomicrefcount ref_count;
  GnnDataLoader  *loader;     /* not owned: only the children emit worker-init */
  GnnDataset     *dataset;
  GnnCollate     *collate;
  guint           num_workers;
  Proc           *procs;
  Control        *control;    /* MAP_SHARED page */
  Shared         *shared;
  struct _Segment **cache;    /* num_workers × SLOTS: the parent's mappings of the slots */
  guint           last_epoch;
  guint           cursor;     /* fairness of receive */
  gboolean        broken;     /* a worker died */
  guint8         *buffer;     /* MAX_MESSAGE bytes for receiving */
};

/* --- the fork function ---------------------------------------------------- */

G_LOCK_DEFINE_STATIC (fork_func);
static GnnWorkerForkFunc fork_func;
static gpointer fork_func_data;
static GDestroyNotify fork_func_notify;

/**
 * gnn_set_worker_fork_func:
 * @func: (nullable) (scope notified) (closure user_data) (destroy notify):
 *   the function that forks worker processes, or %NULL for fork()
 * @user_data: data for @func
 * @notify: (nullable): frees @user_data when the function is replaced
 *
 * Sets how [class@Gnn.DataLoader] forks its worker processes
 * (%GNN_WORKER_MODE_PROCESSES). A plain fork() skips the bookkeeping of
 * language runtimes: the Python binding installs `os.fork()` here when it
 * is imported, so that datasets written in Python work in worker processes.
 * The child returns from @func into the library, runs the worker loop and
 * ends with _exit(); it never returns to the caller's code.
 */
void
gnn_set_worker_fork_func (GnnWorkerForkFunc func,
                          gpointer          user_data,
                          GDestroyNotify    notify)
{
  GDestroyNotify old_notify;
  gpointer old_data;

  G_LOCK (fork_func);
  old_notify = fork_func_notify;
  old_data = fork_func_data;
  fork_func = func;
  fork_func_data = user_data;
  fork_func_notify = notify;
  G_UNLOCK (fork_func);
  if (old_notify != NULL)
    old_notify (old_data);
}

GPid
gnn_worker_fork (void)
{
  GnnWorkerForkFunc func;
  gpointer data;

  /* Never fork with the lock held: the child would inherit it locked. */
  G_LOCK (fork_func);
  func = fork_func;
  data = fork_func_data;
  G_UNLOCK (fork_func);
  return func != NULL ? func (data) : fork ();
}

/* --- messages ------------------------------------------------------------- */

/* Sends a message, with @fd attached unless it is -1. */
static gboolean
send_message (int            sock,
              const Message *m,
              const void    *payload,
              gsize          payload_len,
              int            fd,
              gboolean       block)
{
  struct iovec iov[2] = {
    { (void *) m, sizeof *m },
    { (void *) payload, payload_len },
  };
  union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
  struct msghdr msg = { 0 };
  ssize_t r;

  msg.msg_iov = iov;
  msg.msg_iovlen = payload_len > 0 ? 2 : 1;
  if (fd >= 0)
    {
      struct cmsghdr *c;

      memset (&control, 0, sizeof control);
      msg.msg_control = control.buf;
      msg.msg_controllen = sizeof control.buf;
      c = CMSG_FIRSTHDR (&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN (sizeof (int));
      memcpy (CMSG_DATA (c), &fd, sizeof (int));
    }
  do
    r = sendmsg (sock, &msg, MSG_NOSIGNAL | (block ? 0 : MSG_DONTWAIT));
  while (r < 0 && errno == EINTR);
  return r == (ssize_t) (sizeof *m + payload_len);
}

/* Receives one message into @buf (MAX_MESSAGE bytes); *@fd gets an attached
 * descriptor or -1. Returns the size, 0 at end of stream, -1 on error. */
static ssize_t
receive_message (int    sock,
                 guint8 *buf,
                 int    *fd)
{
  struct iovec iov = { buf, MAX_MESSAGE };
  union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
  struct msghdr msg = { 0 };
  ssize_t r;

  *fd = -1;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof control.buf;
  do
    r = recvmsg (sock, &msg, MSG_CMSG_CLOEXEC);
  while (r < 0 && errno == EINTR);
  if (r > 0)
    for (struct cmsghdr *c = CMSG_FIRSTHDR (&msg); c != NULL; c = CMSG_NXTHDR (&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
        memcpy (fd, CMSG_DATA (c), sizeof (int));
  if (r > 0 && ((msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || r < (ssize_t) sizeof (Message)))
    {
      if (*fd >= 0)
        close (*fd);
      *fd = -1;
      errno = EPROTO;
      return -1;
    }
  return r;
}

/* A new memfd of @size bytes mapped read-write, or -1. */
static int
segment_new (gsize    size,
             guint8 **map)
{
  int fd = memfd_create ("gnn-batch", MFD_CLOEXEC);

  if (fd < 0)
    return -1;
  if (ftruncate (fd, (off_t) size) != 0)
    {
      close (fd);
      return -1;
    }
  *map = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (*map == MAP_FAILED)
    {
      close (fd);
      return -1;
    }
  return fd;
}

static gsize
align_up (gsize n)
{
  return (n + ALIGN - 1) & ~(gsize) (ALIGN - 1);
}

/* --- the child ------------------------------------------------------------ */

/* The worker's slots (only ever used in a child process). */
static struct { int fd; guint8 *map; gsize size; } child_slots[SLOTS];

/* A segment of at least @size bytes: a free slot (*@slot >= 0, *@fresh when
 * it had to be (re)made) or a one-off segment (*@slot = -1). Returns the fd
 * (owned by the slot, or by the caller for a one-off segment). */
static int
child_segment (GnnProcessPool *pool,
               guint           id,
               gsize           size,
               guint8        **map,
               int            *slot,
               gboolean       *fresh)
{
  gint *busy = &pool->control->busy[id * SLOTS];
  int best = -1;

  *fresh = FALSE;
  for (int k = 0; k < SLOTS; k++)
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
    return segment_new (size, map);
  if (child_slots[best].size != size)
    {
      if (child_slots[best].size > 0)
        {
          munmap (child_slots[best].map, child_slots[best].size);
          close (child_slots[best].fd);
          child_slots[best].size = 0;
        }
      child_slots[best].fd = segment_new (size, &child_slots[best].map);
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
write_items (GnnProcessPool *pool,
             guint       id,
             GPtrArray  *items,
             guint       n_fields,
             gsize      *size_out,
             int        *slot,
             gboolean   *fresh,
             GError    **error)
{
  g_autofree GnnFieldPlan *plans = g_new (GnnFieldPlan, MAX (n_fields, 1));
  gsize offset, size;
  SegmentHeader *h;
  SegmentTensor *ts;
  guint8 *map;
  int fd;

  if (!gnn_default_collate_plan (items, n_fields, plans, error))
    return -1;
  size = align_up (sizeof (SegmentHeader) + n_fields * sizeof (SegmentTensor));
  for (guint f = 0; f < n_fields; f++)
    size += align_up (MAX (plans[f].n_bytes, 1));
  fd = child_segment (pool, id, size, &map, slot, fresh);
  if (fd < 0)
    return segment_error (error);
  h = (SegmentHeader *) map;
  ts = (SegmentTensor *) (h + 1);
  h->magic = SEGMENT_MAGIC;
  h->n_tensors = n_fields;
  offset = align_up (sizeof (SegmentHeader) + n_fields * sizeof (SegmentTensor));
  for (guint f = 0; f < n_fields; f++)
    {
      ts[f].dtype = plans[f].dtype;
      ts[f].ndim = plans[f].ndim;
      memcpy (ts[f].shape, plans[f].shape, sizeof ts[f].shape);
      ts[f].offset = offset;
      ts[f].n_bytes = plans[f].n_bytes;
      gnn_default_collate_fill (items, n_fields, f, &plans[f], map + offset);
      offset += align_up (MAX (plans[f].n_bytes, 1));
    }
  if (*slot < 0)
    munmap (map, size);
  *size_out = size;
  return fd;
}

/* Copies a collated batch into a new segment. */
static int
write_batch (GnnProcessPool *pool,
             guint       id,
             GPtrArray  *batch,
             gsize      *size_out,
             int        *slot,
             gboolean   *fresh,
             GError    **error)
{
  gsize offset, size;
  SegmentHeader *h;
  SegmentTensor *ts;
  guint8 *map;
  int fd;

  size = align_up (sizeof (SegmentHeader) + batch->len * sizeof (SegmentTensor));
  for (guint i = 0; i < batch->len; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (g_ptr_array_index (batch, i));

      size += align_up (MAX ((gsize) p->numel * gnn_dtype_get_size (p->dtype), 1));
    }
  fd = child_segment (pool, id, size, &map, slot, fresh);
  if (fd < 0)
    return segment_error (error);
  h = (SegmentHeader *) map;
  ts = (SegmentTensor *) (h + 1);
  h->magic = SEGMENT_MAGIC;
  h->n_tensors = batch->len;
  offset = align_up (sizeof (SegmentHeader) + batch->len * sizeof (SegmentTensor));
  for (guint i = 0; i < batch->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (batch, i);
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
      offset += align_up (MAX (n_bytes, 1));
    }
  if (*slot < 0)
    munmap (map, size);
  *size_out = size;
  return fd;
}

static void
child_send_error (GnnProcessPool *pool,
                  guint           id,
                  int             sock,
                  const Message  *task,
                  GError         *error)
{
  const char *domain = g_quark_to_string (error->domain);
  g_autofree char *text = g_strdup_printf ("DataLoader worker %u (pid %d): %s", id,
                                           (int) getpid (), error->message);
  gsize dlen = strlen (domain) + 1, mlen = MIN (strlen (text), MAX_MESSAGE - sizeof (Message) - dlen - 1);
  g_autofree char *payload = g_malloc (dlen + mlen);
  Message m = { GNN_MSG_ERROR, task->epoch, task->seq, error->code, 0, 0, (guint32) dlen };

  memcpy (payload, domain, dlen);
  memcpy (payload + dlen, text, mlen);
  send_message (sock, &m, payload, dlen + mlen, -1, TRUE);
}

static void
child_run_task (GnnProcessPool  *pool,
                guint            id,
                int              sock,
                const Message   *task,
                const gint64    *indices,
                GnnEpoch       **stream,
                guint           *stream_epoch_id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  gboolean end = FALSE, fresh = FALSE;
  gsize size = 0;
  int fd = -1, slot = -1;

  if (task->n >= 0)
    {
      g_autoptr(GPtrArray) items = NULL;
      guint n_fields = 0;

      items = gnn_fetch_items (pool->dataset, indices, (gsize) task->n,
                               &pool->control->current_epoch, (gint) task->epoch,
                               &n_fields, &error);
      if (items == NULL && g_atomic_int_get (&pool->control->current_epoch) != (gint) task->epoch)
        return;   /* the pass was dropped: nobody waits for this batch */
      if (items != NULL && G_OBJECT_TYPE (pool->collate) == GNN_TYPE_COLLATE)
        {
          fd = write_items (pool, id, items, n_fields, &size, &slot, &fresh, &error);
          if (fd < 0 && !g_error_matches (error, GNN_ERROR, GNN_ERROR_IO))
            g_prefix_error (&error, "collate of the batch starting at sample index %"
                            G_GINT64_FORMAT ": ", indices[0]);
        }
      else if (items != NULL)
        {
          batch = gnn_collate_collate (pool->collate, items, n_fields, &error);
          if (batch != NULL)
            fd = write_batch (pool, id, batch, &size, &slot, &fresh, &error);
          else
            g_prefix_error (&error, "collate of the batch starting at sample index %"
                            G_GINT64_FORMAT ": ", indices[0]);
        }
    }
  else
    {
      /* An iterable dataset: this worker's own stream, new every pass. */
      if (*stream == NULL || *stream_epoch_id != task->epoch)
        {
          g_clear_pointer (stream, gnn_epoch_unref);
          *stream = gnn_epoch_new_iterable (GNN_ITERABLE_DATASET (pool->dataset), pool->collate,
                                            task->batch_size, task->drop_last, 1);
          *stream_epoch_id = task->epoch;
        }
      batch = gnn_epoch_fetch_stream_batch (*stream, 0, &end, &error);
      if (batch != NULL)
        fd = write_batch (pool, id, batch, &size, &slot, &fresh, &error);
    }

  if (error != NULL)
    child_send_error (pool, id, sock, task, error);
  else if (end)
    {
      Message m = { GNN_MSG_END, task->epoch, task->seq, 0, 0, 0, 0 };

      send_message (sock, &m, NULL, 0, -1, TRUE);
    }
  else
    {
      /* extra: the slot + 1 (0: one-off); drop_last: a new segment in the slot */
      Message m = { GNN_MSG_BATCH, task->epoch, task->seq, (gint64) size, 0, fresh,
                    (guint32) (slot + 1) };

      send_message (sock, &m, NULL, 0, slot < 0 || fresh ? fd : -1, TRUE);
    }
  if (fd >= 0 && slot < 0)
    close (fd);
}

G_GNUC_NORETURN static void
child_main (GnnProcessPool *pool,
            guint           id)
{
  Proc *me = &pool->procs[id];
  int sock = me->child_fd;
  guint8 *buf = g_malloc (MAX_MESSAGE);
  GnnEpoch *stream = NULL;
  guint stream_epoch_id = 0;

  /* Only our own end of our own socket: the others' must see end of
   * stream when their owners close them. */
  for (guint i = 0; i < pool->num_workers; i++)
    {
      if (pool->procs[i].fd >= 0)
        close (pool->procs[i].fd);
      if (pool->procs[i].pidfd >= 0)
        close (pool->procs[i].pidfd);
      if (i != id && pool->procs[i].child_fd >= 0)
        close (pool->procs[i].child_fd);
    }
  signal (SIGPIPE, SIG_IGN);
  gnn_worker_info_set_current (me->info);
  gnn_data_loader_emit_worker_init (pool->loader, me->info);

  for (;;)
    {
      const Message *m = (const Message *) buf;
      const gint64 *indices = (const gint64 *) (buf + sizeof (Message));
      gpointer mapped = NULL;
      gsize mapped_size = 0;
      int fd = -1;
      ssize_t r = receive_message (sock, buf, &fd);

      if (r <= 0 || m->type == GNN_MSG_SHUTDOWN)
        break;
      if (m->type != GNN_MSG_TASK || g_atomic_int_get (&pool->control->current_epoch) != (gint) m->epoch)
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
      else if (m->n >= 0 && (gsize) r < sizeof (Message) + (gsize) m->n * sizeof (gint64))
        break;
      child_run_task (pool, id, sock, m, indices, &stream, &stream_epoch_id);
      if (mapped != NULL)
        munmap (mapped, mapped_size);
    }
  /* No cleanup: the parent's state is not ours to finalize. */
  _exit (0);
}

/* --- the parent ----------------------------------------------------------- */

typedef struct _Segment
{
  gatomicrefcount ref_count;
  gpointer        map;
  gsize           size;
} Segment;

/* One batch in a slot: frees the slot when its last tensor goes. */
typedef struct
{
  gatomicrefcount ref_count;
  Segment        *segment;
  Shared         *shared;
  gint           *busy;
} Hold;

static void segment_unref (gpointer data);

static void
hold_unref (gpointer data)
{
  Hold *h = data;

  if (!g_atomic_ref_count_dec (&h->ref_count))
    return;
  g_atomic_int_set (h->busy, 0);
  segment_unref (h->segment);
  shared_unref (h->shared);
  g_free (h);
}

static void
segment_unref (gpointer data)
{
  Segment *s = data;

  if (!g_atomic_ref_count_dec (&s->ref_count))
    return;
  munmap (s->map, s->size);
  g_free (s);
}

/* Maps a received segment (takes @fd). */
static Segment *
segment_map (int      fd,
             gsize    size,
             GError **error)
{
  Segment *seg;
  gpointer map;

  map = size >= sizeof (SegmentHeader)
          ? mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0)
          : MAP_FAILED;
  close (fd);
  if (map == MAP_FAILED)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                   "DataLoader: cannot map a batch from a worker process: %s", g_strerror (errno));
      return NULL;
    }
  seg = g_new (Segment, 1);
  g_atomic_ref_count_init (&seg->ref_count);
  seg->map = map;
  seg->size = size;
  return seg;
}

/* Wraps the tensors of the batch in @seg (takes a reference: @hold's, or
 * @seg's own for a one-off segment). */
static GPtrArray *
map_batch (Segment *seg,
           Hold    *hold,
           GError **error)
{
  g_autoptr(GPtrArray) batch = NULL;
  const SegmentHeader *h;
  const SegmentTensor *ts;
  gpointer map = seg->map, owner = hold != NULL ? (gpointer) hold : (gpointer) seg;
  GDestroyNotify owner_unref = hold != NULL ? hold_unref : segment_unref;
  gsize size = seg->size;

  h = map;
  ts = (const SegmentTensor *) (h + 1);
  if (h->magic != SEGMENT_MAGIC ||
      h->n_tensors > (size - sizeof *h) / sizeof (SegmentTensor))
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
  return g_steal_pointer (&batch);

bad:
  owner_unref (owner);
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER,
                       "DataLoader: a worker process sent a malformed batch");
  return NULL;
}

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

/* Reaps a child that has exited (or is exiting: its socket hung up) and
 * describes how it ended, PyTorch's way. */
static char *
reap (Proc   *p,
      guint   id,
      gboolean block)
{
  GPid pid = p->pid;
  int status = 0;
  pid_t r;

  do
    r = waitpid (pid, &status, block ? 0 : WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == 0)
    return NULL;
  p->pid = 0;
  close_fd (&p->pidfd);
  if (r < 0)   /* reaped elsewhere (SIGCHLD ignored): the status is lost */
    return g_strdup_printf ("DataLoader worker (pid %d) exited unexpectedly (worker %u; "
                            "its exit status is unknown)", (int) pid, id);
  if (WIFSIGNALED (status))
    return g_strdup_printf ("DataLoader worker (pid %d) is killed by signal: %s. (worker %u)",
                            (int) pid, g_strsignal (WTERMSIG (status)), id);
  return g_strdup_printf ("DataLoader worker (pid %d) exited unexpectedly with exit code %d. "
                          "(worker %u)", (int) pid, WEXITSTATUS (status), id);
}

static void
stop_children (GnnProcessPool *pool)
{
  gint64 deadline = g_get_monotonic_time () + SHUTDOWN_GRACE_USEC;
  Message m = { GNN_MSG_SHUTDOWN, 0, 0, 0, 0, 0, 0 };

  g_atomic_int_set (&pool->control->current_epoch, 0);
  for (guint i = 0; i < pool->num_workers; i++)
    {
      Proc *p = &pool->procs[i];

      if (p->fd >= 0)
        send_message (p->fd, &m, NULL, 0, -1, FALSE);
      close_fd (&p->fd);
    }
  for (;;)
    {
      struct pollfd fds[pool->num_workers > 0 ? pool->num_workers : 1];
      guint n = 0, alive = 0;
      gint64 now;

      for (guint i = 0; i < pool->num_workers; i++)
        {
          Proc *p = &pool->procs[i];
          g_autofree char *how = NULL;

          if (p->pid == 0)
            continue;
          how = reap (p, i, FALSE);
          if (p->pid == 0)
            continue;
          alive++;
          if (p->pidfd >= 0)
            fds[n++] = (struct pollfd) { p->pidfd, POLLIN, 0 };
        }
      now = g_get_monotonic_time ();
      if (alive == 0 || now >= deadline)
        break;
      if (n == alive)
        poll (fds, n, (int) ((deadline - now + 999) / 1000));
      else
        g_usleep (1000);   /* no pidfds: short naps */
    }
  for (guint i = 0; i < pool->num_workers; i++)
    {
      Proc *p = &pool->procs[i];

      if (p->pid != 0)
        {
          g_autofree char *how = NULL;

          kill (p->pid, SIGKILL);
          how = reap (p, i, TRUE);
        }
    }
}

GnnProcessPool *
gnn_process_pool_new (GnnDataLoader  *loader,
                      GnnDataset     *dataset,
                      GnnCollate     *collate,
                      guint           num_workers,
                      guint64         base_seed,
                      GError        **error)
{
  GnnProcessPool *pool = g_new0 (GnnProcessPool, 1);
  gpointer control;

  g_atomic_ref_count_init (&pool->ref_count);
  pool->loader = loader;
  pool->dataset = g_object_ref (dataset);
  pool->collate = g_object_ref (collate);
  pool->num_workers = num_workers;
  pool->procs = g_new0 (Proc, num_workers);
  pool->buffer = g_malloc (MAX_MESSAGE);
  for (guint i = 0; i < num_workers; i++)
    {
      pool->procs[i].fd = pool->procs[i].child_fd = pool->procs[i].pidfd = -1;
      pool->procs[i].info = gnn_worker_info_new (i, num_workers, base_seed + i, dataset);
    }
  control = mmap (NULL, sizeof (Control) + num_workers * SLOTS * sizeof (gint),
                  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (control == MAP_FAILED)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                   "DataLoader: cannot map shared memory for the workers: %s", g_strerror (errno));
      gnn_process_pool_unref (pool);
      return NULL;
    }
  pool->control = control;
  pool->shared = g_new (Shared, 1);
  g_atomic_ref_count_init (&pool->shared->ref_count);
  pool->shared->control = control;
  pool->shared->size = sizeof (Control) + num_workers * SLOTS * sizeof (gint);
  pool->cache = g_new0 (Segment *, num_workers * SLOTS);
  for (guint i = 0; i < num_workers; i++)
    {
      int sv[2];

      if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                       "DataLoader: cannot create a socket for worker %u: %s", i, g_strerror (errno));
          gnn_process_pool_unref (pool);
          return NULL;
        }
      pool->procs[i].fd = sv[0];
      pool->procs[i].child_fd = sv[1];
    }
  for (guint i = 0; i < num_workers; i++)
    {
      Proc *p = &pool->procs[i];
      GPid pid = gnn_worker_fork ();

      if (pid == 0)
        child_main (pool, i);
      if (pid < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                       "DataLoader: cannot fork worker process %u: %s", i, g_strerror (errno));
          gnn_process_pool_unref (pool);
          return NULL;
        }
      p->pid = pid;
#ifdef SYS_pidfd_open
      p->pidfd = (int) syscall (SYS_pidfd_open, (pid_t) pid, 0);
#endif
    }
  for (guint i = 0; i < num_workers; i++)
    close_fd (&pool->procs[i].child_fd);
  return pool;
}

GnnProcessPool *
gnn_process_pool_ref (GnnProcessPool *pool)
{
  g_atomic_ref_count_inc (&pool->ref_count);
  return pool;
}

void
gnn_process_pool_unref (GnnProcessPool *pool)
{
  if (!g_atomic_ref_count_dec (&pool->ref_count))
    return;
  if (pool->control != NULL)
    stop_children (pool);
  for (guint i = 0; i < pool->num_workers; i++)
    {
      Proc *p = &pool->procs[i];

      close_fd (&p->fd);
      close_fd (&p->child_fd);
      close_fd (&p->pidfd);
      g_object_unref (p->info);
    }
  for (guint i = 0; pool->cache != NULL && i < pool->num_workers * SLOTS; i++)
    g_clear_pointer (&pool->cache[i], segment_unref);
  g_free (pool->cache);
  if (pool->shared != NULL)
    shared_unref (pool->shared);
  g_free (pool->procs);
  g_free (pool->buffer);
  g_object_unref (pool->dataset);
  g_object_unref (pool->collate);
  g_free (pool);
}

guint
gnn_process_pool_get_size (GnnProcessPool *pool)
{
  return pool->num_workers;
}

gboolean
gnn_process_pool_is_usable (GnnProcessPool *pool,
                            GnnDataset     *dataset,
                            GnnCollate     *collate)
{
  if (pool->broken || pool->dataset != dataset)
    return FALSE;
  /* A default collation is as good as another. */
  if (pool->collate != collate &&
      !(G_OBJECT_TYPE (pool->collate) == GNN_TYPE_COLLATE && G_OBJECT_TYPE (collate) == GNN_TYPE_COLLATE))
    return FALSE;
  return TRUE;
}

guint
gnn_process_pool_begin_epoch (GnnProcessPool *pool)
{
  if (++pool->last_epoch == 0 || pool->last_epoch > G_MAXINT)
    pool->last_epoch = 1;
  g_atomic_int_set (&pool->control->current_epoch, (gint) pool->last_epoch);
  return pool->last_epoch;
}

void
gnn_process_pool_end_epoch (GnnProcessPool *pool,
                            guint           epoch_id)
{
  g_atomic_int_compare_and_exchange (&pool->control->current_epoch, (gint) epoch_id, 0);
}

void
gnn_process_pool_submit (GnnProcessPool *pool,
                         guint           worker,
                         GnnEpoch       *epoch,
                         guint           epoch_id,
                         gsize           seq)
{
  Proc *p = &pool->procs[worker];
  Message m = { GNN_MSG_TASK, epoch_id, seq, -1, epoch->batch_size, epoch->drop_last, 0 };
  const gint64 *indices = NULL;
  gsize count = 0;

  if (p->fd < 0)
    return;
  if (!epoch->iterable)
    {
      gsize start = seq * epoch->batch_size;

      count = MIN (epoch->batch_size, epoch->n_indices - start);
      indices = epoch->indices + start;
      m.n = (gint64) count;
    }
  if (count <= INLINE_INDICES)
    send_message (p->fd, &m, indices, count * sizeof (gint64), -1, TRUE);
  else
    {
      guint8 *map;
      int fd = segment_new (count * sizeof (gint64), &map);

      if (fd < 0)
        return;   /* the batch never comes: a timeout, if one is set */
      memcpy (map, indices, count * sizeof (gint64));
      munmap (map, count * sizeof (gint64));
      send_message (p->fd, &m, NULL, 0, fd, TRUE);
      close (fd);
    }
  /* A failed send means the worker died: receive reports it. */
}

/* Reads one message from worker @i: a result of pass @epoch_id, or NULL
 * (stale or unusable; *@dead set when the socket is closed). */
static GnnBatchResult *
read_result (GnnProcessPool  *pool,
             guint            i,
             guint            epoch_id,
             gboolean        *dead,
             GError         **error)
{
  const Message *m = (const Message *) pool->buffer;
  GnnBatchResult *r;
  int fd = -1;
  ssize_t n = receive_message (pool->procs[i].fd, pool->buffer, &fd);

  if (n <= 0)
    {
      *dead = TRUE;
      return NULL;
    }
  if (m->type == GNN_MSG_BATCH && m->extra > 0 && m->extra <= SLOTS)
    {
      guint k = i * SLOTS + m->extra - 1;

      if (m->drop_last)   /* a new segment in this slot */
        {
          g_clear_pointer (&pool->cache[k], segment_unref);
          if (fd >= 0)
            pool->cache[k] = segment_map (fd, (gsize) m->n, NULL);
          fd = -1;
        }
      if (m->epoch != epoch_id || pool->cache[k] == NULL)   /* stale: free the slot */
        g_atomic_int_set (&pool->control->busy[k], 0);
    }
  if (m->epoch != epoch_id)
    {
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  r = g_new0 (GnnBatchResult, 1);
  r->seq = m->seq;
  r->worker = i;
  switch (m->type)
    {
    case GNN_MSG_BATCH:
      if (m->extra > 0 && m->extra <= SLOTS && pool->cache[i * SLOTS + m->extra - 1] != NULL)
        {
          Hold *hold = g_new (Hold, 1);
          guint k = i * SLOTS + m->extra - 1;

          g_atomic_ref_count_init (&hold->ref_count);
          hold->segment = pool->cache[k];
          g_atomic_ref_count_inc (&hold->segment->ref_count);
          hold->shared = shared_ref (pool->shared);
          hold->busy = &pool->control->busy[k];
          r->batch = map_batch (hold->segment, hold, &r->error);
        }
      else if (m->extra == 0 && fd >= 0)
        {
          Segment *seg = segment_map (fd, (gsize) m->n, &r->error);

          fd = -1;
          if (seg != NULL)
            r->batch = map_batch (seg, NULL, &r->error);
        }
      else
        r->error = g_error_new (GNN_ERROR, GNN_ERROR_WORKER,
                                "DataLoader worker %u sent a batch without its segment", i);
      if (fd >= 0)
        close (fd);
      break;
    case GNN_MSG_END:
      r->end = TRUE;
      break;
    case GNN_MSG_ERROR:
      {
        const char *payload = (const char *) (m + 1);
        gsize len = (gsize) n - sizeof *m;

        if (m->extra == 0 || m->extra > len || payload[m->extra - 1] != '\0')
          r->error = g_error_new (GNN_ERROR, GNN_ERROR_WORKER,
                                  "DataLoader worker %u failed (malformed error report)", i);
        else
          {
            g_autofree char *text = g_strndup (payload + m->extra, len - m->extra);

            r->error = g_error_new_literal (g_quark_from_string (payload), (gint) m->n, text);
          }
        if (fd >= 0)
          close (fd);
      }
      break;
    default:
      if (fd >= 0)
        close (fd);
      r->error = g_error_new (GNN_ERROR, GNN_ERROR_WORKER,
                              "DataLoader worker %u sent an unknown message", i);
    }
  return r;
}

static GError *
death_error (GnnProcessPool *pool,
             guint           i,
             gboolean        block)
{
  g_autofree char *how = reap (&pool->procs[i], i, block);

  if (how == NULL)
    return NULL;
  pool->broken = TRUE;
  close_fd (&pool->procs[i].fd);
  return g_error_new_literal (GNN_ERROR, GNN_ERROR_WORKER, how);
}

GnnBatchResult *
gnn_process_pool_receive (GnnProcessPool  *pool,
                          guint            epoch_id,
                          gint64           deadline,
                          GError         **error)
{
  guint n = pool->num_workers;
  struct pollfd fds[2 * (n > 0 ? n : 1)];

  for (;;)
    {
      int timeout_ms = -1, r;

      if (pool->broken)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER,
                               "DataLoader worker processes are gone (one died earlier)");
          return NULL;
        }
      if (deadline != 0)
        {
          gint64 remaining = deadline - g_get_monotonic_time ();

          if (remaining <= 0)
            return NULL;
          timeout_ms = (int) MIN ((remaining + 999) / 1000, G_MAXINT);
        }
      for (guint i = 0; i < n; i++)
        {
          fds[2 * i] = (struct pollfd) { pool->procs[i].fd, POLLIN, 0 };
          fds[2 * i + 1] = (struct pollfd) { pool->procs[i].pidfd, POLLIN, 0 };
        }
      r = poll (fds, 2 * n, timeout_ms);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                       "DataLoader: waiting for the workers failed: %s", g_strerror (errno));
          return NULL;
        }
      /* Results first (a worker may have sent some before dying). */
      for (guint k = 0; k < n; k++)
        {
          guint i = (pool->cursor + k) % n;

          if (fds[2 * i].revents & POLLIN)
            {
              gboolean dead = FALSE;
              GnnBatchResult *res = read_result (pool, i, epoch_id, &dead, error);

              pool->cursor = (i + 1) % n;
              if (res != NULL)
                return res;
              if (dead)
                {
                  GError *err = death_error (pool, i, TRUE);

                  g_propagate_error (error, err != NULL ? err :
                                     g_error_new (GNN_ERROR, GNN_ERROR_WORKER,
                                                  "DataLoader worker %u closed its socket", i));
                  return NULL;
                }
            }
        }
      for (guint i = 0; i < n; i++)
        {
          GError *err = NULL;

          if (fds[2 * i + 1].revents & POLLIN)
            err = death_error (pool, i, FALSE);
          else if ((fds[2 * i].revents & (POLLHUP | POLLERR)) && !(fds[2 * i].revents & POLLIN))
            err = death_error (pool, i, TRUE);
          if (err != NULL)
            {
              g_propagate_error (error, err);
              return NULL;
            }
        }
    }
}
