/* Recurrent layers from C: torch's parameter names and order, a one-unit
 * RNN against its recurrence worked by hand, the (output, (h_n, c_n))
 * tuple of the C calling convention, the gradients of an LSTM (input,
 * initial states, a weight) against central differences, packed sequences
 * against the padded run, a cell step against the layer's first step, and
 * torch's messages for bad calls and settings (the module unchanged).
 * tests/python/test_nn_rnn_vs_torch.py compares the numbers with torch. */
#include <math.h>

#include <glib/gstdio.h>
#include <gnn/gnn.h>

static GnnTensor *
doubles (const double *v,
         gsize         n,
         const gint64 *shape,
         guint         ndim)
{
  GnnTensor *t = gnn_tensor_new_from_doubles (v, n, shape, ndim, NULL);

  g_assert_nonnull (t);
  return t;
}

/* A float64 tensor of @shape with values from a fixed pseudo-random walk. */
static GnnTensor *
wiggly (const gint64 *shape,
        guint         ndim,
        guint         seed)
{
  gsize n = 1;
  g_autofree double *v = NULL;

  for (guint d = 0; d < ndim; d++)
    n *= (gsize) shape[d];
  v = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    v[i] = sin (0.7 * (double) (i + 1) * (seed + 1) + seed) * 0.8;
  return doubles (v, n, shape, ndim);
}

static GnnModule *
network (GType    type,
         GError **error,
         const char *first_property,
         ...)
{
  va_list ap;
  GObject *obj;

  va_start (ap, first_property);
  obj = g_initable_new_valist (type, first_property, ap, NULL, error);
  va_end (ap);
  return (GnnModule *) obj;
}

/* module(args...) through the general call; the output value. */
static GnnValue *
call (GnnModule *m,
      GnnValue  *args,
      GError   **error)
{
  g_autoptr(GnnValue) owned = args;

  return gnn_module_call_args (m, owned, NULL, error);
}

static GnnTensor *
item_tensor (GnnValue *v,
             gsize     i)
{
  GnnTensor *t = gnn_value_get_tensor (gnn_value_get_item (v, i));

  g_assert_nonnull (t);
  return t;
}

static void
assert_shape (GnnTensor *t,
              guint      ndim,
              gint64     d0,
              gint64     d1,
              gint64     d2)
{
  const gint64 want[3] = { d0, d1, d2 };
  guint got_ndim = 0;
  const gint64 *shape = gnn_tensor_get_shape (t, &got_ndim);

  g_assert_cmpuint (got_ndim, ==, ndim);
  for (guint d = 0; d < ndim; d++)
    g_assert_cmpint (shape[d], ==, want[d]);
}

/* The parameter @name of @m (transfer none). */
static GnnTensor *
param (GnnModule  *m,
       const char *name)
{
  GnnParameter *p = gnn_module_get_parameter (m, name, NULL);

  g_assert_nonnull (p);
  return GNN_TENSOR (p);
}

static void
set_parameter (GnnModule    *m,
               const char   *name,
               const double *v,
               gsize         n)
{
  GnnTensor *p = param (m, name);
  guint ndim = 0;
  const gint64 *shape = gnn_tensor_get_shape (p, &ndim);
  g_autoptr(GnnTensor) src = doubles (v, n, shape, ndim);
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  g_assert_true (gnn_tensor_copy_ (p, src, NULL));
}

static void
test_rnn_parameter_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = network (GNN_TYPE_LSTM, &error, "input-size", (gint64) 3, "hidden-size",
                                       (gint64) 4, "num-layers", (gint64) 2, "bidirectional", TRUE,
                                       "proj-size", (gint64) 2, NULL);
  g_autoptr(GnnModule) gru = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) keys = NULL;
  g_autofree char *text = NULL;
  const char *suffixes[] = { "weight_ih_l%u%s", "weight_hh_l%u%s", "bias_ih_l%u%s", "bias_hh_l%u%s",
                             "weight_hr_l%u%s" };
  guint k = 0;

  g_assert_no_error (error);
  sd = gnn_module_state_dict (lstm);
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpuint (g_strv_length (keys), ==, 20);
  for (guint layer = 0; layer < 2; layer++)
    for (guint dir = 0; dir < 2; dir++)
      for (guint s = 0; s < G_N_ELEMENTS (suffixes); s++)
        {
          g_autofree char *want = g_strdup_printf (suffixes[s], layer, dir ? "_reverse" : "");

          g_assert_cmpstr (keys[k++], ==, want);
        }
  /* weight_ih_l1: [4 * hidden, 2 * proj], weight_hr_l0: [proj, hidden] */
  assert_shape (gnn_state_dict_lookup (sd, "weight_ih_l1"), 2, 16, 4, 0);
  assert_shape (gnn_state_dict_lookup (sd, "weight_hr_l0_reverse"), 2, 2, 4, 0);
  /* torch 1.13 puts proj_size right after the sizes */
  text = gnn_module_to_string (lstm);
  g_assert_cmpstr (text, ==, "LSTM(3, 4, proj_size=2, num_layers=2, bidirectional=True)");

  gru = network (GNN_TYPE_GRU, &error, "input-size", (gint64) 5, "hidden-size", (gint64) 6,
                 "has-bias", FALSE, NULL);
  g_assert_no_error (error);
  g_clear_object (&sd);
  g_clear_pointer (&keys, g_strfreev);
  sd = gnn_module_state_dict (gru);
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpuint (g_strv_length (keys), ==, 2);
  assert_shape (gnn_state_dict_lookup (sd, "weight_hh_l0"), 2, 18, 6, 0);
}

/* h_t = tanh(w_ih x_t + b_ih + w_hh h_{t-1} + b_hh), worked by hand. */
static void
test_rnn_recurrence (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) rnn = network (GNN_TYPE_RNN, &error, "input-size", (gint64) 1, "hidden-size",
                                      (gint64) 1, "dtype", GNN_DTYPE_F64, NULL);
  const double xs[3] = { 1.0, 2.0, -1.0 }, h0v[1] = { 0.3 };
  const double w_ih = 0.5, w_hh = -0.25, b_ih = 0.1, b_hh = -0.05;
  const gint64 xshape[3] = { 3, 1, 1 }, hshape[3] = { 1, 1, 1 };
  g_autoptr(GnnTensor) x = doubles (xs, 3, xshape, 3);
  g_autoptr(GnnTensor) h0 = doubles (h0v, 1, hshape, 3);
  g_autoptr(GnnValue) out = NULL;
  g_autofree double *y = NULL;
  g_autofree double *hn = NULL;
  double h = h0v[0];

  g_assert_no_error (error);
  set_parameter (rnn, "weight_ih_l0", &w_ih, 1);
  set_parameter (rnn, "weight_hh_l0", &w_hh, 1);
  set_parameter (rnn, "bias_ih_l0", &b_ih, 1);
  set_parameter (rnn, "bias_hh_l0", &b_hh, 1);
  out = call (rnn, gnn_value_new_tuple_take (2, gnn_value_new_tensor (x), gnn_value_new_tensor (h0)),
              &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_value_get_length (out), ==, 2);
  y = gnn_tensor_to_doubles (item_tensor (out, 0), NULL);
  hn = gnn_tensor_to_doubles (item_tensor (out, 1), NULL);
  for (guint t = 0; t < 3; t++)
    {
      h = tanh (w_ih * xs[t] + b_ih + w_hh * h + b_hh);
      g_assert_cmpfloat_with_epsilon (y[t], h, 1e-14);
    }
  g_assert_cmpfloat_with_epsilon (hn[0], h, 1e-14);
}

/* Shapes of (output, (h_n, c_n)): batch_first, bidirectional, unbatched. */
static void
test_lstm_output_tuple (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = network (GNN_TYPE_LSTM, &error, "input-size", (gint64) 3, "hidden-size",
                                       (gint64) 4, "num-layers", (gint64) 2, "bidirectional", TRUE,
                                       "batch-first", TRUE, NULL);
  const gint64 xs[3] = { 5, 7, 3 }, us[2] = { 7, 3 };
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) xu = NULL;
  g_autoptr(GnnValue) out = NULL;
  g_autoptr(GnnValue) out_u = NULL;
  GnnValue *state;

  g_assert_no_error (error);
  x = gnn_tensor_zeros (xs, 3, GNN_DTYPE_F32, NULL);
  out = call (lstm, gnn_value_new_tuple_take (1, gnn_value_new_tensor (x)), &error);
  g_assert_no_error (error);
  assert_shape (item_tensor (out, 0), 3, 5, 7, 8);
  state = gnn_value_get_item (out, 1);
  g_assert_cmpuint (gnn_value_get_length (state), ==, 2);
  assert_shape (item_tensor (state, 0), 3, 4, 5, 4);
  assert_shape (item_tensor (state, 1), 3, 4, 5, 4);

  /* unbatched: [seq, features] in, no batch dim out */
  xu = gnn_tensor_zeros (us, 2, GNN_DTYPE_F32, NULL);
  out_u = call (lstm, gnn_value_new_tuple_take (1, gnn_value_new_tensor (xu)), &error);
  g_assert_no_error (error);
  assert_shape (item_tensor (out_u, 0), 2, 7, 8, 0);
  assert_shape (item_tensor (gnn_value_get_item (out_u, 1), 0), 2, 4, 4, 0);

  /* the one-tensor call names the general one */
  g_assert_null (gnn_module_call (lstm, x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TYPE);
  g_assert_nonnull (strstr (error->message, "gnn_module_call_args"));
}

typedef struct
{
  GnnModule *lstm;
  GnnTensor *x, *h0, *c0;
} LossCase;

/* sum(output · sin) + sum(h_n²) + sum(c_n): every part of the output counts. */
static GnnTensor *
lstm_loss (LossCase *lc)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnValue) out = call (lc->lstm, gnn_value_new_tuple_take (
                                    2, gnn_value_new_tensor (lc->x),
                                    gnn_value_new_tuple_take (2, gnn_value_new_tensor (lc->h0),
                                                              gnn_value_new_tensor (lc->c0))), &error);
  GnnTensor *y, *hn, *cn;
  guint ndim = 0;
  const gint64 *shape;
  g_autoptr(GnnTensor) weights = NULL;
  g_autoptr(GnnTensor) yw = NULL;
  g_autoptr(GnnTensor) hh = NULL;
  g_autoptr(GnnTensor) s1 = NULL;
  g_autoptr(GnnTensor) s2 = NULL;
  g_autoptr(GnnTensor) s3 = NULL;
  g_autoptr(GnnTensor) s12 = NULL;

  g_assert_no_error (error);
  y = item_tensor (out, 0);
  hn = item_tensor (gnn_value_get_item (out, 1), 0);
  cn = item_tensor (gnn_value_get_item (out, 1), 1);
  shape = gnn_tensor_get_shape (y, &ndim);
  weights = wiggly (shape, ndim, 7);
  yw = gnn_tensor_mul (y, weights, NULL);
  hh = gnn_tensor_mul (hn, hn, NULL);
  s1 = gnn_tensor_sum (yw, NULL, 0, FALSE, NULL);
  s2 = gnn_tensor_sum (hh, NULL, 0, FALSE, NULL);
  s3 = gnn_tensor_sum (cn, NULL, 0, FALSE, NULL);
  s12 = gnn_tensor_add (s1, s2, NULL);
  return gnn_tensor_add (s12, s3, NULL);
}

static double
lstm_loss_value (LossCase *lc)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) loss = lstm_loss (lc);

  return gnn_tensor_item (loss, NULL);
}

/* d loss / d t[i] by central differences, t changed in place and restored. */
static double
numeric_grad (LossCase  *lc,
              GnnTensor *t,
              gsize      i)
{
  const double eps = 1e-6;
  gsize n = 0;
  g_autofree double *v = gnn_tensor_to_doubles (t, &n);
  guint ndim = 0;
  const gint64 *shape = gnn_tensor_get_shape (t, &ndim);
  double base = v[i], up = 0.0, down = 0.0;

  for (int side = 0; side < 3; side++)
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
      g_autoptr(GnnTensor) src = NULL;

      v[i] = side == 0 ? base + eps : side == 1 ? base - eps : base;
      src = doubles (v, n, shape, ndim);
      g_assert_true (gnn_tensor_copy_ (t, src, NULL));
      if (side == 0)
        up = lstm_loss_value (lc);
      else if (side == 1)
        down = lstm_loss_value (lc);
    }
  return (up - down) / (2 * eps);
}

static void
assert_grad_matches (LossCase  *lc,
                     GnnTensor *t)
{
  GnnTensor *grad = gnn_tensor_get_grad (t);
  gsize n = 0;
  g_autofree double *g = NULL;

  g_assert_nonnull (grad);
  g = gnn_tensor_to_doubles (grad, &n);
  g_assert_cmpuint (n, ==, (gsize) gnn_tensor_get_numel (t));
  for (gsize i = 0; i < n; i += 1 + n / 7)
    g_assert_cmpfloat_with_epsilon (g[i], numeric_grad (lc, t, i), 1e-6);
}

static void
test_lstm_gradients (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = network (GNN_TYPE_LSTM, &error, "input-size", (gint64) 3, "hidden-size",
                                       (gint64) 4, "num-layers", (gint64) 2, "bidirectional", TRUE,
                                       "proj-size", (gint64) 2, "dtype", GNN_DTYPE_F64, NULL);
  const gint64 xs[3] = { 5, 2, 3 }, hs[3] = { 4, 2, 2 }, cs[3] = { 4, 2, 4 };
  g_autoptr(GnnTensor) x = wiggly (xs, 3, 1);
  g_autoptr(GnnTensor) h0 = wiggly (hs, 3, 2);
  g_autoptr(GnnTensor) c0 = wiggly (cs, 3, 3);
  g_autoptr(GnnTensor) loss = NULL;
  LossCase lc = { lstm, x, h0, c0 };

  g_assert_no_error (error);
  gnn_tensor_set_requires_grad (x, TRUE);
  gnn_tensor_set_requires_grad (h0, TRUE);
  gnn_tensor_set_requires_grad (c0, TRUE);
  loss = lstm_loss (&lc);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  assert_grad_matches (&lc, x);
  assert_grad_matches (&lc, h0);
  assert_grad_matches (&lc, c0);
  assert_grad_matches (&lc, param (lstm, "weight_hh_l1_reverse"));
  assert_grad_matches (&lc, param (lstm, "weight_hr_l0"));
  assert_grad_matches (&lc, param (lstm, "bias_ih_l0"));
}

/* A packed batch gives, per sequence, what the sequence alone gives. */
static void
test_gru_packed_sequence (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) gru = network (GNN_TYPE_GRU, &error, "input-size", (gint64) 2, "hidden-size",
                                      (gint64) 3, "bidirectional", TRUE, "dtype", GNN_DTYPE_F64, NULL);
  const gint64 xs[3] = { 4, 2, 2 }, lengths_v[2] = { 2, 4 };
  g_autoptr(GnnTensor) x = wiggly (xs, 3, 4);
  g_autoptr(GnnTensor) lengths = gnn_tensor_new_from_int64s (lengths_v, 2, (gint64[]) { 2 }, 1, NULL);
  g_autoptr(GnnPackedSequence) packed = NULL;
  g_autoptr(GnnValue) out = NULL;
  g_autoptr(GnnTensor) padded = NULL;
  g_autoptr(GnnTensor) out_lengths = NULL;
  GObject *packed_out;

  g_assert_no_error (error);
  packed = gnn_pack_padded_sequence (x, lengths, FALSE, FALSE, &error);
  g_assert_no_error (error);
  out = call (gru, gnn_value_new_tuple_take (1, gnn_value_new_object (G_OBJECT (packed))), &error);
  g_assert_no_error (error);
  packed_out = gnn_value_get_object (gnn_value_get_item (out, 0));
  g_assert_true (GNN_IS_PACKED_SEQUENCE (packed_out));
  padded = gnn_packed_sequence_pad (GNN_PACKED_SEQUENCE (packed_out), FALSE, 0.0, -1, &out_lengths, &error);
  g_assert_no_error (error);
  assert_shape (padded, 3, 4, 2, 6);

  for (gint64 b = 0; b < 2; b++)
    {
      g_autoptr(GnnTensor) column = gnn_tensor_select (x, 1, b, NULL);
      g_autoptr(GnnTensor) alone = gnn_tensor_narrow (column, 0, 0, lengths_v[b], NULL);
      g_autoptr(GnnValue) ref = call (gru, gnn_value_new_tuple_take (1, gnn_value_new_tensor (alone)), &error);
      g_autofree double *want = NULL;
      g_autofree double *got = NULL;
      g_autoptr(GnnTensor) got_column = gnn_tensor_select (padded, 1, b, NULL);
      g_autoptr(GnnTensor) got_rows = gnn_tensor_narrow (got_column, 0, 0, lengths_v[b], NULL);
      g_autoptr(GnnTensor) h_b = NULL;
      gsize n = 0;

      g_assert_no_error (error);
      want = gnn_tensor_to_doubles (item_tensor (ref, 0), &n);
      got = gnn_tensor_to_doubles (got_rows, NULL);
      for (gsize i = 0; i < n; i++)
        g_assert_cmpfloat_with_epsilon (got[i], want[i], 1e-12);
      /* h_n of the packed run: each sequence's own last step */
      h_b = gnn_tensor_select (item_tensor (out, 1), 1, b, NULL);
      g_clear_pointer (&want, g_free);
      g_clear_pointer (&got, g_free);
      want = gnn_tensor_to_doubles (item_tensor (ref, 1), &n);
      got = gnn_tensor_to_doubles (h_b, NULL);
      for (gsize i = 0; i < n; i++)
        g_assert_cmpfloat_with_epsilon (got[i], want[i], 1e-12);
    }
}

/* LSTMCell(x, (h, c)) is the first step of an LSTM with the same weights. */
static void
test_lstm_cell_step (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = network (GNN_TYPE_LSTM, &error, "input-size", (gint64) 3, "hidden-size",
                                       (gint64) 2, "dtype", GNN_DTYPE_F64, NULL);
  g_autoptr(GnnModule) cell = network (GNN_TYPE_LSTM_CELL, &error, "input-size", (gint64) 3,
                                       "hidden-size", (gint64) 2, "dtype", GNN_DTYPE_F64, NULL);
  const char *names[4][2] = { { "weight_ih_l0", "weight_ih" }, { "weight_hh_l0", "weight_hh" },
                              { "bias_ih_l0", "bias_ih" }, { "bias_hh_l0", "bias_hh" } };
  const gint64 xs[3] = { 1, 4, 3 }, hs[3] = { 1, 4, 2 };
  g_autoptr(GnnTensor) x = wiggly (xs, 3, 5);
  g_autoptr(GnnTensor) h = wiggly (hs, 3, 6);
  g_autoptr(GnnTensor) c = wiggly (hs, 3, 8);
  g_autoptr(GnnTensor) x1 = NULL;
  g_autoptr(GnnTensor) h1 = NULL;
  g_autoptr(GnnTensor) c1 = NULL;
  g_autoptr(GnnValue) layer_out = NULL;
  g_autoptr(GnnValue) cell_out = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    {
      gsize n = 0;
      g_autofree double *v =
        gnn_tensor_to_doubles (param (lstm, names[i][0]), &n);

      set_parameter (cell, names[i][1], v, n);
    }
  layer_out = call (lstm, gnn_value_new_tuple_take (
                      2, gnn_value_new_tensor (x),
                      gnn_value_new_tuple_take (2, gnn_value_new_tensor (h), gnn_value_new_tensor (c))),
                    &error);
  g_assert_no_error (error);
  x1 = gnn_tensor_select (x, 0, 0, NULL);
  h1 = gnn_tensor_select (h, 0, 0, NULL);
  c1 = gnn_tensor_select (c, 0, 0, NULL);
  cell_out = call (cell, gnn_value_new_tuple_take (
                     2, gnn_value_new_tensor (x1),
                     gnn_value_new_tuple_take (2, gnn_value_new_tensor (h1), gnn_value_new_tensor (c1))),
                   &error);
  g_assert_no_error (error);
  for (guint k = 0; k < 2; k++)
    {
      gsize n = 0;
      g_autofree double *want = gnn_tensor_to_doubles (item_tensor (gnn_value_get_item (layer_out, 1), k), &n);
      g_autofree double *got = gnn_tensor_to_doubles (item_tensor (cell_out, k), NULL);

      g_assert_cmpuint (n, ==, 8);
      for (gsize i = 0; i < n; i++)
        g_assert_cmpfloat_with_epsilon (got[i], want[i], 1e-14);
    }
}

/* torch's messages; the parameters are untouched by a failed call. */
static void
test_rnn_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = network (GNN_TYPE_LSTM, &error, "input-size", (gint64) 3, "hidden-size",
                                       (gint64) 4, NULL);
  g_autoptr(GnnModule) bad = NULL;
  const gint64 xs[3] = { 2, 1, 5 }, ok[3] = { 2, 1, 3 }, hs[3] = { 1, 1, 5 };
  g_autoptr(GnnTensor) x = gnn_tensor_zeros (xs, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x_ok = gnn_tensor_zeros (ok, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) h = gnn_tensor_zeros (hs, 3, GNN_DTYPE_F32, NULL);
  g_autofree double *before = NULL;
  g_autofree double *after = NULL;
  GnnValue *out;
  gsize n = 0;

  g_assert_no_error (error);
  before = gnn_tensor_to_doubles (param (lstm, "weight_ih_l0"), &n);
  out = call (lstm, gnn_value_new_tuple_take (1, gnn_value_new_tensor (x)), &error);
  g_assert_null (out);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "input.size(-1) must be equal to input_size. Expected 3, got 5");
  g_clear_error (&error);

  out = call (lstm, gnn_value_new_tuple_take (2, gnn_value_new_tensor (x_ok),
                                              gnn_value_new_tuple_take (2, gnn_value_new_tensor (h),
                                                                        gnn_value_new_tensor (h))),
              &error);
  g_assert_null (out);
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==, "Expected hidden[0] size (1, 1, 4), got [1, 1, 5]");
  g_clear_error (&error);
  after = gnn_tensor_to_doubles (param (lstm, "weight_ih_l0"), NULL);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (before[i], ==, after[i]);

  bad = network (GNN_TYPE_RNN, &error, "input-size", (gint64) 3, "hidden-size", (gint64) 4,
                 "nonlinearity", "sigmoid", NULL);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Unknown nonlinearity 'sigmoid'");
}

/* A model file rebuilds the layer from its properties on the meta device
 * and maps the weights: the same outputs (torch.save(model) / torch.load). */
static void
test_rnn_model_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = network (GNN_TYPE_LSTM, &error, "input-size", (gint64) 3, "hidden-size",
                                       (gint64) 4, "num-layers", (gint64) 2, "bidirectional", TRUE,
                                       "proj-size", (gint64) 2, "batch-first", TRUE, "dropout", 0.25,
                                       "dtype", GNN_DTYPE_F64, NULL);
  g_autofree char *dir = g_dir_make_tmp ("gnn-rnn-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "lstm.safetensors", NULL);
  const gint64 xs[3] = { 2, 5, 3 };
  g_autoptr(GnnTensor) x = wiggly (xs, 3, 9);
  g_autoptr(GnnModule) loaded = NULL;
  g_autoptr(GnnValue) want = NULL;
  g_autoptr(GnnValue) got = NULL;
  g_autofree char *repr_want = NULL;
  g_autofree char *repr_got = NULL;
  gsize n = 0;
  g_autofree double *a = NULL;
  g_autofree double *b = NULL;

  g_assert_no_error (error);
  g_assert_true (gnn_module_save_model (lstm, path, NULL, &error));
  g_assert_no_error (error);
  loaded = gnn_module_load_model (path, GNN_LOAD_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (GNN_IS_LSTM (loaded));
  repr_want = gnn_module_to_string (lstm);
  repr_got = gnn_module_to_string (loaded);
  g_assert_cmpstr (repr_got, ==, repr_want);
  gnn_module_eval (lstm);
  gnn_module_eval (loaded);
  want = call (lstm, gnn_value_new_tuple_take (1, gnn_value_new_tensor (x)), &error);
  g_assert_no_error (error);
  got = call (loaded, gnn_value_new_tuple_take (1, gnn_value_new_tensor (x)), &error);
  g_assert_no_error (error);
  a = gnn_tensor_to_doubles (item_tensor (want, 0), &n);
  b = gnn_tensor_to_doubles (item_tensor (got, 0), NULL);
  g_assert_cmpuint (n, ==, 2 * 5 * 4);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (a[i], ==, b[i]);
  g_clear_object (&loaded);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/rnn/parameter-names", test_rnn_parameter_names);
  g_test_add_func ("/nn/rnn/recurrence", test_rnn_recurrence);
  g_test_add_func ("/nn/rnn/output-tuple", test_lstm_output_tuple);
  g_test_add_func ("/nn/rnn/gradients", test_lstm_gradients);
  g_test_add_func ("/nn/rnn/packed-sequence", test_gru_packed_sequence);
  g_test_add_func ("/nn/rnn/cell-step", test_lstm_cell_step);
  g_test_add_func ("/nn/rnn/errors", test_rnn_errors);
  g_test_add_func ("/nn/rnn/model-file", test_rnn_model_file);
  return g_test_run ();
}
