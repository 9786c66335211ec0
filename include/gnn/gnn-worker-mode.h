/* gnn-worker-mode.h: how a data loader runs its workers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>

G_BEGIN_DECLS

/**
 * GnnWorkerMode:
 * @GNN_WORKER_MODE_THREADS: workers are threads sharing the dataset (its
 *   get_item must be safe to call from several threads at once)
 * @GNN_WORKER_MODE_PROCESSES: workers are forked processes returning batches
 *   through shared memory (memfd segments the batch tensors map)
 * @GNN_WORKER_MODE_SPAWN: workers are fresh processes of the same program
 *   (see [func@Gnn.worker_main_if_worker]) that rebuild the dataset from its
 *   type name and properties, or through a language binding's
 *   [class@Gnn.WorkerSpawnHost]; batches come back as with
 *   %GNN_WORKER_MODE_PROCESSES.
 *
 * How a [class@Gnn.DataLoader] runs its workers.
 *
 * Since: 0.1
 */
typedef enum {
  GNN_WORKER_MODE_THREADS,
  GNN_WORKER_MODE_PROCESSES,
  GNN_WORKER_MODE_SPAWN,
} GnnWorkerMode;

/**
 * GnnWorkerForkFunc:
 * @user_data: the data given to [func@Gnn.set_worker_fork_func]
 *
 * Forks the calling process for a data loader worker, like fork(): a
 * language binding supplies one that keeps its runtime consistent in the
 * child (Python's `os.fork()`).
 *
 * Returns: the child's process id in the parent, 0 in the child, or -1 on
 *   failure
 *
 * Since: 0.1
 */
typedef int (*GnnWorkerForkFunc) (gpointer user_data);

GNN_AVAILABLE_IN_ALL
void gnn_set_worker_fork_func (GnnWorkerForkFunc func,
                               gpointer          user_data,
                               GDestroyNotify    notify);

GNN_AVAILABLE_IN_ALL
void gnn_worker_main_if_worker (void);

G_END_DECLS
