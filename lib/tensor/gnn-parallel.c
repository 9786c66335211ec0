/* gnn-parallel.c: the intra-op thread pool (gnn-parallel-private.h) and
 * gnn_set_num_threads () / gnn_get_num_threads ()
 *
 * gnn-gemm-parallel.c splits matrix products on the same pool.
 *
 * The workers are started on the first parallel region and then sleep on a
 * condition variable between regions: a region costs one broadcast and one
 * wake-up of the caller, ~10–50 µs, so kernels only split loops of a few
 * hundred microseconds or more (their @grain). Workers never spin: on this
 * library's target machines (few cores) a spinning thread takes the core
 * that OpenBLAS or another process needs.
 *
 * fork(): the region lock is fork-safe (taken around fork(), so no region
 * runs while a child is made), and the child, which has none of the
 * parent's worker threads, starts with an empty pool of its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <string.h>
#include <cblas.h>

#include "core/gnn-fork-private.h"
#include "tensor/gnn-parallel-private.h"
#include <gnn/gnn-error.h>
#include <gnn/gnn-threads.h>

/* The most threads gnn_set_num_threads () accepts: far above any core
 * count this library runs on, low enough that a typo cannot start
 * millions of threads. */
#define MAX_THREADS 1024

typedef struct
{
  GMutex lock;
  GCond wake;             /* workers: a new region (generation changed) */
  GCond done;             /* caller: remaining reached 0 */
  guint n_workers;        /* started; worker i runs range i (1-based) */
  guint64 generation;
  /* the current region */
  GnnParallelFunc func;
  gpointer data;
  gint64 n;
  guint ranges;
  guint remaining;        /* worker ranges not finished */
} Pool;

/* Zero is a valid GMutex / GCond: a forked child resets the pool by
 * clearing it (its workers do not exist there). */
static Pool pool;
/* Every worker ever started, parent's included in a child: their GThreads
 * stay referenced (memory checkers see them reachable), never freed. */
static GSList *all_workers;
GNN_FORK_SAFE_MUTEX (region_lock);

/* Set on workers (always) and on a caller inside its region: nested calls
 * run serially. */
static _Thread_local gboolean inside_region;

/* 0: not set, follow OpenBLAS's own count (OPENBLAS_NUM_THREADS, or the
 * CPUs). */
static gint requested_threads;

static void
range_bounds (gint64  n,
              guint   ranges,
              guint   i,
              gint64 *begin,
              gint64 *end)
{
  /* n · i / ranges without overflow: n < 2^63, ranges ≤ MAX_THREADS */
  *begin = (n / ranges) * i + (n % ranges) * i / ranges;
  *end = (n / ranges) * (i + 1) + (n % ranges) * (i + 1) / ranges;
}

typedef struct
{
  guint index;
  guint64 generation;     /* when it was started: the next region is its first */
} WorkerStart;

static gpointer
worker_main (gpointer user_data)
{
  WorkerStart *start = user_data;
  guint index = start->index;
  guint64 seen = start->generation;

  g_free (start);
  inside_region = TRUE;
  /* idle between regions, reset in a forked child: no lock to deadlock on */
  gnn_fork_mark_current_thread_safe ();
  g_mutex_lock (&pool.lock);
  for (;;)
    {
      GnnParallelFunc func;
      gpointer data;
      gint64 begin, end;

      while (pool.generation == seen)
        g_cond_wait (&pool.wake, &pool.lock);
      seen = pool.generation;
      if (index >= pool.ranges)
        continue;
      func = pool.func;
      data = pool.data;
      range_bounds (pool.n, pool.ranges, index, &begin, &end);
      g_mutex_unlock (&pool.lock);

      func (begin, end, data);

      g_mutex_lock (&pool.lock);
      if (--pool.remaining == 0)
        g_cond_signal (&pool.done);
    }
  return NULL;
}

/* Starts workers up to @wanted; returns how many there are (fewer when the
 * system refuses threads: the regions then use fewer ranges). Called with
 * region_lock held, before the region is published. */
static guint
ensure_workers (guint wanted)
{
  while (pool.n_workers < wanted)
    {
      g_autoptr (GError) error = NULL;
      WorkerStart *start = g_new (WorkerStart, 1);
      GThread *thread;

      /* generation is only written under region_lock, which we hold */
      start->index = pool.n_workers + 1;
      start->generation = pool.generation;
      thread = g_thread_try_new ("gnn-parallel", worker_main, start, &error);
      if (thread == NULL)
        {
          g_free (start);
          break;
        }
      all_workers = g_slist_prepend (all_workers, thread);
      pool.n_workers++;
    }
  return pool.n_workers;
}

void
gnn_parallel_for (gint64          n,
                  gint64          grain,
                  GnnParallelFunc func,
                  gpointer        data)
{
  guint threads = gnn_get_num_threads ();
  gint64 ranges;

  if (n <= 0)
    return;
  ranges = MIN ((gint64) threads, n / MAX (grain, 1));
  if (ranges < 2 || inside_region || !g_mutex_trylock (&region_lock))
    {
      func (0, n, data);
      return;
    }

  ranges = MIN (ranges, (gint64) ensure_workers ((guint) ranges - 1) + 1);
  if (ranges < 2)
    {
      g_mutex_unlock (&region_lock);
      func (0, n, data);
      return;
    }

  g_mutex_lock (&pool.lock);
  pool.func = func;
  pool.data = data;
  pool.n = n;
  pool.ranges = (guint) ranges;
  pool.remaining = (guint) ranges - 1;
  pool.generation++;
  g_cond_broadcast (&pool.wake);
  g_mutex_unlock (&pool.lock);

  {
    gint64 begin, end;

    range_bounds (n, (guint) ranges, 0, &begin, &end);
    inside_region = TRUE;
    func (begin, end, data);
    inside_region = FALSE;
  }

  g_mutex_lock (&pool.lock);
  while (pool.remaining > 0)
    g_cond_wait (&pool.done, &pool.lock);
  g_mutex_unlock (&pool.lock);
  g_mutex_unlock (&region_lock);
}

/* Zero fills go in blocks of ZERO_BLOCK bytes (whole 4 KiB pages, many
 * 64-byte lines). */
#define ZERO_BLOCK ((gint64) 64 << 10)

typedef struct
{
  guint8 *data;
  gsize nbytes;
} ZeroJob;

static void
zero_range (gint64   b0,
            gint64   b1,
            gpointer data)
{
  const ZeroJob *j = data;
  gsize lo = (gsize) (b0 * ZERO_BLOCK), hi = MIN ((gsize) (b1 * ZERO_BLOCK), j->nbytes);

  memset (j->data + lo, 0, hi - lo);
}

void
gnn_parallel_zero (gpointer data,
                   gsize    nbytes)
{
  if (nbytes < GNN_PARALLEL_ZERO_MIN || gnn_get_num_threads () < 2)
    {
      memset (data, 0, nbytes);
      return;
    }
  gnn_parallel_for ((gint64) ((nbytes + ZERO_BLOCK - 1) / ZERO_BLOCK),
                    (gint64) (GNN_PARALLEL_ZERO_MIN / 2 / ZERO_BLOCK), zero_range,
                    &(ZeroJob) { data, nbytes });
}

static void
forget_workers_in_child (void)
{
  memset (&pool, 0, sizeof pool);
}

__attribute__ ((constructor)) static void
install_fork_handler (void)
{
  pthread_atfork (NULL, NULL, forget_workers_in_child);
}

/**
 * gnn_set_num_threads:
 * @n: threads, at least 1
 * @error: return location for a #GError
 *
 * Sets the number of threads Gnn's operations use, like
 * `torch.set_num_threads`: for the kernels' own parallel loops (convolution
 * transforms, im2col, pooling) and for matrix products, which Gnn then
 * splits among the same threads, calling OpenBLAS single-threaded in each
 * part (this sets OpenBLAS to 1 thread, process-wide: two pools on the same
 * cores slow each other down; other users of the same OpenBLAS in the
 * process, such as numpy, then run single-threaded too). Without a call, Gnn's loops use OpenBLAS's count
 * (`OPENBLAS_NUM_THREADS`, else one per CPU) and products go to OpenBLAS's
 * own threads. Process-wide; a loader's process workers start with the
 * count of the process that made them.
 *
 * Returns: %TRUE, or %FALSE with %GNN_ERROR_INVALID_ARGUMENT when @n is
 *   not positive (PyTorch's "set_num_threads expects a positive integer")
 *   or above 1024
 *
 * Since: 0.1
 */
gboolean
gnn_set_num_threads (gint     n,
                     GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (n < 1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "set_num_threads expects a positive integer");
      return FALSE;
    }
  if (n > MAX_THREADS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "set_num_threads: %d threads is more than the %d allowed", n, MAX_THREADS);
      return FALSE;
    }
  g_atomic_int_set (&requested_threads, n);
  if (openblas_get_num_threads () != 1)
    {
      /* after a fork() OpenBLAS restarts its pool on this call: its
       * threads stop themselves around fork(), they are safe */
      g_autoptr(GArray) before = gnn_fork_thread_ids ();

      openblas_set_num_threads (1);
      gnn_fork_mark_new_threads_safe (before);
    }
  return TRUE;
}

void
gnn_parallel_set_threads (guint n)
{
  g_return_if_fail (n >= 1 && n <= MAX_THREADS);

  g_atomic_int_set (&requested_threads, (gint) n);
}

/**
 * gnn_get_num_threads:
 *
 * Gets the number of threads Gnn's operations use, like
 * `torch.get_num_threads` (see [func@Gnn.set_num_threads]).
 *
 * Returns: the number of threads, at least 1
 *
 * Since: 0.1
 */
guint
gnn_get_num_threads (void)
{
  gint n = g_atomic_int_get (&requested_threads);

  if (n == 0)
    n = openblas_get_num_threads ();
  return (guint) CLAMP (n, 1, MAX_THREADS);
}
