/* gnn-worker-backend.c: the workers of a worker mode (threads, forked or
 * spawned processes), the one place where the modes differ
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core/gnn-fork-private.h"
#include "data/gnn-process-private.h"

/* Forking a process with other live threads can deadlock the child on a
 * lock one of them held (malloc arenas, GLib's slice allocator, BLAS
 * pools, an MPI library's progress threads after MPI_Init): spawn the
 * workers instead when the program serves spawned workers and the dataset
 * can be rebuilt, else run them as threads; warning once either way. */
static GnnWorkerBackend *
fork_backend_new (const GnnWorkerSetup  *setup,
                  GError               **error)
{
  static gint warned;
  g_autoptr(GString) names = g_string_new (NULL);
  guint threads = gnn_fork_count_other_threads (names);
  GnnWorkerBackend *backend = NULL;
  const char *instead = NULL;

  if (threads == 0)
    return gnn_process_backend_new (setup, FALSE, error);
  if (gnn_spawn_is_available ())
    {
      backend = gnn_process_backend_new (setup, TRUE, NULL);
      instead = "spawned instead (worker mode SPAWN)";
    }
  if (backend == NULL)
    {
      backend = gnn_thread_backend_new (setup, error);
      instead = "run as threads instead (worker mode THREADS)";
    }
  if (backend != NULL && g_atomic_int_compare_and_exchange (&warned, 0, 1))
    g_warning ("DataLoader: this process runs %u other threads (%s); forking it could "
               "deadlock the workers, so they are %s", threads, names->str, instead);
  return backend;
}

static GnnWorkerBackend *
spawn_backend_new (const GnnWorkerSetup  *setup,
                   GError               **error)
{
  return gnn_process_backend_new (setup, TRUE, error);
}

/* One constructor per worker mode: the only place modes differ. */
static const GnnWorkerBackendNew backend_new[] = {
  [GNN_WORKER_MODE_THREADS] = gnn_thread_backend_new,
  [GNN_WORKER_MODE_PROCESSES] = fork_backend_new,
  [GNN_WORKER_MODE_SPAWN] = spawn_backend_new,
};

GnnWorkerBackend *
gnn_worker_backend_new (GnnWorkerMode          mode,
                        const GnnWorkerSetup  *setup,
                        GError               **error)
{
  return backend_new[mode] (setup, error);
}
