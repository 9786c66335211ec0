/* gnn-process-backend.c: worker processes of a data loader, forked
 * (PROCESSES) or spawned (SPAWN, see gnn-spawn.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The children are started when the backend is created (at the start of a
 * pass, or once for persistent workers). Forked ones inherit the dataset,
 * the collation and the loader's signal handlers; spawned ones rebuild the
 * first two from a setup message and answer READY (or an error) before the
 * backend is handed out. Both then run gnn_process_worker_main(). Each worker has one
 * SOCK_SEQPACKET socket: the parent sends tasks (pass id, sequence number,
 * indices), the child answers with a message and, for a batch, a memfd
 * holding it (a header describing the tensors, then their data, 64-byte
 * aligned), passed with SCM_RIGHTS. The parent maps the segment, closes the
 * descriptor, and wraps each tensor around its part of the mapping; the
 * mapping goes away when the last of those tensors is freed. The default
 * collation stacks the items straight into the segment (one copy of the
 * data in all).
 *
 * A page of shared memory (a memfd, mapped by every child) holds the current pass
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "data/gnn-process-private.h"

/* How long stopping children waits before it kills them. */
#define GNN_PROCESS_SHUTDOWN_GRACE_USEC (500 * 1000)

typedef struct
{
  GPid           pid;        /* 0 once reaped */
  int            fd;         /* parent's end */
  int            child_fd;   /* child's end (closed in the parent after the fork) */
  int            pidfd;      /* -1 without pidfd_open */
  GnnWorkerInfo *info;
  GQueue         pending;    /* sequence numbers sent and not answered, oldest first */
  GQueue         unsent;     /* tasks its full socket could not take yet, oldest first */
} Proc;

typedef struct
{
  GnnWorkerBackend parent;
  GnnWorkerInitFunc worker_init;   /* only the children run it */
  gpointer        worker_init_data;
  GnnDataset     *dataset;
  GnnCollate     *collate;
  guint           num_workers;
  Proc           *procs;
  GnnWireControl        *control;    /* MAP_SHARED page */
  GnnProcessShared *shared;
  GnnProcessSegment **cache;    /* num_workers × GNN_WIRE_SLOTS: the parent's mappings of the slots */
  guint           last_epoch;
  guint           cursor;     /* fairness of receive */
  gboolean        broken;     /* a worker died */
  GError         *lost_task;  /* a task that could not be sent: receive reports it */
  guint8         *buffer;     /* GNN_WIRE_MAX_MESSAGE bytes for receiving */
} GnnProcessPool;

/* --- the parent ----------------------------------------------------------- */
/* --- the parent ----------------------------------------------------------- */

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
  gint64 deadline = g_get_monotonic_time () + GNN_PROCESS_SHUTDOWN_GRACE_USEC;
  GnnWireMessage m = { GNN_MSG_SHUTDOWN, 0, 0, 0, 0, 0, 0 };

  g_atomic_int_set (&pool->control->current_epoch, 0);
  for (guint i = 0; i < pool->num_workers; i++)
    {
      Proc *p = &pool->procs[i];

      if (p->fd >= 0)
        gnn_wire_send (p->fd, &m, NULL, 0, -1, FALSE);
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

static GnnBatchResult *read_result (GnnProcessPool *pool, guint i, guint epoch_id,
                                    gboolean *dead, gboolean *unreadable, GError **error);
static GError *death_error (GnnProcessPool *pool, guint i, gboolean block, GnnEpoch *epoch);
static GError *unreadable_error (GnnProcessPool *pool, guint i, int saved_errno);

/* Sends each spawned worker its setup and waits until it has rebuilt the
 * dataset: a failure there (type not registered, a constructor error,
 * the process dying) is an error of the loader's start. The loader's
 * timeout (torch's also covers its workers' start) bounds the wait: a
 * worker stuck importing the main script must not hang the caller. */
static gboolean
spawn_handshake (GnnProcessPool  *pool,
                 GVariant        *setup,
                 GArray          *fds,
                 guint64          base_seed,
                 double           timeout,
                 GError         **error)
{
  gint64 deadline = timeout > 0 && timeout < 1e12
                    ? g_get_monotonic_time () + (gint64) (timeout * G_USEC_PER_SEC) : 0;

  for (guint i = 0; i < pool->num_workers; i++)
    if (!gnn_spawn_send_setup (pool->procs[i].fd, setup, fds, i, pool->num_workers, base_seed + i,
                               error))
      return FALSE;
  for (guint i = 0; i < pool->num_workers; i++)
    {
      Proc *p = &pool->procs[i];
      g_autoptr(GError) local = NULL;
      GnnBatchResult *r = NULL;
      gboolean dead = FALSE, unreadable = FALSE;

      while (r == NULL && !dead && !unreadable && local == NULL)
        {
          struct pollfd fds[2] = { { p->fd, POLLIN, 0 }, { p->pidfd, POLLIN, 0 } };
          gint64 left = deadline != 0 ? deadline - g_get_monotonic_time () : -1;
          int ready;

          if (deadline != 0 && left <= 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT,
                           "DataLoader timed out after %g seconds: spawned worker %u (pid %d) "
                           "had not finished starting (rebuilding the dataset)", timeout, i,
                           (int) p->pid);
              return FALSE;
            }
          ready = poll (fds, 2, deadline != 0 ? (int) MIN ((left + 999) / 1000, G_MAXINT) : -1);
          if (ready < 0 && errno != EINTR)
            dead = TRUE;
          else if (ready <= 0)
            continue;
          else if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
            r = read_result (pool, i, 0, &dead, &unreadable, &local);
          else if (fds[1].revents & POLLIN)
            dead = TRUE;
        }
      if (unreadable)
        local = unreadable_error (pool, i, errno);
      if (r != NULL && r->error != NULL)
        local = g_steal_pointer (&r->error);
      g_clear_pointer (&r, gnn_batch_result_free);
      if (local == NULL && dead)
        local = death_error (pool, i, TRUE, NULL);
      if (local == NULL && dead)
        local = g_error_new (GNN_ERROR, GNN_ERROR_WORKER, "DataLoader worker %u did not start", i);
      if (local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
    }
  return TRUE;
}

/* The forked child: only its own end of its own socket stays open (the
 * others' must see end of stream when their owners close them), then it
 * serves and exits without finalizing the parent's state. */
G_GNUC_NORETURN static void
child_main (GnnProcessPool *pool,
            guint           id)
{
  GnnProcessWorker w = { id, pool->procs[id].child_fd, pool->control, pool->dataset,
                         pool->collate, pool->procs[id].info, pool->worker_init,
                         pool->worker_init_data };

  for (guint i = 0; i < pool->num_workers; i++)
    {
      if (pool->procs[i].fd >= 0)
        close (pool->procs[i].fd);
      if (pool->procs[i].pidfd >= 0)
        close (pool->procs[i].pidfd);
      if (i != id && pool->procs[i].child_fd >= 0)
        close (pool->procs[i].child_fd);
    }
  gnn_process_worker_main (&w);
  _exit (0);
}

static const GnnWorkerBackendVTable process_vtable;
static void process_free (GnnWorkerBackend *backend);

GnnWorkerBackend *
gnn_process_backend_new (const GnnWorkerSetup  *setup,
                         gboolean               spawn,
                         GError               **error)
{
  GnnProcessPool *pool = g_new0 (GnnProcessPool, 1);
  GnnDataset *dataset = setup->dataset;
  GnnCollate *collate = setup->collate;
  guint num_workers = setup->num_workers;
  guint64 base_seed = setup->base_seed;
  g_autoptr(GVariant) spawn_setup = NULL;
  g_autoptr(GArray) spawn_fds = NULL;
  gpointer control;
  gsize control_size;
  int control_fd;

  if (spawn)
    {
      /* A dataset that cannot be rebuilt fails here, before any process. */
      spawn_fds = gnn_spawn_fds_new ();
      spawn_setup = gnn_spawn_setup_new (setup, spawn_fds, error);
      if (spawn_setup == NULL)
        {
          g_free (pool);
          return NULL;
        }
    }
  gnn_worker_backend_init (&pool->parent, &process_vtable, num_workers);
  pool->worker_init = setup->worker_init;
  pool->worker_init_data = setup->worker_init_data;
  pool->dataset = g_object_ref (dataset);
  pool->collate = g_object_ref (collate);
  pool->num_workers = num_workers;
  pool->procs = g_new0 (Proc, num_workers);
  pool->buffer = g_malloc (GNN_WIRE_MAX_MESSAGE);
  for (guint i = 0; i < num_workers; i++)
    {
      pool->procs[i].fd = pool->procs[i].child_fd = pool->procs[i].pidfd = -1;
      pool->procs[i].info = gnn_worker_info_new (i, num_workers, base_seed + i, dataset);
    }
  /* The control page is a memfd, so that a spawned worker can map it too. */
  control_size = sizeof (GnnWireControl) + num_workers * GNN_WIRE_SLOTS * sizeof (gint);
  control_fd = gnn_wire_memfd_new ("gnn-control", control_size, (guint8 **) &control);
  if (control_fd < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                   "DataLoader: cannot map shared memory for the workers: %s", g_strerror (errno));
      process_free (&pool->parent);
      return NULL;
    }
  pool->control = control;
  pool->shared = gnn_process_shared_new (control, control_size);
  pool->cache = g_new0 (GnnProcessSegment *, num_workers * GNN_WIRE_SLOTS);
  for (guint i = 0; i < num_workers; i++)
    {
      int sv[2];

      if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                       "DataLoader: cannot create a socket for worker %u: %s", i, g_strerror (errno));
          close (control_fd);
          process_free (&pool->parent);
          return NULL;
        }
      pool->procs[i].fd = sv[0];
      pool->procs[i].child_fd = sv[1];
    }
  for (guint i = 0; i < num_workers; i++)
    {
      Proc *p = &pool->procs[i];
      GPid pid;

      if (spawn)
        pid = gnn_spawn_worker_start (p->child_fd, control_fd, error);
      else
        {
          pid = gnn_worker_fork ();
          if (pid == 0)
            child_main (pool, i);
          if (pid < 0)
            g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER,
                         "DataLoader: cannot fork worker process %u: %s", i, g_strerror (errno));
        }
      if (pid <= 0)
        {
          close (control_fd);
          process_free (&pool->parent);
          return NULL;
        }
      p->pid = pid;
#ifdef SYS_pidfd_open
      p->pidfd = (int) syscall (SYS_pidfd_open, (pid_t) pid, 0);
#endif
    }
  close (control_fd);
  for (guint i = 0; i < num_workers; i++)
    close_fd (&pool->procs[i].child_fd);
  if (spawn && !spawn_handshake (pool, spawn_setup, spawn_fds, base_seed, setup->timeout, error))
    {
      process_free (&pool->parent);
      return NULL;
    }
  return &pool->parent;
}

static void
process_free (GnnWorkerBackend *backend)
{
  GnnProcessPool *pool = (GnnProcessPool *) backend;

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
  for (guint i = 0; pool->cache != NULL && i < pool->num_workers * GNN_WIRE_SLOTS; i++)
    g_clear_pointer (&pool->cache[i], gnn_process_segment_unref);
  g_free (pool->cache);
  if (pool->shared != NULL)
    gnn_process_shared_unref (pool->shared);
  for (guint i = 0; pool->procs != NULL && i < pool->num_workers; i++)
    {
      g_queue_clear (&pool->procs[i].pending);
      g_queue_clear (&pool->procs[i].unsent);
    }
  g_free (pool->procs);
  g_free (pool->buffer);
  g_clear_error (&pool->lost_task);
  g_object_unref (pool->dataset);
  g_object_unref (pool->collate);
  g_free (pool);
}

static gboolean
process_fits (GnnWorkerBackend *backend,
              GnnDataset       *dataset,
              GnnCollate       *collate)
{
  GnnProcessPool *pool = (GnnProcessPool *) backend;

  if (pool->broken || pool->dataset != dataset)
    return FALSE;
  /* A default collation is as good as another. */
  if (pool->collate != collate &&
      !(G_OBJECT_TYPE (pool->collate) == GNN_TYPE_COLLATE && G_OBJECT_TYPE (collate) == GNN_TYPE_COLLATE))
    return FALSE;
  return TRUE;
}

static guint
process_begin (GnnWorkerBackend *backend,
               GnnEpoch         *epoch)
{
  GnnProcessPool *pool = (GnnProcessPool *) backend;

  if (++pool->last_epoch == 0 || pool->last_epoch > G_MAXINT)
    pool->last_epoch = 1;
  for (guint i = 0; i < pool->num_workers; i++)
    {
      g_queue_clear (&pool->procs[i].pending);
      g_queue_clear (&pool->procs[i].unsent);
    }
  g_atomic_int_set (&pool->control->current_epoch, (gint) pool->last_epoch);
  return pool->last_epoch;
}

/* Dropping the pass makes the children skip its tasks; a child stuck in
 * the dataset is killed when the backend goes (after a short grace). */
static char *
process_stop (GnnWorkerBackend *backend,
              GnnEpoch         *epoch,
              guint             pass,
              gboolean          abandon)
{
  GnnProcessPool *pool = (GnnProcessPool *) backend;

  g_atomic_int_compare_and_exchange (&pool->control->current_epoch, (gint) pass, 0);
  for (guint i = 0; i < pool->num_workers; i++)
    g_queue_clear (&pool->procs[i].unsent);
  if (abandon)
    pool->broken = TRUE;
  return NULL;
}

typedef enum { TASK_SENT, TASK_WOULD_BLOCK, TASK_FAILED } TaskSend;

/* Sends task @seq of pass @epoch_id to worker @worker without waiting:
 * a stuck worker whose socket is full must not block the parent (its
 * tasks wait in `unsent`, and receive's timeout still fires). A failure
 * other than a dead worker (whose receive reports how it ended) loses the
 * task: it is kept for receive to report, since nothing would answer it. */
static TaskSend
send_task (GnnProcessPool *pool,
           guint           worker,
           GnnEpoch       *epoch,
           guint           epoch_id,
           gsize           seq)
{
  Proc *p = &pool->procs[worker];
  GnnWireMessage m = { GNN_MSG_TASK, epoch_id, seq, epoch->iterable ? -1 - epoch->skip[worker] : -1,
                epoch->batch_size, epoch->drop_last, 0, epoch->sample_seed };
  const gint64 *indices = NULL;
  gsize count = 0;
  gboolean sent = FALSE;
  int saved;

  if (p->fd < 0)
    return TASK_FAILED;
  if (!epoch->iterable)
    {
      gsize start = seq * epoch->batch_size;

      count = MIN (epoch->batch_size, epoch->n_indices - start);
      indices = epoch->indices + start;
      m.n = (gint64) count;
    }
  if (count <= GNN_WIRE_INLINE_INDICES)
    sent = gnn_wire_send (p->fd, &m, indices, count * sizeof (gint64), -1, FALSE);
  else
    {
      guint8 *map;
      int fd = gnn_wire_segment_new (count * sizeof (gint64), &map);

      if (fd >= 0)
        {
          memcpy (map, indices, count * sizeof (gint64));
          munmap (map, count * sizeof (gint64));
          sent = gnn_wire_send (p->fd, &m, NULL, 0, fd, FALSE);
          saved = errno;
          close (fd);
          errno = saved;
        }
    }
  if (sent)
    {
      g_queue_push_tail (&p->pending, GSIZE_TO_POINTER (seq));
      return TASK_SENT;
    }
  if (errno == EAGAIN || errno == EWOULDBLOCK)
    return TASK_WOULD_BLOCK;
  if (errno != EPIPE && errno != ECONNRESET && pool->lost_task == NULL)
    {
      saved = errno;
      if (indices != NULL)
        pool->lost_task = g_error_new (GNN_ERROR, GNN_ERROR_WORKER,
                                       "DataLoader: the batch of index %" G_GINT64_FORMAT
                                       " could not be sent to worker %u: %s", indices[0], worker,
                                       g_strerror (saved));
      else
        pool->lost_task = g_error_new (GNN_ERROR, GNN_ERROR_WORKER,
                                       "DataLoader: a task could not be sent to worker %u: %s",
                                       worker, g_strerror (saved));
    }
  return TASK_FAILED;
}

/* Sends worker @worker's waiting tasks, in order, as far as its socket takes them. */
static void
flush_unsent (GnnProcessPool *pool,
              guint           worker,
              GnnEpoch       *epoch,
              guint           epoch_id)
{
  Proc *p = &pool->procs[worker];

  while (!g_queue_is_empty (&p->unsent))
    {
      gsize seq = GPOINTER_TO_SIZE (g_queue_peek_head (&p->unsent));

      if (send_task (pool, worker, epoch, epoch_id, seq) == TASK_WOULD_BLOCK)
        return;
      g_queue_pop_head (&p->unsent);
    }
}

static void
process_submit (GnnWorkerBackend *backend,
                guint             worker,
                GnnEpoch         *epoch,
                guint             epoch_id,
                gsize             seq)
{
  GnnProcessPool *pool = (GnnProcessPool *) backend;
  Proc *p = &pool->procs[worker];

  if (!g_queue_is_empty (&p->unsent) ||
      send_task (pool, worker, epoch, epoch_id, seq) == TASK_WOULD_BLOCK)
    g_queue_push_tail (&p->unsent, GSIZE_TO_POINTER (seq));
}

/* Reads one message from worker @i: a result of pass @epoch_id, or NULL
 * (stale or unusable; *@dead set when the socket is closed, *@unreadable
 * with errno when a message could not be received from a live worker). */
static GnnBatchResult *
read_result (GnnProcessPool  *pool,
             guint            i,
             guint            epoch_id,
             gboolean        *dead,
             gboolean        *unreadable,
             GError         **error)
{
  const GnnWireMessage *m = (const GnnWireMessage *) pool->buffer;
  GnnBatchResult *r;
  int fd = -1;
  ssize_t n = gnn_wire_receive (pool->procs[i].fd, pool->buffer, &fd);

  if (n <= 0)
    {
      /* a killed worker's socket reads as reset, not as ended */
      *unreadable = n < 0 && errno != ECONNRESET && errno != EPIPE;
      *dead = !*unreadable;
      return NULL;
    }
  if (m->type == GNN_MSG_BATCH && m->extra > 0 && m->extra <= GNN_WIRE_SLOTS)
    {
      guint k = i * GNN_WIRE_SLOTS + m->extra - 1;

      if (m->drop_last)   /* a new segment in this slot */
        {
          g_clear_pointer (&pool->cache[k], gnn_process_segment_unref);
          if (fd >= 0)
            pool->cache[k] = gnn_process_segment_map (fd, (gsize) m->n, NULL);
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
  g_queue_remove (&pool->procs[i].pending, GSIZE_TO_POINTER ((gsize) m->seq));
  r = g_new0 (GnnBatchResult, 1);
  r->seq = m->seq;
  r->worker = i;
  switch (m->type)
    {
    case GNN_MSG_BATCH:
      if (m->extra > 0 && m->extra <= GNN_WIRE_SLOTS && pool->cache[i * GNN_WIRE_SLOTS + m->extra - 1] != NULL)
        {
          guint k = i * GNN_WIRE_SLOTS + m->extra - 1;

          r->batch = gnn_process_segment_wrap_slot (pool->cache[k], pool->shared,
                                                    &pool->control->busy[k], &r->error);
        }
      else if (m->extra == 0 && fd >= 0)
        {
          GnnProcessSegment *seg = gnn_process_segment_map (fd, (gsize) m->n, &r->error);

          fd = -1;
          if (seg != NULL)
            r->batch = gnn_process_segment_wrap (seg, &r->error);
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
    case GNN_MSG_READY:
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

/* How worker @i ended (NULL while it runs), PyTorch's way, and the batch
 * it was working on: the first sample index of its oldest unanswered task
 * of @epoch (its stream's batch for an iterable dataset). */
static GError *
death_error (GnnProcessPool *pool,
             guint           i,
             gboolean        block,
             GnnEpoch       *epoch)
{
  Proc *p = &pool->procs[i];
  g_autofree char *how = reap (p, i, block);

  if (how == NULL)
    return NULL;
  pool->broken = TRUE;
  close_fd (&p->fd);
  if (epoch != NULL && !g_queue_is_empty (&p->pending))
    {
      gsize seq = GPOINTER_TO_SIZE (g_queue_peek_head (&p->pending));
      gsize start = seq * epoch->batch_size;

      if (!epoch->iterable && start < epoch->n_indices)
        return g_error_new (GNN_ERROR, GNN_ERROR_WORKER, "%s while loading the batch of sample "
                            "index %" G_GINT64_FORMAT, how, epoch->indices[start]);
      if (epoch->iterable)
        return g_error_new (GNN_ERROR, GNN_ERROR_WORKER, "%s while loading batch %" G_GSIZE_FORMAT
                            " of the pass", how, seq);
    }
  return g_error_new_literal (GNN_ERROR, GNN_ERROR_WORKER, how);
}

/* A message from live worker @i could not be received (a descriptor the
 * parent had no room for, a truncated or short message): its stream is
 * lost, so the worker is stopped (it would wait for tasks forever) and
 * reaped. */
static GError *
unreadable_error (GnnProcessPool *pool,
                  guint           i,
                  int             saved_errno)
{
  Proc *p = &pool->procs[i];
  GPid pid = p->pid;

  if (pid > 0)
    {
      (void) kill (pid, SIGKILL);
      g_free (reap (p, i, TRUE));
    }
  pool->broken = TRUE;
  close_fd (&p->fd);
  return g_error_new (GNN_ERROR, GNN_ERROR_WORKER,
                      "DataLoader worker %u (pid %d) sent a message that could not be received "
                      "(%s); the worker was stopped", i, (int) pid, g_strerror (saved_errno));
}

static GnnBatchResult *
process_receive (GnnWorkerBackend  *backend,
                 GnnEpoch          *epoch,
                 guint              epoch_id,
                 gint64             deadline,
                 GError           **error)
{
  GnnProcessPool *pool = (GnnProcessPool *) backend;
  guint n = pool->num_workers;
  struct pollfd fds[2 * (n > 0 ? n : 1)];
  gboolean polled_late = FALSE;

  for (;;)
    {
      int timeout_ms = -1, r;

      if (pool->lost_task != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&pool->lost_task));
          return NULL;
        }
      if (pool->broken)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER,
                               "DataLoader worker processes are gone (one died earlier)");
          return NULL;
        }
      if (deadline != 0)
        {
          gint64 remaining = deadline - g_get_monotonic_time ();

          if (remaining <= 0 && polled_late)
            return NULL;
          /* past the deadline, one look without waiting: a result already
           * there is still taken */
          polled_late = remaining <= 0;
          timeout_ms = remaining <= 0 ? 0 : (int) MIN ((remaining + 999) / 1000, G_MAXINT);
        }
      for (guint i = 0; i < n; i++)
        {
          flush_unsent (pool, i, epoch, epoch_id);
          fds[2 * i] = (struct pollfd) { pool->procs[i].fd, POLLIN, 0 };
          if (!g_queue_is_empty (&pool->procs[i].unsent))
            fds[2 * i].events |= POLLOUT;   /* wake up when it takes the next task */
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
              gboolean dead = FALSE, unreadable = FALSE;
              GnnBatchResult *res = read_result (pool, i, epoch_id, &dead, &unreadable, error);

              pool->cursor = (i + 1) % n;
              if (res != NULL)
                return res;
              if (unreadable)
                {
                  g_propagate_error (error, unreadable_error (pool, i, errno));
                  return NULL;
                }
              if (dead)
                {
                  GError *err = death_error (pool, i, TRUE, epoch);

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
            err = death_error (pool, i, FALSE, epoch);
          else if ((fds[2 * i].revents & (POLLHUP | POLLERR)) && !(fds[2 * i].revents & POLLIN))
            err = death_error (pool, i, TRUE, epoch);
          if (err != NULL)
            {
              g_propagate_error (error, err);
              return NULL;
            }
        }
    }
}

static const GnnWorkerBackendVTable process_vtable = {
  process_begin, process_submit, process_receive, process_stop, process_fits, process_free,
};
