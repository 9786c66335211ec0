/* gnn-process-private.h: what the parent and a worker process share
 * (private): the messages on a worker's socket, the batch segments and
 * the control page
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "data/gnn-worker-private.h"

G_BEGIN_DECLS

#define SEGMENT_MAGIC 0x474e4e42u   /* "GNNB" */
#define ALIGN 64
#define MAX_MESSAGE (64 * 1024)
#define INLINE_INDICES ((MAX_MESSAGE - (gsize) sizeof (Message)) / sizeof (gint64))
#define SHUTDOWN_GRACE_USEC (500 * 1000)

enum { GNN_MSG_TASK = 1, GNN_MSG_SHUTDOWN, GNN_MSG_BATCH, GNN_MSG_ERROR, GNN_MSG_END,
       GNN_MSG_SETUP,     /* to a spawned worker: its setup (a GVariant in a memfd of n bytes) */
       GNN_MSG_READY };   /* from a spawned worker: rebuilt, serving */

typedef struct
{
  guint32 type;
  guint32 epoch;
  guint64 seq;
  gint64  n;           /* TASK: indices (inline or in the memfd), or < 0: the next batch of
                          the stream, which first skips -1 - n items (a resumed pass);
                          BATCH: segment size; ERROR: error code */
  guint64 batch_size;  /* TASK, streams */
  guint32 drop_last;   /* TASK, streams */
  guint32 extra;       /* ERROR: bytes of the domain name (with its NUL) before the message;
                          SETUP: number of shared-tensor memfds that follow, one a message */
  guint64 sample_seed; /* TASK: the pass's seed of per-sample generators */
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

/* One worker process's side: set up by the fork or by the spawned
 * program, then gnn_process_worker_main() serves until shutdown. */
typedef struct
{
  guint          id;
  int            sock;
  Control       *control;
  GnnDataset    *dataset;
  GnnCollate    *collate;
  GnnWorkerInfo *info;
  GnnDataLoader *loader;    /* emits worker-init; NULL in a spawned worker */
} GnnProcessWorker;

void     gnn_process_worker_main     (GnnProcessWorker *w);

gboolean gnn_process_send_message    (int sock, const Message *m, const void *payload,
                                      gsize payload_len, int fd, gboolean block);
/* One message into @buf (MAX_MESSAGE bytes); *@fd gets an attached
 * descriptor or -1. Returns the size, 0 at end of stream, -1 on error. */
ssize_t  gnn_process_receive_message (int sock, guint8 *buf, int *fd);
/* A new memfd of @size bytes mapped read-write, or -1. */
int      gnn_process_segment_new     (gsize size, guint8 **map);
/* The same with another name (control page, setup). */
int      gnn_process_memfd_new       (const char *name, gsize size, guint8 **map);
gsize    gnn_process_align_up        (gsize n);
/* An error report for @task ("DataLoader worker ID (pid P): …"); FALSE if
 * it could not be sent. */
gboolean gnn_process_send_error      (guint id, int sock, const Message *task, GError *error);

/* --- spawned workers (gnn-spawn.c) ---------------------------------------- */

/* What a spawned worker needs, as a GVariant: the spawn host's payload
 * (gnn-worker-spawn-host.c) when a host gives one, else the dataset and
 * collation as their type names and properties (tensor-valued ones as
 * descriptors appended to @fds). Fails naming the type and the property
 * that does not serialize (or with the host's error). */
GVariant *gnn_spawn_setup_new   (GnnDataLoader *loader, GnnDataset *dataset, GnnCollate *collate,
                                 GArray *fds, GError **error);
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
