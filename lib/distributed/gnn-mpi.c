/* gnn-mpi.c: the process-wide MPI state and its communication thread
 *
 * The only file that includes <mpi.h>. MPI is initialized once per process
 * with MPI_Init_thread (MPI_THREAD_SERIALIZED is enough: after
 * initialization every MPI call happens on one communication thread, as in
 * PyTorch's ProcessGroupMPI and Horovod), communicators return errors
 * (MPI_ERRORS_RETURN) instead of aborting, and MPI_Finalize runs at exit
 * unless the group broke (a call that never returned would make it hang).
 *
 * A collective whose peer died may block inside MPI forever: Open MPI does
 * not promise to return an error. The guarantee therefore comes from the
 * waiting side: gnn_work_wait() gives up after its timeout, marks the MPI
 * state broken (every pending and later collective fails at once) and
 * returns a GError. mpirun itself also terminates the job when a rank dies.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "distributed/gnn-distributed-private.h"

#ifdef GNN_HAVE_MPI
#include <mpi.h>
#endif

static GMutex mpi_lock;
static gboolean initialized;
static gint broken;            /* atomic */
static char *broken_reason;    /* under mpi_lock */
static GAsyncQueue *queue;     /* GnnWork */
static gint world_rank, world_size = 1;

gboolean
gnn_mpi_is_broken (void)
{
  return g_atomic_int_get (&broken);
}

const char *
gnn_mpi_broken_reason (void)
{
  const char *reason;

  g_mutex_lock (&mpi_lock);
  reason = broken_reason;
  g_mutex_unlock (&mpi_lock);
  return reason != NULL ? reason : "the process group is broken";
}

void
gnn_mpi_mark_broken (const char *why)
{
  GnnWork *work;

  g_mutex_lock (&mpi_lock);
  if (broken_reason == NULL)
    broken_reason = g_strdup (why);
  g_mutex_unlock (&mpi_lock);
  g_atomic_int_set (&broken, TRUE);
  /* Queued collectives will never run: fail them now. */
  while (queue != NULL && (work = g_async_queue_try_pop (queue)) != NULL)
    {
      gnn_work_fail (work, why);
      g_object_unref (work);
    }
}

void
gnn_mpi_submit (GnnWork *work)
{
  if (gnn_mpi_is_broken () || queue == NULL)
    {
      gnn_work_fail (work, gnn_mpi_broken_reason ());
      return;
    }
  g_async_queue_push (queue, g_object_ref (work));
}

#ifdef GNN_HAVE_MPI

static gboolean finalized;
static GThread *comm_thread;   /* runs for the life of the process */

static gboolean
mpi_failed (int         rc,
            const char *what,
            GError    **error)
{
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;

  if (rc == MPI_SUCCESS)
    return FALSE;
  MPI_Error_string (rc, text, &len);
  g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED, "%s failed: %s (MPI error %d)",
               what, text, rc);
  return TRUE;
}

static MPI_Datatype
mpi_type (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: return MPI_FLOAT;
    case GNN_DTYPE_F64: return MPI_DOUBLE;
    case GNN_DTYPE_I64: return MPI_INT64_T;
    case GNN_DTYPE_I32: return MPI_INT32_T;
    case GNN_DTYPE_I16: return MPI_INT16_T;
    case GNN_DTYPE_I8: return MPI_INT8_T;
    case GNN_DTYPE_U8:
    case GNN_DTYPE_BOOL: return MPI_UINT8_T;
    case GNN_DTYPE_F16:
    case GNN_DTYPE_BF16: return MPI_UINT16_T;   /* bit copies only */
    default: return MPI_DATATYPE_NULL;
    }
}

static MPI_Op
mpi_op (GnnReduceOp op)
{
  switch (op)
    {
    case GNN_REDUCE_OP_PRODUCT: return MPI_PROD;
    case GNN_REDUCE_OP_MIN: return MPI_MIN;
    case GNN_REDUCE_OP_MAX: return MPI_MAX;
    case GNN_REDUCE_OP_SUM:
    case GNN_REDUCE_OP_AVG:
    default: return MPI_SUM;   /* AVG: the caller divides */
    }
}

static const char *
kind_name (gint64 kind)
{
  switch (kind)
    {
    case GNN_COMM_ALL_REDUCE: return "all_reduce";
    case GNN_COMM_BROADCAST: return "broadcast";
    case GNN_COMM_ALL_GATHER: return "all_gather";
    case GNN_COMM_REDUCE_SCATTER: return "reduce_scatter";
    case GNN_COMM_BARRIER: return "barrier";
    default: return "another collective";
    }
}

static const char *
op_name (gint64 op)
{
  static const char *const names[] = {
    [GNN_REDUCE_OP_SUM] = "SUM", [GNN_REDUCE_OP_AVG] = "AVG", [GNN_REDUCE_OP_PRODUCT] = "PRODUCT",
    [GNN_REDUCE_OP_MIN] = "MIN", [GNN_REDUCE_OP_MAX] = "MAX",
  };

  return op >= 0 && op < (gint64) G_N_ELEMENTS (names) && names[op] != NULL ? names[op] : "?";
}

/* What every rank must agree on, each field with its negation: one
 * MPI_MAX gives every rank the largest and the smallest value of each. */
enum { FIELD_KIND, FIELD_COUNT, FIELD_DTYPE, FIELD_OP, FIELD_ROOT, N_FIELDS };

/* The agreement check of GnnCommOp.verify: FALSE with the same error on
 * every rank when the ranks' collectives differ. */
static gboolean
verify_agreement (const GnnCommOp *op,
                  MPI_Comm         comm,
                  GError         **error)
{
  gboolean reduces = op->kind == GNN_COMM_ALL_REDUCE || op->kind == GNN_COMM_REDUCE_SCATTER;
  gboolean sized = op->kind != GNN_COMM_BARRIER;
  gint64 mine[N_FIELDS] = {
    [FIELD_KIND] = op->kind,
    [FIELD_COUNT] = sized ? (gint64) op->count : 0,
    [FIELD_DTYPE] = sized ? op->dtype : 0,
    [FIELD_OP] = reduces ? op->op : 0,
    [FIELD_ROOT] = op->kind == GNN_COMM_BROADCAST ? op->root : 0,
  };
  gint64 all[2 * N_FIELDS];
  gint64 lo[N_FIELDS], hi[N_FIELDS];
  const char *what = kind_name (op->kind);

  for (guint i = 0; i < N_FIELDS; i++)
    {
      all[2 * i] = mine[i];
      all[2 * i + 1] = -mine[i];
    }
  if (mpi_failed (MPI_Allreduce (MPI_IN_PLACE, all, 2 * N_FIELDS, MPI_INT64_T, MPI_MAX, comm),
                  "MPI_Allreduce (the ranks' agreement check)", error))
    return FALSE;
  for (guint i = 0; i < N_FIELDS; i++)
    hi[i] = all[2 * i], lo[i] = -all[2 * i + 1];

  if (lo[FIELD_KIND] != hi[FIELD_KIND])
    g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                 "the ranks are not at the same collective: this rank is at %s, others at %s "
                 "(every rank must make the same collectives in the same order)", what,
                 kind_name (lo[FIELD_KIND] != mine[FIELD_KIND] ? lo[FIELD_KIND] : hi[FIELD_KIND]));
  else if (lo[FIELD_COUNT] != hi[FIELD_COUNT])
    g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                 "the ranks' tensors have different numbers of elements: from %" G_GINT64_FORMAT
                 " to %" G_GINT64_FORMAT " (this rank: %" G_GINT64_FORMAT "); every rank must "
                 "pass a tensor of the same size", lo[FIELD_COUNT], hi[FIELD_COUNT],
                 mine[FIELD_COUNT]);
  else if (lo[FIELD_DTYPE] != hi[FIELD_DTYPE])
    g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                 "the ranks' tensors have different dtypes: %s and %s (this rank: %s)",
                 gnn_dtype_get_name ((GnnDType) lo[FIELD_DTYPE]),
                 gnn_dtype_get_name ((GnnDType) hi[FIELD_DTYPE]),
                 gnn_dtype_get_name ((GnnDType) mine[FIELD_DTYPE]));
  else if (lo[FIELD_OP] != hi[FIELD_OP])
    g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                 "the ranks reduce with different ops: %s and %s (this rank: %s)",
                 op_name (lo[FIELD_OP]), op_name (hi[FIELD_OP]), op_name (mine[FIELD_OP]));
  else if (lo[FIELD_ROOT] != hi[FIELD_ROOT])
    g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                 "the ranks broadcast from different src ranks: %" G_GINT64_FORMAT " and %"
                 G_GINT64_FORMAT " (this rank: %" G_GINT64_FORMAT ")", lo[FIELD_ROOT],
                 hi[FIELD_ROOT], mine[FIELD_ROOT]);
  else
    return TRUE;
  return FALSE;
}

gboolean
gnn_mpi_execute (GnnCommOp *op,
                 GError   **error)
{
  MPI_Comm comm = (MPI_Comm) op->comm;
  MPI_Datatype type = mpi_type (op->dtype);
  int count = (int) op->count;
  void *send = op->send != NULL ? op->send : MPI_IN_PLACE;

  if (op->count > G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "a collective of %" G_GSIZE_FORMAT " elements is too large for MPI (at most %d)",
                   op->count, G_MAXINT);
      return FALSE;
    }
  if (op->verify && !verify_agreement (op, comm, error))
    return FALSE;
  switch (op->kind)
    {
    case GNN_COMM_ALL_REDUCE:
      return !mpi_failed (MPI_Allreduce (send, op->recv, count, type, mpi_op (op->op), comm),
                          "MPI_Allreduce", error);
    case GNN_COMM_BROADCAST:
      return !mpi_failed (MPI_Bcast (op->recv, count, type, op->root, comm), "MPI_Bcast", error);
    case GNN_COMM_ALL_GATHER:
      return !mpi_failed (MPI_Allgather (op->send, count, type, op->recv, count, type, comm),
                          "MPI_Allgather", error);
    case GNN_COMM_REDUCE_SCATTER:
      return !mpi_failed (MPI_Reduce_scatter_block (op->send, op->recv, count, type,
                                                    mpi_op (op->op), comm),
                          "MPI_Reduce_scatter_block", error);
    case GNN_COMM_BARRIER:
      return !mpi_failed (MPI_Barrier (comm), "MPI_Barrier", error);
    case GNN_COMM_DUP:
      {
        MPI_Comm dup = MPI_COMM_NULL;

        if (mpi_failed (MPI_Comm_dup (MPI_COMM_WORLD, &dup), "MPI_Comm_dup", error))
          return FALSE;
        MPI_Comm_set_errhandler (dup, MPI_ERRORS_RETURN);
        op->result_comm = (gpointer) dup;
        return TRUE;
      }
    case GNN_COMM_FREE:
      return !mpi_failed (MPI_Comm_free (&comm), "MPI_Comm_free", error);
    default:
      g_assert_not_reached ();
    }
}

static gpointer
comm_thread_main (gpointer data)
{
  for (;;)
    {
      GnnWork *work = g_async_queue_pop (queue);

      if (gnn_mpi_is_broken ())
        gnn_work_fail (work, gnn_mpi_broken_reason ());
      else
        gnn_work_run (work);
      g_object_unref (work);
    }
  return NULL;
}

/* At exit: finalize on the communication thread (the thread that makes the
 * MPI calls), unless a call is stuck there. */
static void
finalize_at_exit (void)
{
  g_autoptr(GnnWork) work = NULL;

  if (gnn_mpi_is_broken () || !initialized || finalized)
    return;
  work = gnn_work_new ("MPI_Finalize", 10000, NULL, NULL, NULL);
  gnn_work_get_op (work)->kind = GNN_COMM_BARRIER;   /* drain: everything before has run */
  gnn_work_get_op (work)->comm = (gpointer) MPI_COMM_WORLD;
  gnn_mpi_submit (work);
  if (!gnn_work_wait (work, 10000, NULL))
    return;
  /* The communication thread is idle in g_async_queue_pop (): no MPI call
   * can run concurrently, which is all MPI_THREAD_SERIALIZED asks. */
  MPI_Finalize ();
  finalized = TRUE;
}

gboolean
gnn_mpi_ensure_initialized (GError **error)
{
  gboolean ok = TRUE;

  g_mutex_lock (&mpi_lock);
  if (!initialized)
    {
      int already = 0, done = 0, provided = MPI_THREAD_SINGLE;

      MPI_Initialized (&already);
      MPI_Finalized (&done);
      if (done)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                               "MPI was already finalized in this process; it cannot be initialized again");
          ok = FALSE;
        }
      else if (already)
        MPI_Query_thread (&provided);
      else if (MPI_Init_thread (NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED, "MPI_Init_thread failed");
          ok = FALSE;
        }
      if (ok && provided < MPI_THREAD_SERIALIZED)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DISTRIBUTED,
                       "Used MPI implementation doesn't have the minimum level of threading "
                       "support: %d. This is required by c10d package (MPI_THREAD_SERIALIZED)",
                       provided);
          ok = FALSE;
        }
      if (ok)
        {
          MPI_Comm_set_errhandler (MPI_COMM_WORLD, MPI_ERRORS_RETURN);
          MPI_Comm_rank (MPI_COMM_WORLD, &world_rank);
          MPI_Comm_size (MPI_COMM_WORLD, &world_size);
          queue = g_async_queue_new ();
          comm_thread = g_thread_new ("gnn-mpi", comm_thread_main, NULL);
          initialized = TRUE;
          if (!already)
            atexit (finalize_at_exit);
        }
    }
  g_mutex_unlock (&mpi_lock);
  return ok;
}

#else /* !GNN_HAVE_MPI */

gboolean
gnn_mpi_execute (GnnCommOp *op,
                 GError   **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "Gnn was built without MPI");
  return FALSE;
}

gboolean
gnn_mpi_ensure_initialized (GError **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "Gnn was built without MPI: distributed training is not available "
                       "(install libopenmpi-dev and rebuild)");
  return FALSE;
}

#endif /* GNN_HAVE_MPI */

gboolean
gnn_mpi_world_info (gint *rank,
                    gint *size)
{
  *rank = world_rank;
  *size = world_size;
  return initialized;
}
