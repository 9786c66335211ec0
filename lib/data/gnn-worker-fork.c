/* gnn-worker-fork.c: how a data loader forks its worker processes
 * (gnn_set_worker_fork_func(): a language runtime's own fork)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <unistd.h>

#include "data/gnn-data-private.h"

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
 *
 * Since: 0.1
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
