/* gnn-work.c: the handle of one asynchronous collective
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "distributed/gnn-distributed-private.h"

/**
 * GnnWork:
 *
 * The handle of a collective started by a [class@Gnn.ProcessGroup], like
 * the `Work` object `torch.distributed.all_reduce (t, async_op=True)`
 * returns. The collective runs on the process's communication thread;
 * [method@Gnn.Work.wait] blocks until it is done (or its timeout passes)
 * and [method@Gnn.Work.is_completed] polls. The tensors involved are kept
 * alive until the collective completes and must not be modified until then.
 *
 * Since: 0.1
 */
struct _GnnWork
{
  GObject        parent_instance;

  char          *name;
  gint64         timeout_ms;
  GnnCommOp      op;
  GPtrArray     *keep;
  GnnWorkFinish  finish;
  gpointer       finish_data;
  GDestroyNotify finish_destroy;

  GMutex         lock;
  GCond          cond;
  gboolean       completed;
  GError        *error;
};

G_DEFINE_FINAL_TYPE (GnnWork, gnn_work, G_TYPE_OBJECT)

static void
gnn_work_finalize (GObject *object)
{
  GnnWork *self = GNN_WORK (object);

  if (self->finish_destroy != NULL)
    self->finish_destroy (self->finish_data);
  g_ptr_array_unref (self->keep);
  g_clear_error (&self->error);
  g_free (self->name);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (gnn_work_parent_class)->finalize (object);
}

static void
gnn_work_class_init (GnnWorkClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_work_finalize;
}

static void
gnn_work_init (GnnWork *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->keep = g_ptr_array_new_with_free_func (g_object_unref);
}

GnnWork *
gnn_work_new (const char    *name,
              gint64         timeout_ms,
              GnnWorkFinish  finish,
              gpointer       finish_data,
              GDestroyNotify finish_destroy)
{
  GnnWork *self = g_object_new (GNN_TYPE_WORK, NULL);

  self->name = g_strdup (name);
  self->timeout_ms = timeout_ms;
  self->finish = finish;
  self->finish_data = finish_data;
  self->finish_destroy = finish_destroy;
  return self;
}

GnnCommOp *
gnn_work_get_op (GnnWork *self)
{
  return &self->op;
}

void
gnn_work_keep (GnnWork   *self,
               GnnTensor *tensor)
{
  g_ptr_array_add (self->keep, g_object_ref (tensor));
}

static void
complete (GnnWork *self,
          GError  *error)
{
  g_mutex_lock (&self->lock);
  if (!self->completed)
    {
      self->completed = TRUE;
      self->error = error;
      error = NULL;
    }
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_clear_error (&error);
}

void
gnn_work_run (GnnWork *self)
{
  GError *error = NULL;

  if (gnn_mpi_execute (&self->op, &error) &&
      (self->finish == NULL || self->finish (self, self->finish_data, &error)))
    complete (self, NULL);
  else
    {
      g_prefix_error (&error, "%s: ", self->name);
      complete (self, error);
    }
}

void
gnn_work_fail (GnnWork    *self,
               const char *message)
{
  complete (self, g_error_new (GNN_ERROR, GNN_ERROR_DISTRIBUTED, "%s: %s", self->name, message));
}

/**
 * gnn_work_is_completed:
 * @self: a #GnnWork
 *
 * Whether the collective has finished, successfully or not (like
 * `work.is_completed ()`); never blocks.
 *
 * Returns: %TRUE once the collective is done
 *
 * Since: 0.1
 */
gboolean
gnn_work_is_completed (GnnWork *self)
{
  gboolean done;

  g_return_val_if_fail (GNN_IS_WORK (self), FALSE);
  g_mutex_lock (&self->lock);
  done = self->completed;
  g_mutex_unlock (&self->lock);
  return done;
}

/**
 * gnn_work_wait:
 * @self: a #GnnWork
 * @timeout_ms: the longest wait in milliseconds; -1 for the timeout of the
 *   process group that started the collective
 * @error: return location for a #GError
 *
 * Waits for the collective to finish, like `work.wait (timeout)`. The
 * tensors hold the result afterwards.
 *
 * When the timeout passes the collective is presumed stuck (a peer died or
 * stopped calling collectives): the process's MPI state is marked broken,
 * so this and every pending and later collective of every group fail at
 * once instead of hanging. The process should then exit; see the
 * "Distributed" documentation page for the guarantees.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_TIMEOUT when the
 *   timeout passed, %GNN_ERROR_DISTRIBUTED when MPI reported an error or the
 *   group was already broken)
 *
 * Since: 0.1
 */
gboolean
gnn_work_wait (GnnWork  *self,
               gint64    timeout_ms,
               GError  **error)
{
  /* Clamped so that the deadline in microseconds cannot overflow. */
  gint64 limit = MIN (timeout_ms >= 0 ? timeout_ms : self->timeout_ms, G_MAXINT64 / 4000);
  gint64 deadline;
  gboolean timed_out = FALSE;

  g_return_val_if_fail (GNN_IS_WORK (self), FALSE);
  deadline = g_get_monotonic_time () + limit * G_TIME_SPAN_MILLISECOND;
  g_mutex_lock (&self->lock);
  while (!self->completed && !timed_out)
    timed_out = !g_cond_wait_until (&self->cond, &self->lock, deadline) && !self->completed;
  g_mutex_unlock (&self->lock);
  if (timed_out)
    {
      g_autofree char *why =
        g_strdup_printf ("%s timed out after %" G_GINT64_FORMAT " ms (a peer rank may have died "
                         "or stopped calling collectives); the process group is no longer usable",
                         self->name, limit);

      gnn_mpi_mark_broken (why);
      complete (self, g_error_new_literal (GNN_ERROR, GNN_ERROR_TIMEOUT, why));
    }
  g_mutex_lock (&self->lock);
  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      g_mutex_unlock (&self->lock);
      return FALSE;
    }
  g_mutex_unlock (&self->lock);
  return TRUE;
}
