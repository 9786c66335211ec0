/* gnn-trainer.c: GnnTrainer, one epoch of zero_grad / forward / loss /
 * backward / step over a data loader, with progress and cancellation
 *
 * The epoch is one loop (run_epoch) with two drivers:
 *  - gnn_trainer_train_epoch runs it in the caller's thread;
 *  - gnn_trainer_train_epoch_async runs it in a GTask thread and emits
 *    "progress" in the caller's main context, so a GTK or GLib main loop
 *    stays responsive. Code written in JavaScript (a model, loss or dataset
 *    class from GJS) runs only on the main thread: with such a class the
 *    async epoch runs batch by batch in idle callbacks of the caller's main
 *    context instead (each batch blocks the loop while it computes, the
 *    waits for the loader's workers do not).
 *
 * Cancellation is checked before each batch and while waiting for one, so
 * an epoch stops within one batch; a batch that started finishes its
 * optimizer step (the model and the optimizer's state always agree).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <gnn/gnn.h>

#include "core/gnn-bindings-private.h"

/* How long one wait for the loader's workers lasts before the cancellable
 * is looked at again (threaded driver) or the main loop runs (idle driver). */
#define WAIT_SLICE_USEC     (50 * 1000)
#define IDLE_WAIT_USEC      1000

/**
 * GnnTrainer:
 *
 * The training loop of a PyTorch program as an object: a model, a loss
 * module, an optimizer and a data loader, and one epoch of `zero_grad`,
 * forward, loss, `backward` and `step` over the loader's `(input, target)`
 * batches — in the caller ([method@Gnn.Trainer.train_epoch]) or without
 * blocking a main loop ([method@Gnn.Trainer.train_epoch_async]), with a
 * [signal@Gnn.Trainer::progress] report after every batch and a
 * #GCancellable that stops the epoch within one batch.
 *
 * ```c
 * g_autoptr(GnnTrainer) trainer = gnn_trainer_new (model, loss, optimizer, loader);
 *
 * g_signal_connect (trainer, "progress", G_CALLBACK (on_progress), bar);
 * gnn_trainer_train_epoch_async (trainer, cancellable, on_epoch_done, app);
 * ```
 *
 * Since: 0.1
 */
struct _GnnTrainer
{
  GObject        parent_instance;
  GnnModule     *model;
  GnnModule     *loss;
  GnnOptimizer  *optimizer;
  GnnDataLoader *loader;
  gint           running;   /* atomic: an epoch is under way */
};

enum { PROP_0, PROP_MODEL, PROP_LOSS, PROP_OPTIMIZER, PROP_LOADER, N_PROPS };
enum { SIGNAL_PROGRESS, N_SIGNALS };

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (GnnTrainer, gnn_trainer, G_TYPE_OBJECT)

/* --- one epoch ------------------------------------------------------------ */

/* Where an epoch stands; also what a "progress" emission carries. */
typedef struct
{
  GnnTrainer        *trainer;    /* strong */
  GnnDataLoaderIter *iter;
  GCancellable      *cancellable;
  GMainContext      *context;    /* where "progress" is emitted (async), or NULL */
  gint64             start_usec;
  gint64             batches;
  gint64             batches_total;   /* -1: unknown (an iterable dataset) */
  gint64             samples;
  double             loss_sum;        /* sum of batch loss x batch size */
  gboolean           done;
} Epoch;

typedef struct
{
  GnnTrainer *trainer;
  gint64      batches, batches_total, samples;
  double      rate, eta, loss;
} Progress;

static void
epoch_free (Epoch *e)
{
  g_clear_object (&e->iter);
  g_clear_object (&e->cancellable);
  g_clear_pointer (&e->context, g_main_context_unref);
  if (e->trainer != NULL)
    g_atomic_int_set (&e->trainer->running, 0);
  g_clear_object (&e->trainer);
  g_free (e);
}

static gboolean
emit_progress (gpointer data)
{
  Progress *p = data;

  g_signal_emit (p->trainer, signals[SIGNAL_PROGRESS], 0, p->batches, p->batches_total,
                 p->samples, p->rate, p->eta, p->loss);
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;

  g_object_unref (p->trainer);
  g_free (p);
}

/* After each batch: samples done, samples per second, the seconds left at
 * that rate (-1 when the epoch's length is unknown) and the mean loss. */
static void
report_progress (Epoch *e)
{
  Progress *p = g_new0 (Progress, 1);
  double elapsed = (double) (g_get_monotonic_time () - e->start_usec) / G_USEC_PER_SEC;

  p->trainer = g_object_ref (e->trainer);
  p->batches = e->batches;
  p->batches_total = e->batches_total;
  p->samples = e->samples;
  p->rate = elapsed > 0 ? (double) e->samples / elapsed : 0.0;
  p->eta = e->batches_total < 0 ? -1.0
           : (double) (e->batches_total - e->batches) * elapsed / (double) MAX (e->batches, 1);
  p->loss = e->loss_sum / (double) MAX (e->samples, 1);
  if (e->context != NULL)
    {
      /* always through a source: g_main_context_invoke() would run it
       * right here when this thread manages to acquire the context */
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, emit_progress, p, progress_free);
      g_source_set_static_name (source, "[gnn] Trainer progress");
      g_source_attach (source, e->context);
      g_source_unref (source);
    }
  else
    {
      emit_progress (p);
      progress_free (p);
    }
}

/* One optimizer step on @batch, torch's
 *   opt.zero_grad(); loss = loss_fn(model(x), y); loss.backward(); opt.step()
 * A failure before step leaves the parameters as they were. */
static gboolean
train_step (Epoch      *e,
            GPtrArray  *batch,
            GError    **error)
{
  GnnTrainer *self = e->trainer;
  g_autoptr(GnnTensor) output = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  GnnTensor *x, *y;
  gint64 n;
  double value;

  if (batch->len != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Trainer: a batch must be (input, target), got %u tensors", batch->len);
      return FALSE;
    }
  x = g_ptr_array_index (batch, 0);
  y = g_ptr_array_index (batch, 1);
  gnn_optimizer_zero_grad (self->optimizer, TRUE);
  output = gnn_module_call (self->model, x, error);
  loss = output != NULL ? gnn_module_call2 (self->loss, output, y, error) : NULL;
  if (loss == NULL)
    return FALSE;
  if (gnn_tensor_get_numel (loss) != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Trainer: the loss must be one number (a reduction of mean or sum), got a "
                   "tensor of %" G_GINT64_FORMAT " elements", gnn_tensor_get_numel (loss));
      return FALSE;
    }
  if (!gnn_tensor_backward (loss, NULL, FALSE, error) ||
      !gnn_optimizer_step (self->optimizer, error))
    return FALSE;
  value = gnn_tensor_item (loss, NULL);
  n = gnn_tensor_get_ndim (x) > 0 ? gnn_tensor_get_size (x, 0, NULL) : 1;
  e->loss_sum += value * (double) n;
  e->samples += n;
  e->batches++;
  return TRUE;
}

/* Waits at most @wait_usec for the next batch and trains on it. Returns
 * FALSE at the end (e->done), on error and on cancellation; TRUE after a
 * batch or when none came in time (*@waiting). */
static gboolean
epoch_advance (Epoch     *e,
               gint64     wait_usec,
               gboolean  *waiting,
               GError   **error)
{
  g_autoptr(GPtrArray) batch = NULL;
  gboolean timed_out = FALSE;
  GError *local = NULL;

  *waiting = FALSE;
  if (g_cancellable_set_error_if_cancelled (e->cancellable, error))
    return FALSE;
  if (!gnn_data_loader_iter_next_timeout (e->iter, wait_usec, &timed_out, &batch, &local))
    {
      e->done = local == NULL;
      if (local != NULL)
        g_propagate_error (error, local);
      return FALSE;
    }
  if (timed_out)
    {
      *waiting = TRUE;
      return TRUE;
    }
  if (!train_step (e, batch, error))
    return FALSE;
  report_progress (e);
  return TRUE;
}

/* The threaded and synchronous loop: FALSE at the end of the epoch with
 * no error set. */
static gboolean
run_epoch (Epoch   *e,
           GError **error)
{
  gboolean waiting;

  while (epoch_advance (e, WAIT_SLICE_USEC, &waiting, error))
    ;
  return e->done;
}

/* The GType of the first class written in JavaScript among the modules
 * of @module, or 0. */
static GType
javascript_module (GnnModule *module)
{
  g_autoptr(GPtrArray) modules = NULL;

  if (!gnn_javascript_loaded ())
    return 0;
  modules = gnn_module_named_modules (module, NULL, NULL);
  for (guint i = 0; i < modules->len; i++)
    if (gnn_type_is_javascript (G_OBJECT_TYPE (g_ptr_array_index (modules, i))))
      return G_OBJECT_TYPE (g_ptr_array_index (modules, i));
  return 0;
}

static gboolean
uses_javascript (GnnTrainer *self)
{
  g_autoptr(GnnDataset) dataset = NULL;

  if (!gnn_javascript_loaded ())
    return FALSE;
  g_object_get (self->loader, "dataset", &dataset, NULL);
  return javascript_module (self->model) != 0 || javascript_module (self->loss) != 0 ||
         (dataset != NULL && gnn_type_is_javascript (G_OBJECT_TYPE (dataset)));
}

/* Starts an epoch: refuses a second one at the same time and an incomplete
 * trainer, sets the model to training mode and starts a loader pass. */
static Epoch *
epoch_start (GnnTrainer    *self,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  Epoch *e;

  if (self->model == NULL || self->loss == NULL || self->optimizer == NULL ||
      self->loader == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Trainer: the %s property is not set",
                   self->model == NULL ? "model" : self->loss == NULL ? "loss"
                   : self->optimizer == NULL ? "optimizer" : "loader");
      return NULL;
    }
  if (!g_atomic_int_compare_and_exchange (&self->running, 0, 1))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                           "Trainer: an epoch is already running");
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      (iter = gnn_data_loader_iter (self->loader, error)) == NULL)
    {
      g_atomic_int_set (&self->running, 0);
      return NULL;
    }
  gnn_module_train (self->model, TRUE);
  e = g_new0 (Epoch, 1);
  e->trainer = g_object_ref (self);
  e->iter = g_steal_pointer (&iter);
  e->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  e->batches_total = gnn_data_loader_iter_get_length (e->iter);
  e->start_usec = g_get_monotonic_time ();
  return e;
}

static gboolean
epoch_finish (Epoch   *e,
              double  *mean_loss)
{
  if (mean_loss != NULL)
    *mean_loss = e->samples > 0 ? e->loss_sum / (double) e->samples : NAN;
  return TRUE;
}

/**
 * gnn_trainer_train_epoch:
 * @self: a #GnnTrainer
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @mean_loss: (out) (optional): the epoch's mean loss per sample (NaN for
 *   an empty epoch)
 * @error: return location for a #GError
 *
 * Trains the model for one pass of the loader, PyTorch's
 *
 * ```python
 * model.train()
 * for x, y in loader:
 *     optimizer.zero_grad()
 *     loss = loss_fn(model(x), y)
 *     loss.backward()
 *     optimizer.step()
 * ```
 *
 * Each batch must be `(input, target)`; the model is called with the input
 * and the loss module with `(output, target)` through the module call path
 * (hooks run), and the loss must be one number. After every batch the
 * [signal@Gnn.Trainer::progress] signal is emitted in the calling thread.
 *
 * Cancelling @cancellable stops the epoch before the next batch (or while
 * waiting for it) with %G_IO_ERROR_CANCELLED; the batches trained so far
 * stay trained and the optimizer's state matches the model.
 *
 * Returns: %TRUE at the end of the epoch, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_trainer_train_epoch (GnnTrainer    *self,
                         GCancellable  *cancellable,
                         double        *mean_loss,
                         GError       **error)
{
  Epoch *e;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_TRAINER (self), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  e = epoch_start (self, cancellable, error);
  if (e == NULL)
    return FALSE;
  ok = run_epoch (e, error) && epoch_finish (e, mean_loss);
  epoch_free (e);
  return ok;
}

/* --- async ------------------------------------------------------------------ */

static void
return_epoch (GTask   *task,
              Epoch   *e,
              GError  *error)
{
  double *loss;

  /* the pass ends here, so the callback may start the next epoch */
  g_clear_object (&e->iter);
  g_atomic_int_set (&e->trainer->running, 0);
  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  loss = g_new (double, 1);
  epoch_finish (e, loss);
  g_task_return_pointer (task, loss, g_free);
}

static void
epoch_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Epoch *e = task_data;
  GError *error = NULL;

  run_epoch (e, &error);
  return_epoch (task, e, error);
}

/* The idle driver: one wait slice or one batch per call. */
static gboolean
epoch_idle (gpointer data)
{
  GTask *task = data;
  Epoch *e = g_task_get_task_data (task);
  GError *error = NULL;
  gboolean waiting;

  if (epoch_advance (e, IDLE_WAIT_USEC, &waiting, &error))
    return G_SOURCE_CONTINUE;
  return_epoch (task, e, error);
  return G_SOURCE_REMOVE;
}

/**
 * gnn_trainer_train_epoch_async:
 * @self: a #GnnTrainer
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: (scope async): called when the epoch has ended
 * @user_data: data for @callback
 *
 * Trains one epoch as [method@Gnn.Trainer.train_epoch] does, without
 * blocking the thread-default main context: the epoch runs in a worker
 * thread, and [signal@Gnn.Trainer::progress] and @callback run in the main
 * context that was the thread-default one when this was called. Do not use
 * the model, loss, optimizer or loader elsewhere until @callback runs.
 *
 * A model, loss or dataset class written in JavaScript runs only on the
 * main thread: with one, the epoch runs a batch at a time in idle
 * callbacks of that main context instead.
 *
 * Cancelling @cancellable stops the epoch within one batch, as in the
 * synchronous form; [method@Gnn.Trainer.train_epoch_finish] then fails with
 * %G_IO_ERROR_CANCELLED.
 *
 * Since: 0.1
 */
void
gnn_trainer_train_epoch_async (GnnTrainer          *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  Epoch *e;

  g_return_if_fail (GNN_IS_TRAINER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, gnn_trainer_train_epoch_async);
  /* the epoch's own error: also one that came after a cancellation */
  g_task_set_check_cancellable (task, FALSE);
  e = epoch_start (self, cancellable, &error);
  if (e == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_set_task_data (task, e, (GDestroyNotify) epoch_free);
  e->context = g_main_context_ref_thread_default ();
  if (uses_javascript (self))
    {
      g_autoptr(GSource) idle = g_idle_source_new ();

      g_source_set_callback (idle, epoch_idle, g_object_ref (task), g_object_unref);
      g_source_set_static_name (idle, "[gnn] Trainer epoch");
      g_source_attach (idle, e->context);
      /* "progress" directly: this is the context's thread */
      g_clear_pointer (&e->context, g_main_context_unref);
      return;
    }
  g_task_run_in_thread (task, epoch_thread);
}

/**
 * gnn_trainer_train_epoch_finish:
 * @self: a #GnnTrainer
 * @result: the #GAsyncResult given to the callback
 * @mean_loss: (out) (optional): the epoch's mean loss per sample
 * @error: return location for a #GError
 *
 * Ends an epoch started with [method@Gnn.Trainer.train_epoch_async].
 *
 * Returns: %TRUE if the epoch ran to its end, %FALSE with @error set
 *   (%G_IO_ERROR_CANCELLED when it was cancelled)
 *
 * Since: 0.1
 */
gboolean
gnn_trainer_train_epoch_finish (GnnTrainer    *self,
                                GAsyncResult  *result,
                                double        *mean_loss,
                                GError       **error)
{
  g_autofree double *loss = NULL;

  g_return_val_if_fail (GNN_IS_TRAINER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == gnn_trainer_train_epoch_async,
                        FALSE);

  loss = g_task_propagate_pointer (G_TASK (result), error);
  if (loss == NULL)
    return FALSE;
  if (mean_loss != NULL)
    *mean_loss = *loss;
  return TRUE;
}

/* --- object ------------------------------------------------------------------ */

/**
 * gnn_trainer_new:
 * @model: the module to train
 * @loss: the loss module, called with `(output, target)`
 * @optimizer: the optimizer over @model's parameters
 * @loader: the data loader, whose batches are `(input, target)`
 *
 * Creates a trainer: the four objects a PyTorch training loop uses, as
 * construct properties.
 *
 * Returns: (transfer full): a new #GnnTrainer
 *
 * Since: 0.1
 */
GnnTrainer *
gnn_trainer_new (GnnModule     *model,
                 GnnModule     *loss,
                 GnnOptimizer  *optimizer,
                 GnnDataLoader *loader)
{
  g_return_val_if_fail (GNN_IS_MODULE (model), NULL);
  g_return_val_if_fail (GNN_IS_MODULE (loss), NULL);
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (GNN_IS_DATA_LOADER (loader), NULL);
  return g_object_new (GNN_TYPE_TRAINER, "model", model, "loss", loss, "optimizer", optimizer,
                       "loader", loader, NULL);
}

/**
 * gnn_trainer_get_model:
 * @self: a #GnnTrainer
 *
 * Gets the module being trained.
 *
 * Returns: (transfer none) (nullable): the model
 *
 * Since: 0.1
 */
GnnModule *
gnn_trainer_get_model (GnnTrainer *self)
{
  g_return_val_if_fail (GNN_IS_TRAINER (self), NULL);
  return self->model;
}

/**
 * gnn_trainer_get_loss:
 * @self: a #GnnTrainer
 *
 * Gets the loss module.
 *
 * Returns: (transfer none) (nullable): the loss
 *
 * Since: 0.1
 */
GnnModule *
gnn_trainer_get_loss (GnnTrainer *self)
{
  g_return_val_if_fail (GNN_IS_TRAINER (self), NULL);
  return self->loss;
}

/**
 * gnn_trainer_get_optimizer:
 * @self: a #GnnTrainer
 *
 * Gets the optimizer.
 *
 * Returns: (transfer none) (nullable): the optimizer
 *
 * Since: 0.1
 */
GnnOptimizer *
gnn_trainer_get_optimizer (GnnTrainer *self)
{
  g_return_val_if_fail (GNN_IS_TRAINER (self), NULL);
  return self->optimizer;
}

/**
 * gnn_trainer_get_loader:
 * @self: a #GnnTrainer
 *
 * Gets the data loader.
 *
 * Returns: (transfer none) (nullable): the loader
 *
 * Since: 0.1
 */
GnnDataLoader *
gnn_trainer_get_loader (GnnTrainer *self)
{
  g_return_val_if_fail (GNN_IS_TRAINER (self), NULL);
  return self->loader;
}

static void
gnn_trainer_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  GnnTrainer *self = GNN_TRAINER (object);

  switch (prop_id)
    {
    case PROP_MODEL: g_set_object (&self->model, g_value_get_object (value)); break;
    case PROP_LOSS: g_set_object (&self->loss, g_value_get_object (value)); break;
    case PROP_OPTIMIZER: g_set_object (&self->optimizer, g_value_get_object (value)); break;
    case PROP_LOADER: g_set_object (&self->loader, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_trainer_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  GnnTrainer *self = GNN_TRAINER (object);

  switch (prop_id)
    {
    case PROP_MODEL: g_value_set_object (value, self->model); break;
    case PROP_LOSS: g_value_set_object (value, self->loss); break;
    case PROP_OPTIMIZER: g_value_set_object (value, self->optimizer); break;
    case PROP_LOADER: g_value_set_object (value, self->loader); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_trainer_dispose (GObject *object)
{
  GnnTrainer *self = GNN_TRAINER (object);

  g_clear_object (&self->model);
  g_clear_object (&self->loss);
  g_clear_object (&self->optimizer);
  g_clear_object (&self->loader);
  G_OBJECT_CLASS (gnn_trainer_parent_class)->dispose (object);
}

static void
gnn_trainer_class_init (GnnTrainerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->set_property = gnn_trainer_set_property;
  object_class->get_property = gnn_trainer_get_property;
  object_class->dispose = gnn_trainer_dispose;

  /**
   * GnnTrainer:model:
   *
   * The module being trained.
   *
   * Since: 0.1
   */
  properties[PROP_MODEL] = g_param_spec_object ("model", NULL, NULL, GNN_TYPE_MODULE, flags);
  /**
   * GnnTrainer:loss:
   *
   * The loss module, called with `(output, target)` (PyTorch's
   * `loss_fn(pred, y)`).
   *
   * Since: 0.1
   */
  properties[PROP_LOSS] = g_param_spec_object ("loss", NULL, NULL, GNN_TYPE_MODULE, flags);
  /**
   * GnnTrainer:optimizer:
   *
   * The optimizer over the model's parameters.
   *
   * Since: 0.1
   */
  properties[PROP_OPTIMIZER] = g_param_spec_object ("optimizer", NULL, NULL, GNN_TYPE_OPTIMIZER,
                                                    flags);
  /**
   * GnnTrainer:loader:
   *
   * The data loader, whose batches are `(input, target)`.
   *
   * Since: 0.1
   */
  properties[PROP_LOADER] = g_param_spec_object ("loader", NULL, NULL, GNN_TYPE_DATA_LOADER,
                                                 flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnTrainer::progress:
   * @self: the trainer
   * @batches: the batches trained so far in this epoch
   * @batches_total: the batches of the epoch, or -1 when unknown (an
   *   iterable dataset)
   * @samples: the samples trained so far in this epoch
   * @samples_per_second: the rate since the epoch started
   * @eta_seconds: the seconds the rest of the epoch should take at that
   *   rate, or -1 when unknown
   * @mean_loss: the mean loss per sample so far
   *
   * Emitted after every batch, in the calling thread for
   * [method@Gnn.Trainer.train_epoch] and in the caller's main context for
   * [method@Gnn.Trainer.train_epoch_async].
   *
   * Since: 0.1
   */
  signals[SIGNAL_PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 6, G_TYPE_INT64, G_TYPE_INT64,
                                           G_TYPE_INT64, G_TYPE_DOUBLE, G_TYPE_DOUBLE,
                                           G_TYPE_DOUBLE);
}

static void
gnn_trainer_init (GnnTrainer *self)
{
}
