/* test-trainer.c: GnnTrainer — an epoch equals the hand-written loop bit for
 * bit, progress after every batch (samples, rate, ETA), cancellation within
 * one batch leaving model and optimizer as after the batches trained, the
 * async epoch from a GMainLoop, and bad setups as GErrors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"

#define N_SAMPLES 64
#define BATCH     4
#define N_BATCHES (N_SAMPLES / BATCH)

/* A model, an SGD with momentum, MSE and a loader (no shuffling, so every
 * run sees the same batches), all from fixed seeds. */
typedef struct
{
  GnnModule     *model;
  GnnModule     *loss;
  GnnOptimizer  *optimizer;
  GnnDataLoader *loader;
  GnnTrainer    *trainer;
} Setup;

static void
setup_init (Setup *s,
            gint   num_workers)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (11);
  g_autoptr(GnnGenerator) data_gen = gnn_generator_new (12);
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { N_SAMPLES, 4 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_zeros ((gint64[]) { N_SAMPLES, 2 }, 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensorDataset) ds = NULL;
  g_autoptr(GPtrArray) params = NULL;

  g_assert_true (gnn_tensor_normal_ (x, 0.0, 1.0, data_gen, NULL));
  g_assert_true (gnn_tensor_normal_ (y, 0.0, 1.0, data_gen, NULL));
  ds = gnn_tensor_dataset_new ((GnnTensor *[]) { x, y }, 2, NULL);
  s->model = GNN_MODULE (gnn_linear_new (4, 2, TRUE, gen, NULL));
  params = gnn_module_named_parameters (s->model, NULL, TRUE, NULL);
  s->optimizer = GNN_OPTIMIZER (gnn_sgd_new (params, 0.05, 0.9, 0.0, 0.0, FALSE, NULL));
  s->loss = GNN_MODULE (gnn_mse_loss_new (GNN_REDUCTION_MEAN));
  s->loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-size", (gint64) BATCH,
                            "num-workers", num_workers, NULL);
  s->trainer = gnn_trainer_new (s->model, s->loss, s->optimizer, s->loader);
}

static void
setup_clear (Setup *s)
{
  g_clear_object (&s->trainer);
  g_clear_object (&s->model);
  g_clear_object (&s->loss);
  g_clear_object (&s->optimizer);
  g_clear_object (&s->loader);
}

/* The first @n batches by hand, torch's loop. */
static void
train_by_hand (Setup *s,
               gint64 n)
{
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (s->loader, NULL);
  GPtrArray *batch;

  for (gint64 i = 0; i < n && gnn_data_loader_iter_next (iter, &batch, NULL); i++)
    {
      g_autoptr(GPtrArray) owned = batch;
      g_autoptr(GnnTensor) out = NULL;
      g_autoptr(GnnTensor) loss = NULL;

      gnn_optimizer_zero_grad (s->optimizer, TRUE);
      out = gnn_module_call (s->model, g_ptr_array_index (batch, 0), NULL);
      loss = gnn_module_call2 (s->loss, out, g_ptr_array_index (batch, 1), NULL);
      g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, NULL));
      g_assert_true (gnn_optimizer_step (s->optimizer, NULL));
    }
}

typedef struct
{
  gint64        calls;
  gint64        last_batches, last_total, last_samples;
  double        last_rate, last_eta, last_loss;
  gint64        cancel_at;      /* cancel when this many batches are done; 0: never */
  GCancellable *cancellable;
  gboolean      in_order;
  gboolean      in_main_thread;   /* every report in the thread that ran the test */
} Seen;

static GThread *main_thread;

static void
on_progress (GnnTrainer *trainer,
             gint64      batches,
             gint64      total,
             gint64      samples,
             double      rate,
             double      eta,
             double      loss,
             gpointer    user_data)
{
  Seen *seen = user_data;

  seen->in_order = seen->in_order && batches == seen->last_batches + 1;
  seen->in_main_thread = seen->in_main_thread && g_thread_self () == main_thread;
  seen->calls++;
  seen->last_batches = batches;
  seen->last_total = total;
  seen->last_samples = samples;
  seen->last_rate = rate;
  seen->last_eta = eta;
  seen->last_loss = loss;
  if (seen->cancel_at > 0 && batches == seen->cancel_at)
    g_cancellable_cancel (seen->cancellable);
}

/* One epoch: the hand-written loop's weights, progress after each batch. */
static void
test_epoch_equals_loop (void)
{
  Setup a, b;
  Seen seen = { 0, };
  g_autoptr(GError) error = NULL;
  double mean = 0;

  setup_init (&a, 0);
  setup_init (&b, 0);
  seen.in_order = TRUE;
  seen.in_main_thread = TRUE;
  g_signal_connect (a.trainer, "progress", G_CALLBACK (on_progress), &seen);
  g_assert_true (gnn_trainer_train_epoch (a.trainer, NULL, &mean, &error));
  g_assert_no_error (error);
  train_by_hand (&b, N_BATCHES);
  gnn_test_assert_same_state (a.model, b.model);

  g_assert_cmpint (seen.calls, ==, N_BATCHES);
  g_assert_true (seen.in_order);
  g_assert_cmpint (seen.last_total, ==, N_BATCHES);
  g_assert_cmpint (seen.last_samples, ==, N_SAMPLES);
  g_assert_cmpfloat (seen.last_eta, ==, 0.0);
  g_assert_cmpfloat (seen.last_rate, >, 0.0);
  g_assert_cmpfloat (seen.last_loss, ==, mean);
  g_assert_true (isfinite (mean) && mean > 0);
  setup_clear (&a);
  setup_clear (&b);
}

/* Cancelled from the progress handler after 3 batches: exactly 3 trained,
 * the model and the optimizer as after 3 hand-written steps (a 4th step of
 * both, from one more batch, agrees too: the momentum buffers match). */
static void
test_cancel_sync (void)
{
  Setup a, b;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Seen seen = { 0, };
  g_autoptr(GError) error = NULL;

  setup_init (&a, 0);
  setup_init (&b, 0);
  seen.in_order = TRUE;
  seen.in_main_thread = TRUE;
  seen.cancel_at = 3;
  seen.cancellable = cancellable;
  g_signal_connect (a.trainer, "progress", G_CALLBACK (on_progress), &seen);
  g_assert_false (gnn_trainer_train_epoch (a.trainer, cancellable, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (seen.calls, ==, 3);
  train_by_hand (&b, 3);
  gnn_test_assert_same_state (a.model, b.model);
  train_by_hand (&a, 1);
  train_by_hand (&b, 1);
  gnn_test_assert_same_state (a.model, b.model);

  /* a new epoch runs after a cancelled one */
  g_clear_error (&error);
  g_assert_true (gnn_trainer_train_epoch (a.trainer, NULL, NULL, &error));
  g_assert_no_error (error);
  setup_clear (&a);
  setup_clear (&b);
}

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
  gint64        calls_at_end;
  Seen         *seen;
} Wait;

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *w = user_data;

  w->result = g_object_ref (result);
  w->calls_at_end = w->seen->calls;
  g_main_loop_quit (w->loop);
}

/* The async epoch from a main loop (two worker threads feeding it): every
 * "progress" in the loop's thread before the callback, the hand-written
 * loop's weights; a second epoch while one runs is G_IO_ERROR_PENDING. */
static void
test_async_epoch (void)
{
  Setup a, b;
  Seen seen = { 0, };
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  Wait w = { loop, NULL, 0, &seen };
  double mean = 0;

  setup_init (&a, 2);
  setup_init (&b, 0);
  seen.in_order = TRUE;
  seen.in_main_thread = TRUE;
  g_signal_connect (a.trainer, "progress", G_CALLBACK (on_progress), &seen);
  gnn_trainer_train_epoch_async (a.trainer, NULL, done_cb, &w);
  g_assert_false (gnn_trainer_train_epoch (a.trainer, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  g_clear_error (&error);
  g_main_loop_run (loop);
  g_assert_true (gnn_trainer_train_epoch_finish (a.trainer, w.result, &mean, &error));
  g_assert_no_error (error);
  g_object_unref (w.result);
  g_assert_cmpint (w.calls_at_end, ==, N_BATCHES);
  g_assert_true (seen.in_order);
  g_assert_true (seen.in_main_thread);
  g_assert_cmpfloat (seen.last_loss, ==, mean);
  train_by_hand (&b, N_BATCHES);
  gnn_test_assert_same_state (a.model, b.model);
  setup_clear (&a);
  setup_clear (&b);
}

/* Cancelled from the loop after the 2nd progress: the epoch stops with
 * G_IO_ERROR_CANCELLED before its end, having trained exactly the batches
 * it reported, as the hand-written loop does with as many. */
static void
test_async_cancel (void)
{
  Setup a, b;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Seen seen = { 0, };
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  Wait w = { loop, NULL, 0, &seen };
  gboolean ok;

  setup_init (&a, 0);
  setup_init (&b, 0);
  seen.in_order = TRUE;
  seen.in_main_thread = TRUE;
  seen.cancel_at = 2;
  seen.cancellable = cancellable;
  g_signal_connect (a.trainer, "progress", G_CALLBACK (on_progress), &seen);
  gnn_trainer_train_epoch_async (a.trainer, cancellable, done_cb, &w);
  g_main_loop_run (loop);
  ok = gnn_trainer_train_epoch_finish (a.trainer, w.result, NULL, &error);
  g_object_unref (w.result);
  /* the thread may have finished the epoch before the loop saw batch 2 */
  if (w.calls_at_end < N_BATCHES)
    {
      g_assert_false (ok);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
  g_assert_true (seen.in_order);
  g_assert_true (seen.in_main_thread);
  train_by_hand (&b, w.calls_at_end);
  gnn_test_assert_same_state (a.model, b.model);
  setup_clear (&a);
  setup_clear (&b);
}

/* Batches that are not (input, target), a loss that is not one number,
 * a trainer missing a part: GErrors, nothing trained. */
static void
test_bad_setups (void)
{
  Setup s;
  g_autoptr(GnnTrainer) bare = g_object_new (GNN_TYPE_TRAINER, NULL);
  g_autoptr(GnnModule) no_reduction = GNN_MODULE (gnn_mse_loss_new (GNN_REDUCTION_NONE));
  g_autoptr(GnnTrainer) per_element = NULL;
  g_autoptr(GnnTensor) before = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_trainer_train_epoch (bare, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Trainer: the model property is not set");
  g_clear_error (&error);

  setup_init (&s, 0);
  before = gnn_tensor_clone (GNN_TENSOR (gnn_module_get_parameter (s.model, "weight", NULL)));
  per_element = gnn_trainer_new (s.model, no_reduction, s.optimizer, s.loader);
  g_assert_false (gnn_trainer_train_epoch (per_element, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_true (gnn_tensor_equal (before, GNN_TENSOR (gnn_module_get_parameter (s.model, "weight",
                                                                                 NULL))));
  setup_clear (&s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  main_thread = g_thread_self ();
  g_test_add_func ("/train/trainer/epoch-equals-loop", test_epoch_equals_loop);
  g_test_add_func ("/train/trainer/cancel", test_cancel_sync);
  g_test_add_func ("/train/trainer/async-epoch", test_async_epoch);
  g_test_add_func ("/train/trainer/async-cancel", test_async_cancel);
  g_test_add_func ("/train/trainer/bad-setups", test_bad_setups);
  return g_test_run ();
}
