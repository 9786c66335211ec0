/* gnn-distributed-private.h: the communication thread and work items
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

typedef enum
{
  GNN_COMM_ALL_REDUCE,
  GNN_COMM_BROADCAST,
  GNN_COMM_ALL_GATHER,
  GNN_COMM_REDUCE_SCATTER,
  GNN_COMM_BARRIER,
  GNN_COMM_DUP,        /* duplicates MPI_COMM_WORLD into result_comm */
  GNN_COMM_FREE,       /* frees comm */
} GnnCommKind;

/* One MPI call, described so that only gnn-mpi.c sees <mpi.h>. Buffers are
 * contiguous, count elements of dtype (all_gather/reduce_scatter: count per
 * rank). */
typedef struct
{
  GnnCommKind  kind;
  gpointer     comm;          /* an MPI_Comm, as a pointer-sized handle */
  gpointer     send;          /* NULL: in place (send == recv) */
  gpointer     recv;
  gsize        count;
  GnnDType     dtype;
  GnnReduceOp  op;
  gint         root;
  gpointer     result_comm;   /* GNN_COMM_DUP */
  /* Every rank checks first that all ranks make this same collective (kind,
   * element count, dtype, op, root), with one small MPI_Allreduce, and all
   * fail with the same error when they do not: a count that differs is
   * MPI_ERR_TRUNCATE on one rank and garbage on another. */
  gboolean     verify;
} GnnCommOp;

/* Runs on the communication thread after the MPI call succeeded. */
typedef gboolean (*GnnWorkFinish) (GnnWork   *work,
                                   gpointer   data,
                                   GError   **error);

/* gnn-mpi.c: the process-wide MPI state and its one communication thread. */
gboolean  gnn_mpi_ensure_initialized (GError   **error);
gboolean  gnn_mpi_world_info         (gint      *rank,
                                      gint      *size);
void      gnn_mpi_submit             (GnnWork   *work);
gboolean  gnn_mpi_execute            (GnnCommOp *op,
                                      GError   **error);
gboolean  gnn_mpi_is_broken          (void);
void      gnn_mpi_mark_broken        (const char *why);
const char *gnn_mpi_broken_reason    (void);

/* gnn-work.c */
GnnWork   *gnn_work_new              (const char    *name,
                                      gint64         timeout_ms,
                                      GnnWorkFinish  finish,
                                      gpointer       finish_data,
                                      GDestroyNotify finish_destroy);
GnnCommOp *gnn_work_get_op           (GnnWork       *self);
/* Keeps @tensor alive until the work completes. */
void       gnn_work_keep             (GnnWork       *self,
                                      GnnTensor     *tensor);
/* Communication thread: runs the op, then completes the work. */
void       gnn_work_run              (GnnWork       *self);
/* Completes a work that will never run (the group broke). */
void       gnn_work_fail             (GnnWork       *self,
                                      const char    *message);

/* gnn-process-group.c: all_reduce without the agreement check, for DDP's
 * buckets: every rank derives the same bucket layout from parameters that
 * DDP's construction verified across ranks, and launches the buckets in the
 * same order, so the check would only add a round trip per bucket. */
GnnWork   *gnn_process_group_all_reduce_unverified (GnnProcessGroup *self,
                                                    GnnTensor       *tensor,
                                                    GnnReduceOp      op,
                                                    GError         **error);

G_END_DECLS

G_BEGIN_DECLS

/* gnn-ddp-reducer.c: DDP's gradient buckets. */
typedef struct _GnnReducer GnnReducer;

GnnReducer *gnn_reducer_new                  (GnnProcessGroup *group,
                                              GPtrArray       *params,
                                              char           **names,
                                              gsize            first_bucket_bytes,
                                              gsize            bucket_bytes,
                                              gboolean         find_unused,
                                              gboolean         gradient_as_bucket_view);
void        gnn_reducer_free                 (GnnReducer      *reducer);
/* Fails with torch's message when the previous backward left parameters
 * without gradients. */
gboolean    gnn_reducer_check_prior_iteration (GnnReducer     *reducer,
                                              GError         **error);
/* The next backward reduces (called by a forward that syncs). */
void        gnn_reducer_prepare_for_backward (GnnReducer      *reducer);
guint       gnn_reducer_get_n_buckets        (GnnReducer      *reducer);

G_END_DECLS
