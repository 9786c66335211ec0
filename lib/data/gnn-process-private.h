/* gnn-process-private.h: the worker processes of a data loader (private):
 * a worker's serving loop and the spawned workers' setup (the wire
 * protocol they speak is gnn-worker-wire-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "data/gnn-worker-private.h"
#include "data/gnn-worker-wire-private.h"

G_BEGIN_DECLS


/* One worker process's side: set up by the fork or by the spawned
 * program, then gnn_process_worker_main() serves until shutdown. */
typedef struct
{
  guint          id;
  int            sock;
  GnnWireControl       *control;
  GnnDataset    *dataset;
  GnnCollate    *collate;
  GnnWorkerInfo *info;
  GnnWorkerInitFunc worker_init;   /* NULL in a spawned worker */
  gpointer       worker_init_data;
} GnnProcessWorker;

void     gnn_process_worker_main     (GnnProcessWorker *w);

/* --- the loader's side of batch segments (gnn-process-segment.c) --------- */

/* The control page, refcounted: batches still alive keep it mapped. */
typedef struct _GnnProcessShared GnnProcessShared;
/* A received segment mapped in the loader, refcounted. */
typedef struct _GnnProcessSegment GnnProcessSegment;

/* Takes @control (@size bytes, unmapped when the last reference goes). */
GnnProcessShared  *gnn_process_shared_new    (GnnWireControl *control, gsize size);
void               gnn_process_shared_unref  (GnnProcessShared *shared);
/* Maps a received segment of @size bytes (takes @fd). */
GnnProcessSegment *gnn_process_segment_map   (int fd, gsize size, GError **error);
void               gnn_process_segment_unref (gpointer segment);
/* The batch in the reusable slot whose busy flag is *@busy: its tensors keep
 * @segment and @shared mapped, and the last of them frees the slot. */
GnnBatch  *gnn_process_segment_wrap_slot (GnnProcessSegment *segment, GnnProcessShared *shared,
                                          gint *busy, GError **error);
/* The batch in a one-off segment (takes @segment). */
GnnBatch  *gnn_process_segment_wrap      (GnnProcessSegment *segment, GError **error);

/* --- spawned workers (gnn-spawn.c) ---------------------------------------- */

/* What a spawned worker needs, as a GVariant: the spawn host's payload
 * (gnn-worker-spawn-host.c) when a host gives one, else the dataset and
 * collation as their type names and properties (tensor-valued ones as
 * descriptors appended to @fds). Fails naming the type and the property
 * that does not serialize (or with the host's error). */
GVariant *gnn_spawn_setup_new   (const GnnWorkerSetup *setup, GArray *fds, GError **error);
/* The descriptors of a setup's shared tensors (closed when freed). */
GArray   *gnn_spawn_fds_new     (void);
/* Starts a fresh process of the program serving on @sock with the control
 * page @control_fd (both mapped to fixed numbers in the child). */
GPid      gnn_spawn_worker_start (int sock, int control_fd, GError **error);
/* Whether this program serves spawned workers (it called
 * gnn_worker_main_if_worker()). */
gboolean  gnn_spawn_is_available (void);
/* Sends worker @id its setup. */
gboolean  gnn_spawn_send_setup  (int sock, GVariant *setup, GArray *fds, guint id, guint num_workers,
                                 guint64 seed, GError **error);

/* The process's spawn host (gnn_set_worker_spawn_host()), or NULL. */
GnnWorkerSpawnHost *gnn_worker_spawn_host_dup_default (void);

G_END_DECLS
