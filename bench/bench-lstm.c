/* bench-lstm.c: times Gnn's LSTM word-level language model and LSTM cell
 *
 * The C half of bench/lstm.py, which runs this program and the same models
 * in PyTorch and prints the comparison. One JSON object per line on stdout:
 *
 *   {"type": "info", "threads": 1, "openblas_threads": 1, ...}
 *   {"type": "result", "case": "train", "seconds": ..., "batches": ..., "loss": ...}
 *   {"type": "result", "case": "forward", "seconds": ..., "batches": ...}
 *   {"type": "result", "case": "cell", "seconds": ..., "calls": ...}
 *
 * The language model is PyTorch's examples/word_language_model "medium"
 * configuration: Embedding(10000, 650) - Dropout(0.5) - LSTM(650, 650,
 * num_layers 2, dropout 0.5) - Dropout(0.5) - Linear(650, 10000), sequences
 * of 35 tokens, batch 20, CrossEntropyLoss over the next tokens, SGD (lr 20)
 * with truncated backpropagation (the hidden state of one batch, detached,
 * starts the next). Gradient clipping is left out on both sides. The tokens
 * are a fixed pseudo-random sequence (the same on both sides).
 *
 *   train    --batches training steps (zero_grad, forward, loss, backward,
 *            SGD step);
 *   forward  the same batches in eval mode without gradient recording;
 *   cell     one step of an LSTMCell(1, 51) (the sine-wave predictor's
 *            first cell) at batch 1 with its state, no gradient recording:
 *            seconds per call, best of repetitions (bench-util.h's method).
 *
 * Threads: gnn_set_num_threads (OPENBLAS_NUM_THREADS's count), so Gnn's
 * loops and products share one pool. One untimed warm-up batch precedes each
 * timed pass. --smoke runs tiny sizes and checks the loss is finite (meson
 * test); it asserts no timing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <cblas.h>

#include <gnn/gnn.h>

#include "bench-util.h"

typedef struct
{
  gint64 vocab, hidden, seq, batch;
} Sizes;

typedef struct
{
  GnnModule           *embedding, *drop, *lstm, *decoder;
  GnnCrossEntropyLoss *criterion;
  GnnOptimizer        *optimizer;
  GnnTensor           *tokens;   /* [batches * seq + 1, batch] int64 */
  GnnValue            *state;    /* (h, c) carried across batches, or NULL */
  Sizes                s;
} Model;

static void
model_clear (Model *m)
{
  g_clear_object (&m->embedding);
  g_clear_object (&m->drop);
  g_clear_object (&m->lstm);
  g_clear_object (&m->decoder);
  g_clear_object (&m->criterion);
  g_clear_object (&m->optimizer);
  g_clear_object (&m->tokens);
  g_clear_pointer (&m->state, gnn_value_unref);
}

/* The tokens: a fixed linear congruential sequence, as bench/lstm.py draws it. */
static GnnTensor *
make_tokens (gint64   rows,
             gint64   batch,
             gint64   vocab,
             GError **error)
{
  gint64 shape[2] = { rows, batch };
  g_autofree gint64 *v = g_new (gint64, rows * batch);
  guint64 x = 12345;

  for (gint64 i = 0; i < rows * batch; i++)
    {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      v[i] = (gint64) ((x >> 33) % (guint64) vocab);
    }
  return gnn_tensor_new_from_data ((const guint8 *) v, sizeof (gint64) * rows * batch, GNN_DTYPE_I64,
                                   shape, 2, error);
}

static gboolean
model_init (Model        *m,
            gint64        batches,
            GnnGenerator *gen,
            GError      **error)
{
  g_autoptr (GPtrArray) params = g_ptr_array_new_with_free_func (g_object_unref);
  GnnModule *parts[3];

  m->embedding = (GnnModule *) gnn_embedding_new (m->s.vocab, m->s.hidden, gen, error);
  m->drop = m->embedding ? (GnnModule *) gnn_dropout_new (0.5, FALSE, gen, error) : NULL;
  m->lstm = m->drop ? g_initable_new (GNN_TYPE_LSTM, NULL, error, "input-size", m->s.hidden,
                                      "hidden-size", m->s.hidden, "num-layers", (gint64) 2,
                                      "dropout", 0.5, "generator", gen, NULL) : NULL;
  m->decoder = m->lstm ? (GnnModule *) gnn_linear_new (m->s.hidden, m->s.vocab, TRUE, gen, error) : NULL;
  m->tokens = m->decoder ? make_tokens (batches * m->s.seq + 1, m->s.batch, m->s.vocab, error) : NULL;
  if (m->tokens == NULL)
    return FALSE;
  parts[0] = m->embedding, parts[1] = m->lstm, parts[2] = m->decoder;
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_autoptr (GPtrArray) p = gnn_module_named_parameters (parts[i], NULL, TRUE, NULL);

      for (guint j = 0; j < p->len; j++)
        g_ptr_array_add (params, g_object_ref (g_ptr_array_index (p, j)));
    }
  m->criterion = gnn_cross_entropy_loss_new (NULL, -100, GNN_REDUCTION_MEAN, 0.0);
  m->optimizer = GNN_OPTIMIZER (gnn_sgd_new (params, 20.0, 0.0, 0.0, 0.0, FALSE, error));
  return m->optimizer != NULL;
}

/* The hidden state detached from the last batch's graph (repackage_hidden). */
static gboolean
detach_state (Model    *m,
              GnnValue *state)
{
  GnnTensor *h = gnn_value_get_tensor (gnn_value_get_item (state, 0));
  GnnTensor *c = gnn_value_get_tensor (gnn_value_get_item (state, 1));

  g_clear_pointer (&m->state, gnn_value_unref);
  if (h == NULL || c == NULL)
    return FALSE;
  m->state = gnn_value_new_tuple_take (2, gnn_value_take_tensor (gnn_tensor_detach (h)),
                                       gnn_value_take_tensor (gnn_tensor_detach (c)));
  return TRUE;
}

/* Batch @i's logits [seq * batch, vocab]; its targets go to @targets. */
static GnnTensor *
model_forward (Model      *m,
               gint64      i,
               GnnTensor **targets,
               GError    **error)
{
  const gint64 flat[1] = { m->s.seq * m->s.batch };
  const gint64 rows[2] = { m->s.seq * m->s.batch, m->s.vocab };
  g_autoptr (GnnTensor) x = gnn_tensor_narrow (m->tokens, 0, i * m->s.seq, m->s.seq, error);
  g_autoptr (GnnTensor) y = x ? gnn_tensor_narrow (m->tokens, 0, i * m->s.seq + 1, m->s.seq, error) : NULL;
  g_autoptr (GnnTensor) emb = y ? gnn_module_call (m->embedding, x, error) : NULL;
  g_autoptr (GnnTensor) dropped = emb ? gnn_module_call (m->drop, emb, error) : NULL;
  g_autoptr (GnnValue) args = NULL;
  g_autoptr (GnnValue) out = NULL;
  g_autoptr (GnnTensor) hidden = NULL;
  g_autoptr (GnnTensor) logits = NULL;

  if (dropped == NULL)
    return NULL;
  /* lstm(x) or lstm(x, (h, c)): output, (h_n, c_n) */
  args = m->state ? gnn_value_new_tuple_take (2, gnn_value_new_tensor (dropped), gnn_value_ref (m->state))
                  : gnn_value_new_tuple_take (1, gnn_value_new_tensor (dropped));
  if ((out = gnn_module_call_args (m->lstm, args, NULL, error)) == NULL)
    return NULL;
  detach_state (m, gnn_value_get_item (out, 1));
  hidden = gnn_module_call (m->drop, gnn_value_get_tensor (gnn_value_get_item (out, 0)), error);
  logits = hidden ? gnn_module_call (m->decoder, hidden, error) : NULL;
  if (logits == NULL || (*targets = gnn_tensor_reshape (y, flat, 1, error)) == NULL)
    return NULL;
  return gnn_tensor_reshape (logits, rows, 2, error);
}

static void
model_mode (Model    *m,
            gboolean  train)
{
  gnn_module_train (m->embedding, train);
  gnn_module_train (m->drop, train);
  gnn_module_train (m->lstm, train);
  gnn_module_train (m->decoder, train);
}

static gboolean
train_step (Model   *m,
            gint64   i,
            double  *loss_out,
            GError **error)
{
  g_autoptr (GnnTensor) targets = NULL;
  g_autoptr (GnnTensor) logits = NULL;
  g_autoptr (GnnTensor) loss = NULL;

  gnn_optimizer_zero_grad (m->optimizer, TRUE);
  logits = model_forward (m, i, &targets, error);
  loss = logits ? gnn_cross_entropy_loss_compute (m->criterion, logits, targets, error) : NULL;
  return bench_backward_step (loss, m->optimizer, i, loss_out, error);
}

static gboolean
time_train (Model   *m,
            gint64   batches,
            double  *seconds,
            double  *mean_loss,
            GError **error)
{
  double start, loss = 0.0, sum = 0.0;

  model_mode (m, TRUE);
  if (!train_step (m, 0, &loss, error))
    return FALSE;
  start = bench_now_seconds ();
  for (gint64 i = 0; i < batches; i++)
    {
      if (!train_step (m, i, &loss, error))
        return FALSE;
      sum += loss;
    }
  *seconds = bench_now_seconds () - start;
  *mean_loss = sum / (double) batches;
  return TRUE;
}

static gboolean
time_forward (Model   *m,
              gint64   batches,
              double  *seconds,
              GError **error)
{
  g_autoptr (GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  double start = 0.0;

  model_mode (m, FALSE);
  for (gint64 i = -1; i < batches; i++)
    {
      g_autoptr (GnnTensor) targets = NULL;
      g_autoptr (GnnTensor) logits = NULL;

      if (i == 0)
        start = bench_now_seconds ();
      if ((logits = model_forward (m, MAX (i, 0), &targets, error)) == NULL)
        return FALSE;
    }
  *seconds = bench_now_seconds () - start;
  return TRUE;
}

/* --- the LSTM cell at batch 1 ------------------------------------------------ */

typedef struct
{
  GnnModule *cell;
  GnnValue  *args;   /* (x, (h, c)) */
} CellBench;

static gboolean
cell_step (gpointer  data,
           GError  **error)
{
  CellBench *b = data;
  g_autoptr (GnnValue) out = gnn_module_call_args (b->cell, b->args, NULL, error);

  return out != NULL;
}

static gboolean
time_cell (GnnGenerator *gen,
           gboolean      smoke,
           BenchTiming  *timing,
           GError      **error)
{
  g_autoptr (GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr (GnnModule) cell = (GnnModule *) gnn_lstm_cell_new (1, 51, TRUE, gen, error);
  const gint64 xs[2] = { 1, 1 }, hs[2] = { 1, 51 };
  g_autoptr (GnnTensor) x = cell ? gnn_tensor_zeros (xs, 2, GNN_DTYPE_F32, error) : NULL;
  g_autoptr (GnnTensor) h = x ? gnn_tensor_zeros (hs, 2, GNN_DTYPE_F32, error) : NULL;
  g_autoptr (GnnTensor) c = h ? gnn_tensor_zeros (hs, 2, GNN_DTYPE_F32, error) : NULL;
  g_autoptr (GnnValue) args = NULL;
  const BenchFunc funcs[1] = { cell_step };
  CellBench b;

  if (c == NULL)
    return FALSE;
  args = gnn_value_new_tuple_take (2, gnn_value_new_tensor (x),
                                   gnn_value_new_tuple_take (2, gnn_value_new_tensor (h),
                                                             gnn_value_new_tensor (c)));
  b = (CellBench) { cell, args };
  return bench_measure_n (funcs, 1, &b, smoke ? 1 : 5, smoke ? 0.001 : 0.2, smoke ? 4 : 1000000,
                          timing, error);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GnnGenerator) gen = NULL;
  gint64 batches = 5, seed = 0;
  gboolean smoke = FALSE;
  double train_s = 0, fwd_s = 0, loss = 0;
  BenchTiming cell = { 0 };
  Model m = { 0 };
  GOptionEntry entries[] = {
    { "batches", 0, 0, G_OPTION_ARG_INT64, &batches, "Batches to time (default 5)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Initialization seed (default 0)", "N" },
    { "smoke", 0, 0, G_OPTION_ARG_NONE, &smoke, "Tiny sizes: checks the driver works", NULL },
    { NULL }
  };

  context = g_option_context_new ("- time an LSTM language model and an LSTM cell");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-lstm: %s\n", error->message);
      return 2;
    }
  if (batches < 1)
    {
      g_printerr ("bench-lstm: --batches must be positive\n");
      return 2;
    }
  m.s = smoke ? (Sizes) { 50, 8, 5, 3 } : (Sizes) { 10000, 650, 35, 20 };
  if (smoke)
    batches = 2;
  gen = gnn_generator_new ((guint64) seed);
  gnn_set_num_threads (openblas_get_num_threads (), NULL);
  printf ("{\"type\": \"info\", \"threads\": %u, \"openblas_threads\": %d, \"batches\": %" G_GINT64_FORMAT
          "}\n", gnn_get_num_threads (), openblas_get_num_threads (), batches);
  fflush (stdout);
  if (!model_init (&m, batches, gen, &error) || !time_train (&m, batches, &train_s, &loss, &error) ||
      !time_forward (&m, batches, &fwd_s, &error) || !time_cell (gen, smoke, &cell, &error))
    {
      g_printerr ("bench-lstm: %s\n", error->message);
      model_clear (&m);
      return 1;
    }
  model_clear (&m);
  printf ("{\"type\": \"result\", \"case\": \"train\", \"seconds\": %.6f, \"batches\": %" G_GINT64_FORMAT
          ", \"loss\": %.6f}\n", train_s, batches, loss);
  printf ("{\"type\": \"result\", \"case\": \"forward\", \"seconds\": %.6f, \"batches\": %" G_GINT64_FORMAT
          "}\n", fwd_s, batches);
  printf ("{\"type\": \"result\", \"case\": \"cell\", \"seconds\": %.9f, \"median_seconds\": %.9f}\n",
          cell.best, cell.median);
  return 0;
}
