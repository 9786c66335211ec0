/* gnn-worker-wire-private.h: the wire protocol between a data loader and
 * its worker processes (private): the messages on a worker's socket, the
 * batch segments (memfds) and the control page, and sending and receiving
 * them. Both ends use it (gnn-process-backend.c on the loader's side,
 * gnn-process-worker.c and gnn-spawn.c on the worker's); it uses nothing
 * else of lib/data (a batch's names through GnnBatch's public API).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sys/types.h>

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

#define GNN_WIRE_SEGMENT_MAGIC 0x474e4e42u   /* "GNNB" */
#define GNN_WIRE_ALIGN 64
#define GNN_WIRE_MAX_MESSAGE (64 * 1024)
/* Indices a TASK carries inline (more go in a memfd). */
#define GNN_WIRE_INLINE_INDICES \
  ((GNN_WIRE_MAX_MESSAGE - (gsize) sizeof (GnnWireMessage)) / sizeof (gint64))

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
} GnnWireMessage;

/* A segment: this header, n_tensors descriptors, the names table
 * (names_bytes: per field a guint32 byte count and the UTF-8 bytes; 0: the
 * fields are positional), then the data from gnn_wire_segment_data_start. */
typedef struct
{
  guint32 magic;
  guint32 n_tensors;
  guint32 kind;          /* GnnBatchKind */
  guint32 names_bytes;
} GnnWireSegmentHeader;

typedef struct
{
  gint32  dtype;
  guint32 ndim;
  gint64  shape[GNN_MAX_DIMS];
  guint64 offset;
  guint64 n_bytes;
} GnnWireSegmentTensor;

/* Reusable segments: each worker keeps GNN_WIRE_SLOTS memfds mapped; a
 * slot is busy from the moment the child fills it until the parent frees
 * the last tensor of the batch in it. A child without a free slot of the right size makes
 * a one-off segment. */
#define GNN_WIRE_SLOTS 8

typedef struct
{
  gint current_epoch;   /* 0: none */
  gint busy[];          /* num_workers × GNN_WIRE_SLOTS */
} GnnWireControl;

/* Sends a message (and @payload), with @fd attached unless it is -1. */
gboolean gnn_wire_send        (int sock, const GnnWireMessage *m, const void *payload,
                               gsize payload_len, int fd, gboolean block);
/* One message into @buf (GNN_WIRE_MAX_MESSAGE bytes); *@fd gets an attached
 * descriptor or -1. Returns the size, 0 at end of stream, -1 on error. */
ssize_t  gnn_wire_receive     (int sock, guint8 *buf, int *fd);
/* A new memfd of @size bytes mapped read-write, or -1. */
int      gnn_wire_segment_new (gsize size, guint8 **map);
/* The same with another name (control page, setup, shared tensors). */
int      gnn_wire_memfd_new   (const char *name, gsize size, guint8 **map);
/* @n rounded up to GNN_WIRE_ALIGN (where a segment's tensors start). */
static inline gsize
gnn_wire_align_up (gsize n)
{
  return (n + GNN_WIRE_ALIGN - 1) & ~(gsize) (GNN_WIRE_ALIGN - 1);
}

/* Where the data of a segment of @n_tensors starts (after the header, the
 * tensors' descriptors and @names_bytes of names). */
static inline gsize
gnn_wire_segment_data_start (guint n_tensors, gsize names_bytes)
{
  return gnn_wire_align_up (sizeof (GnnWireSegmentHeader) +
                            n_tensors * sizeof (GnnWireSegmentTensor) + names_bytes);
}
/* The bytes of @layout's names table for a batch of @n_tensors (0 when
 * @layout is NULL, positional or of another size); FALSE when they do not
 * fit a segment header. */
gboolean  gnn_wire_names_size   (const GnnBatch *layout, guint n_tensors, gsize *names_bytes,
                                 GError **error);
/* Writes a segment's header and names table (@names_bytes from
 * gnn_wire_names_size); the descriptors follow the header. */
GnnWireSegmentTensor *gnn_wire_segment_header_write (guint8 *map, guint n_tensors,
                                                     const GnnBatch *layout, gsize names_bytes);
/* The batch of @tensors (stolen) named as the segment header @h says
 * (@avail bytes of the names table are mapped); NULL on a malformed table. */
GnnBatch *gnn_wire_segment_batch (const GnnWireSegmentHeader *h, gsize avail,
                                  GPtrArray *tensors);
/* An error report for @task ("DataLoader worker ID (pid P): …"); FALSE if
 * it could not be sent. */
gboolean gnn_wire_send_error  (guint id, int sock, const GnnWireMessage *task, GError *error);

G_END_DECLS
