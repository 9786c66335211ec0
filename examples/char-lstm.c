/* char-lstm.c: train a character-level LSTM on a text file and sample from it
 *
 * The model PyTorch's examples/word_language_model builds, over characters:
 *
 *   encoder = nn.Embedding(n_chars, 32)
 *   rnn     = nn.LSTM(32, hidden, num_layers=2, dropout=0.1)
 *   decoder = nn.Linear(hidden, n_chars)
 *
 * held in a ModuleDict, so its state_dict keys are torch's ("encoder.weight",
 * "rnn.weight_ih_l0", "rnn.bias_hh_l1", "decoder.weight", ...). Training:
 * random windows of --seq characters, --batch of them per step,
 * CrossEntropyLoss on the next character, Adam. The LSTM is called through
 * the general call convention, `output, (h_n, c_n) = rnn(x, (h, c))`: a
 * GnnValue tuple in, a tuple out. Sampling feeds one character at a time
 * and carries (h, c) from step to step, drawing each next character from the
 * softmax of the logits divided by --temperature.
 *
 *   gnn-char-lstm [FILE] [--steps N] [--hidden N] [--seq N] [--batch N]
 *                 [--lr X] [--sample N] [--temperature X] [--seed N]
 *                 [--save FILE.safetensors]
 *
 * Without FILE it trains on a short built-in text. It exits 1 on an error,
 * and when the loss has not fallen below half of its starting value (the
 * check `meson test` relies on; it asserts no timing).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gnn/gnn.h>

static const char builtin_text[] =
  "It was the best of times, it was the worst of times, it was the age of wisdom, "
  "it was the age of foolishness, it was the epoch of belief, it was the epoch of "
  "incredulity, it was the season of Light, it was the season of Darkness, it was "
  "the spring of hope, it was the winter of despair.\n";

typedef struct
{
  GnnModuleDict *model;        /* encoder, rnn, decoder */
  GnnModule     *encoder, *rnn, *decoder;
  guint8         to_index[256];
  guint8         to_char[256];
  guint          n_chars;
} CharModel;

static void
char_model_clear (CharModel *m)
{
  g_clear_object (&m->model);
}

/* The alphabet of @text: its distinct bytes in byte order. */
static void
build_alphabet (CharModel   *m,
                const guint8 *text,
                gsize        len)
{
  gboolean seen[256] = { FALSE };

  for (gsize i = 0; i < len; i++)
    seen[text[i]] = TRUE;
  m->n_chars = 0;
  for (guint c = 0; c < 256; c++)
    if (seen[c])
      {
        m->to_index[c] = (guint8) m->n_chars;
        m->to_char[m->n_chars++] = (guint8) c;
      }
}

static gboolean
char_model_init (CharModel    *m,
                 gint64        hidden,
                 GnnGenerator *gen,
                 GError      **error)
{
  m->model = gnn_module_dict_new ();
  m->encoder = GNN_MODULE (gnn_embedding_new (m->n_chars, 32, gen, error));
  if (m->encoder == NULL || !gnn_module_dict_set (m->model, "encoder", m->encoder, error))
    return FALSE;
  g_object_unref (m->encoder);
  m->rnn = g_initable_new (GNN_TYPE_LSTM, NULL, error, "input-size", (gint64) 32, "hidden-size", hidden,
                           "num-layers", (gint64) 2, "dropout", 0.1, "generator", gen, NULL);
  if (m->rnn == NULL || !gnn_module_dict_set (m->model, "rnn", m->rnn, error))
    return FALSE;
  g_object_unref (m->rnn);
  m->decoder = GNN_MODULE (gnn_linear_new (hidden, m->n_chars, TRUE, gen, error));
  if (m->decoder == NULL || !gnn_module_dict_set (m->model, "decoder", m->decoder, error))
    return FALSE;
  g_object_unref (m->decoder);
  return TRUE;
}

/* logits [seq, batch, n_chars] of @x [seq, batch]; @state: (h, c) or NULL,
 * replaced by the state after the last step. */
static GnnTensor *
char_model_forward (CharModel  *m,
                    GnnTensor  *x,
                    GnnValue  **state,
                    GError    **error)
{
  g_autoptr (GnnTensor) embedded = gnn_module_call (m->encoder, x, error);
  g_autoptr (GnnValue) args = NULL;
  g_autoptr (GnnValue) out = NULL;

  if (embedded == NULL)
    return NULL;
  args = *state != NULL ? gnn_value_new_tuple_take (2, gnn_value_new_tensor (embedded), gnn_value_ref (*state))
                        : gnn_value_new_tuple_take (1, gnn_value_new_tensor (embedded));
  if ((out = gnn_module_call_args (m->rnn, args, NULL, error)) == NULL)
    return NULL;
  g_clear_pointer (state, gnn_value_unref);
  *state = gnn_value_ref (gnn_value_get_item (out, 1));
  return gnn_module_call (m->decoder, gnn_value_get_tensor (gnn_value_get_item (out, 0)), error);
}

/* A batch of random windows: inputs [seq, batch] and next characters [seq * batch]. */
static gboolean
random_batch (CharModel    *m,
              const guint8 *text,
              gsize         len,
              gint64        seq,
              gint64        batch,
              GnnGenerator *gen,
              GnnTensor   **x,
              GnnTensor   **y,
              GError      **error)
{
  g_autofree gint64 *xv = g_new (gint64, seq * batch);
  g_autofree gint64 *yv = g_new (gint64, seq * batch);
  const gint64 xshape[2] = { seq, batch }, yshape[1] = { seq * batch };

  for (gint64 b = 0; b < batch; b++)
    {
      gsize start = gnn_generator_next_below (gen, len - (gsize) seq);

      for (gint64 t = 0; t < seq; t++)
        {
          xv[t * batch + b] = m->to_index[text[start + t]];
          yv[t * batch + b] = m->to_index[text[start + t + 1]];
        }
    }
  *x = gnn_tensor_new_from_int64s (xv, seq * batch, xshape, 2, error);
  *y = *x ? gnn_tensor_new_from_int64s (yv, seq * batch, yshape, 1, error) : NULL;
  return *y != NULL;
}

static gboolean
train (CharModel    *m,
       const guint8 *text,
       gsize         len,
       gint64        steps,
       gint64        seq,
       gint64        batch,
       double        lr,
       GnnGenerator *gen,
       double       *first_loss,
       double       *last_loss,
       GError      **error)
{
  g_autoptr (GPtrArray) params = gnn_module_named_parameters (GNN_MODULE (m->model), NULL, TRUE, NULL);
  g_autoptr (GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (params, lr, 0.9, 0.999, 1e-8, 0.0, FALSE, error));
  g_autoptr (GnnCrossEntropyLoss) criterion = gnn_cross_entropy_loss_new (NULL, -100, GNN_REDUCTION_MEAN, 0.0);
  const gint64 rows[2] = { seq * batch, m->n_chars };
  double running = 0.0;

  if (opt == NULL)
    return FALSE;
  gnn_module_train (GNN_MODULE (m->model), TRUE);
  for (gint64 step = 1; step <= steps; step++)
    {
      g_autoptr (GnnTensor) x = NULL;
      g_autoptr (GnnTensor) y = NULL;
      g_autoptr (GnnTensor) logits = NULL;
      g_autoptr (GnnTensor) flat = NULL;
      g_autoptr (GnnTensor) loss = NULL;
      g_autoptr (GnnValue) state = NULL;
      double value;

      if (!random_batch (m, text, len, seq, batch, gen, &x, &y, error))
        return FALSE;
      gnn_optimizer_zero_grad (opt, TRUE);
      logits = char_model_forward (m, x, &state, error);
      flat = logits ? gnn_tensor_reshape (logits, rows, 2, error) : NULL;
      loss = flat ? gnn_cross_entropy_loss_compute (criterion, flat, y, error) : NULL;
      if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error) || !gnn_optimizer_step (opt, error))
        return FALSE;
      value = gnn_tensor_item (loss, NULL);
      if (step == 1)
        *first_loss = running = value;
      running = 0.9 * running + 0.1 * value;
      if (step % 50 == 0 || step == steps)
        printf ("step %4" G_GINT64_FORMAT "  loss %.3f\n", step, running);
    }
  *last_loss = running;
  return TRUE;
}

/* Index drawn from softmax(logits / temperature). */
static guint
draw (const float  *logits,
      guint         n,
      double        temperature,
      GnnGenerator *gen)
{
  g_autofree double *p = g_new (double, n);
  double max = -INFINITY, sum = 0.0, u;

  for (guint i = 0; i < n; i++)
    max = MAX (max, logits[i] / temperature);
  for (guint i = 0; i < n; i++)
    sum += p[i] = exp (logits[i] / temperature - max);
  u = gnn_generator_next_double (gen) * sum;
  for (guint i = 0; i < n; i++)
    if ((u -= p[i]) < 0.0)
      return i;
  return n - 1;
}

static gboolean
sample (CharModel    *m,
        guint8        first,
        gint64        length,
        double        temperature,
        GnnGenerator *gen,
        GError      **error)
{
  g_autoptr (GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr (GnnValue) state = NULL;
  const gint64 one[2] = { 1, 1 };
  gint64 c = m->to_index[first];

  gnn_module_eval (GNN_MODULE (m->model));
  putchar (first);
  for (gint64 i = 0; i < length; i++)
    {
      g_autoptr (GnnTensor) x = gnn_tensor_new_from_int64s (&c, 1, one, 2, error);
      g_autoptr (GnnTensor) logits = x ? char_model_forward (m, x, &state, error) : NULL;
      g_autofree float *v = NULL;

      if (logits == NULL)
        return FALSE;
      v = gnn_tensor_to_floats (logits, NULL);
      c = draw (v, m->n_chars, temperature, gen);
      putchar (m->to_char[c]);
    }
  putchar ('\n');
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GnnGenerator) gen = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *save = NULL;
  gint64 steps = 300, hidden = 128, seq = 32, batch = 16, length = 200, seed = 0;
  double lr = 0.005, temperature = 0.8, first_loss = 0, last_loss = 0;
  const guint8 *text = (const guint8 *) builtin_text;
  gsize len = sizeof builtin_text - 1;
  CharModel m = { 0 };
  gboolean ok;
  GOptionEntry entries[] = {
    { "steps", 0, 0, G_OPTION_ARG_INT64, &steps, "Training steps (default 300)", "N" },
    { "hidden", 0, 0, G_OPTION_ARG_INT64, &hidden, "LSTM hidden size (default 128)", "N" },
    { "seq", 0, 0, G_OPTION_ARG_INT64, &seq, "Characters per training window (default 32)", "N" },
    { "batch", 0, 0, G_OPTION_ARG_INT64, &batch, "Windows per step (default 16)", "N" },
    { "lr", 0, 0, G_OPTION_ARG_DOUBLE, &lr, "Adam's learning rate (default 0.005)", "X" },
    { "sample", 0, 0, G_OPTION_ARG_INT64, &length, "Characters to sample (default 200)", "N" },
    { "temperature", 0, 0, G_OPTION_ARG_DOUBLE, &temperature, "Sampling temperature (default 0.8)", "X" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 0)", "N" },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &save, "Save the trained weights (safetensors)", "FILE" },
    { NULL }
  };

  context = g_option_context_new ("[FILE] - train a character-level LSTM and sample from it");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("gnn-char-lstm: %s\n", error->message);
      return 2;
    }
  if (steps < 1 || hidden < 1 || seq < 1 || batch < 1 || length < 0 || !(lr > 0) || !(temperature > 0))
    {
      g_printerr ("gnn-char-lstm: --steps, --hidden, --seq, --batch and --lr must be positive\n");
      return 2;
    }
  if (argc > 1)
    {
      if (!g_file_get_contents (argv[1], &contents, &len, &error))
        {
          g_printerr ("gnn-char-lstm: %s\n", error->message);
          return 1;
        }
      text = (const guint8 *) contents;
    }
  if (len <= (gsize) seq + 1)
    {
      g_printerr ("gnn-char-lstm: the text has %zu characters, fewer than --seq + 2\n", len);
      return 1;
    }
  build_alphabet (&m, text, len);
  gen = gnn_generator_new ((guint64) seed);
  printf ("%zu characters, %u distinct; LSTM(32, %" G_GINT64_FORMAT ", num_layers=2)\n", len, m.n_chars,
          hidden);
  ok = char_model_init (&m, hidden, gen, &error) &&
       train (&m, text, len, steps, seq, batch, lr, gen, &first_loss, &last_loss, &error) &&
       sample (&m, text[0], length, temperature, gen, &error);
  if (ok && save != NULL)
    {
      g_autoptr (GnnStateDict) sd = gnn_module_state_dict (GNN_MODULE (m.model));

      ok = gnn_state_dict_save (sd, save, NULL, &error);
    }
  char_model_clear (&m);
  if (!ok)
    {
      g_printerr ("gnn-char-lstm: %s\n", error->message);
      return 1;
    }
  if (!(last_loss < 0.5 * first_loss))
    {
      g_printerr ("gnn-char-lstm: the loss fell only from %.3f to %.3f\n", first_loss, last_loss);
      return 1;
    }
  return 0;
}
