/* gnn-rnn-forward.c: the forward of the multi-layer recurrent networks —
 * torch's RNN/LSTM/GRU.forward (argument checks and their messages, batch
 * layouts, packed sequences, initial states) around one graph node per
 * layer and direction (gnn_rnn_layer)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-rnn-module-private.h"

/* The call, normalized: a time-major [N, input_size] sequence in packed
 * layout and the initial states [layers · directions, B, ·]. */
typedef struct
{
  GnnRNNBase        *self;
  GnnRNNBasePrivate *priv;
  const char        *name;       /* "LSTM", for messages */
  gboolean           lstm;
  GnnPackedSequence *packed;     /* the input, when packed */
  gboolean           batched;
  gint               batch_dim;
  GnnTensor         *input;      /* as given (unsqueezed when unbatched) */
  GnnTensor         *hx;
  GnnTensor         *cx;
  gint64             steps;
  gint64             batch;
  gint64            *batch_sizes;   /* packed: the steps' sizes */
} Call;

static void
call_clear (Call *c)
{
  g_clear_object (&c->input);
  g_clear_object (&c->hx);
  g_clear_object (&c->cx);
  g_clear_pointer (&c->batch_sizes, g_free);
}

static GnnTensor *
unsqueeze_owned (GnnTensor  *t,
                 gint        dim,
                 GError    **error)
{
  return gnn_tensor_unsqueeze (t, dim, error);
}

/* hx of an LSTM: a tuple or list of two tensors. */
static gboolean
read_lstm_state (Call      *c,
                 GnnValue  *hx,
                 GError   **error)
{
  GnnValueKind kind = gnn_value_get_kind (hx);

  if ((kind != GNN_VALUE_TUPLE && kind != GNN_VALUE_LIST) || gnn_value_get_length (hx) != 2 ||
      gnn_value_get_kind (gnn_value_get_item (hx, 0)) != GNN_VALUE_TENSOR ||
      gnn_value_get_kind (gnn_value_get_item (hx, 1)) != GNN_VALUE_TENSOR)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "LSTM.forward(): hx must be a tuple (h_0, c_0) of tensors, not %s",
                   gnn_value_get_type_name (hx));
      return FALSE;
    }
  c->hx = g_object_ref (gnn_value_get_tensor (gnn_value_get_item (hx, 0)));
  c->cx = g_object_ref (gnn_value_get_tensor (gnn_value_get_item (hx, 1)));
  return TRUE;
}

/* torch's forward up to check_forward_args: the input's layout, hx's
 * rank, the unbatched case. */
static gboolean
read_arguments (Call      *c,
                GObject   *input,
                GnnValue  *hx,
                GError   **error)
{
  if (hx != NULL && c->lstm)
    {
      if (!read_lstm_state (c, hx, error))
        return FALSE;
    }
  else if (hx != NULL)
    {
      if (gnn_value_get_kind (hx) != GNN_VALUE_TENSOR)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "%s.forward(): argument 'hx' (position 2) must be Tensor, not %s",
                       c->name, gnn_value_get_type_name (hx));
          return FALSE;
        }
      c->hx = g_object_ref (gnn_value_get_tensor (hx));
    }

  if (GNN_IS_PACKED_SEQUENCE (input))
    {
      GnnTensor *sizes = gnn_packed_sequence_get_batch_sizes (GNN_PACKED_SEQUENCE (input));
      GnnTensor *data = gnn_packed_sequence_get_data (GNN_PACKED_SEQUENCE (input));
      g_autoptr(GnnTensor) sizes_c = NULL;

      if (data == NULL || sizes == NULL || gnn_tensor_get_dtype (sizes) != GNN_DTYPE_I64 ||
          gnn_tensor_get_ndim (sizes) != 1 || gnn_tensor_get_numel (sizes) == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s.forward(): the packed sequence has no data or batch sizes", c->name);
          return FALSE;
        }
      c->packed = GNN_PACKED_SEQUENCE (input);
      c->input = g_object_ref (data);
      sizes_c = gnn_tensor_contiguous (sizes);
      c->steps = gnn_tensor_get_numel (sizes_c);
      c->batch_sizes = g_memdup2 (gnn_tensor_get_data (sizes_c), sizeof (gint64) * (gsize) c->steps);
      c->batch = c->batch_sizes[0];
      c->batched = TRUE;
      return TRUE;
    }
  if (!GNN_IS_TENSOR (input))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s.forward(): argument 'input' (position 1) must be Tensor or PackedSequence, "
                   "not %s", c->name, G_OBJECT_TYPE_NAME (input));
      return FALSE;
    }

  c->batched = gnn_tensor_get_ndim (GNN_TENSOR (input)) == 3;
  c->batch_dim = c->priv->batch_first ? 0 : 1;
  if (c->batched)
    c->input = g_object_ref (GNN_TENSOR (input));
  else if ((c->input = unsqueeze_owned (GNN_TENSOR (input), c->batch_dim, error)) == NULL)
    return FALSE;

  if (c->hx != NULL && c->lstm)
    {
      guint want = c->batched ? 3 : 2;
      guint hd = gnn_tensor_get_ndim (c->hx), cd = gnn_tensor_get_ndim (c->cx);

      if (hd != want || cd != want)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "For %s %u-D input, hx and cx should also be %u-D but got (%u-D, %u-D) tensors",
                       c->batched ? "batched" : "unbatched", want, want, hd, cd);
          return FALSE;
        }
    }
  else if (c->hx != NULL)
    {
      guint want = c->batched ? 3 : 2, hd = gnn_tensor_get_ndim (c->hx);

      if (hd != want)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "For %s %u-D input, hx should also be %u-D but got %u-D tensor",
                       c->batched ? "batched" : "unbatched", want, want, hd);
          return FALSE;
        }
    }
  if (!c->batched && c->hx != NULL)
    {
      GnnTensor *h = unsqueeze_owned (c->hx, 1, error);
      GnnTensor *cc = h != NULL && c->cx != NULL ? unsqueeze_owned (c->cx, 1, error) : NULL;

      g_object_unref (c->hx);
      c->hx = h;
      g_clear_object (&c->cx);
      c->cx = cc;
      if (h == NULL || (c->lstm && cc == NULL))
        return FALSE;
    }
  return gnn_rnn_size (c->input, c->priv->batch_first ? 0 : 1, &c->batch, error) &&
         gnn_rnn_size (c->input, c->priv->batch_first ? 1 : 0, &c->steps, error);
}

/* Zeros for a missing state; the packed batch's order for a given one. */
static gboolean
prepare_states (Call     *c,
                GError  **error)
{
  GnnRNNBasePrivate *priv = c->priv;
  gint64 layers = priv->num_layers * (priv->bidirectional ? 2 : 1);
  gint64 out = priv->proj_size > 0 ? priv->proj_size : priv->hidden_size;
  GnnTensor *sorted = c->packed != NULL ? gnn_packed_sequence_get_sorted_indices (c->packed) : NULL;
  GnnDType dtype = gnn_tensor_get_dtype (c->input);

  if (c->hx == NULL)
    {
      gint64 hs[3] = { layers, c->batch, out }, cs[3] = { layers, c->batch, priv->hidden_size };

      if (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64)
        dtype = priv->dtype;   /* the input's dtype error comes later, as torch's */
      if ((c->hx = gnn_tensor_zeros (hs, 3, dtype, error)) == NULL ||
          (c->lstm && (c->cx = gnn_tensor_zeros (cs, 3, dtype, error)) == NULL))
        return FALSE;
      return TRUE;
    }
  if (sorted != NULL)
    {
      GnnTensor *h = gnn_tensor_index_select (c->hx, 1, sorted, error);
      GnnTensor *cc = h != NULL && c->lstm ? gnn_tensor_index_select (c->cx, 1, sorted, error) : NULL;

      g_object_unref (c->hx);
      c->hx = h;
      g_clear_object (&c->cx);
      c->cx = cc;
      if (h == NULL || (c->lstm && cc == NULL))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_state_size (GnnTensor   *state,
                  const char  *label,
                  gint64       layers,
                  gint64       batch,
                  gint64       features,
                  GError     **error)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (state, &ndim);
  g_autofree char *got = NULL;

  if (ndim == 3 && shape[0] == layers && shape[1] == batch && shape[2] == features)
    return TRUE;
  got = gnn_shape_to_string (shape, ndim);
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
               "Expected %s size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
               "), got %s", label, layers, batch, features, got);
  return FALSE;
}

/* torch's check_forward_args, then what _VF checks. */
static gboolean
check_arguments (Call       *c,
                 GnnTensor  *weight,
                 GError    **error)
{
  GnnRNNBasePrivate *priv = c->priv;
  guint want = c->packed != NULL ? 2 : 3, ndim = gnn_tensor_get_ndim (c->input);
  gint64 layers = priv->num_layers * (priv->bidirectional ? 2 : 1);
  gint64 out = priv->proj_size > 0 ? priv->proj_size : priv->hidden_size;
  gint64 features;

  if (ndim != want)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "input must have %u dimensions, got %u",
                   want, ndim);
      return FALSE;
    }
  features = gnn_tensor_get_size (c->input, (gint) ndim - 1, NULL);
  if (features != priv->input_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "input.size(-1) must be equal to input_size. Expected %" G_GINT64_FORMAT
                   ", got %" G_GINT64_FORMAT, priv->input_size, features);
      return FALSE;
    }
  if (!check_state_size (c->hx, c->lstm ? "hidden[0]" : "hidden", layers, c->batch, out, error) ||
      (c->lstm &&
       !check_state_size (c->cx, "hidden[1]", layers, c->batch, priv->hidden_size, error)))
    return FALSE;
  if (c->steps == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Expected sequence length to be larger than 0 in RNN");
      return FALSE;
    }
  return gnn_rnn_check_dtype (c->input, weight, error) &&
         gnn_rnn_check_dtype (c->hx, weight, error) &&
         (!c->lstm || gnn_rnn_check_dtype (c->cx, weight, error));
}

/* One layer's weights from the registry (torch reads self._flat_weights,
 * kept in step with attribute assignments). */
static gboolean
layer_weights (Call        *c,
               gint64       index,
               GnnTensor  **weights,
               GError     **error)
{
  char **names = c->priv->names + index * GNN_RNN_N_WEIGHTS;

  for (guint k = 0; k < GNN_RNN_N_WEIGHTS; k++)
    {
      GObject *w = names[k][0] != '\0'
                   ? gnn_module_get_child (GNN_MODULE (c->self), names[k], NULL) : NULL;

      if (names[k][0] != '\0' && w == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s: %s is None", c->name, names[k]);
          return FALSE;
        }
      weights[k] = (GnnTensor *) w;
    }
  return TRUE;
}

/* Runs the layers: the output rows [N, directions · P], and each layer
 * and direction's h_n (and c_n) appended to @h_n (@c_n). */
static GnnTensor *
run_layers (Call       *c,
            GnnTensor  *sequence,
            GPtrArray  *h_n,
            GPtrArray  *c_n,
            GError    **error)
{
  GnnRNNBasePrivate *priv = c->priv;
  guint directions = priv->bidirectional ? 2 : 1;
  GnnRnnLayout layout = { priv->mode, FALSE, c->steps, c->batch, c->batch_sizes };
  g_autoptr(GnnTensor) layer_input = g_object_ref (sequence);

  for (gint64 layer = 0; layer < priv->num_layers; layer++)
    {
      GnnTensor *outputs[2] = { NULL, NULL };
      GnnTensor *layer_output = NULL;
      gboolean ok = TRUE;

      for (guint d = 0; ok && d < directions; d++)
        {
          gint64 index = layer * directions + d;
          GnnTensor *weights[GNN_RNN_N_WEIGHTS];
          g_autoptr(GnnTensor) h0 = NULL;
          g_autoptr(GnnTensor) c0 = NULL;
          GnnTensor *hn = NULL, *cn = NULL;

          layout.reverse = d == 1;
          ok = layer_weights (c, index, weights, error) &&
               (h0 = gnn_tensor_select (c->hx, 0, index, error)) != NULL &&
               (!c->lstm || (c0 = gnn_tensor_select (c->cx, 0, index, error)) != NULL) &&
               gnn_rnn_layer (&layout, layer_input, h0, c0, weights, &outputs[d], &hn,
                              c->lstm ? &cn : NULL, error);
          if (hn != NULL)
            g_ptr_array_add (h_n, hn);
          if (cn != NULL)
            g_ptr_array_add (c_n, cn);
        }
      if (ok)
        layer_output = directions == 2 ? gnn_tensor_cat (outputs, 2, 1, error)
                                       : g_object_ref (outputs[0]);
      g_clear_object (&outputs[0]);
      g_clear_object (&outputs[1]);
      if (layer_output == NULL)
        return NULL;
      if (priv->dropout > 0 && layer < priv->num_layers - 1 &&
          gnn_module_get_training (GNN_MODULE (c->self)))
        {
          GnnTensor *dropped = gnn_dropout (layer_output, priv->dropout, TRUE, FALSE, NULL, error);

          g_object_unref (layer_output);
          if (dropped == NULL)
            return NULL;
          layer_output = dropped;
        }
      g_object_unref (layer_input);
      layer_input = layer_output;
    }
  return g_steal_pointer (&layer_input);
}

/* The states of every layer and direction as torch's [layers · dirs, B, ·],
 * in the batch's own order. */
static GnnTensor *
stack_states (Call       *c,
              GPtrArray  *states,
              GError    **error)
{
  g_autoptr(GnnTensor) stacked = gnn_tensor_stack ((GnnTensor **) states->pdata, states->len, 0,
                                                   error);
  GnnTensor *unsorted = c->packed != NULL
                        ? gnn_packed_sequence_get_unsorted_indices (c->packed) : NULL;

  if (stacked == NULL)
    return NULL;
  if (unsorted != NULL)
    return gnn_tensor_index_select (stacked, 1, unsorted, error);
  if (!c->batched)
    return gnn_tensor_squeeze (stacked, 1, error);
  return g_steal_pointer (&stacked);
}

/* The output rows as torch returns them: packed like the input, or
 * [L, N, ·] ([N, L, ·] batch-first, [L, ·] unbatched). */
static GnnValue *
shape_output (Call       *c,
              GnnTensor  *rows,
              GError    **error)
{
  g_autoptr(GnnTensor) seq = NULL;
  gint64 shape[3] = { c->steps, c->batch, gnn_tensor_get_size (rows, 1, NULL) };

  if (c->packed != NULL)
    {
      g_autoptr(GnnPackedSequence) out = NULL;

      out = gnn_packed_sequence_new (rows, gnn_packed_sequence_get_batch_sizes (c->packed),
                                     gnn_packed_sequence_get_sorted_indices (c->packed),
                                     gnn_packed_sequence_get_unsorted_indices (c->packed), error);
      return out != NULL ? gnn_value_new_object (G_OBJECT (out)) : NULL;
    }
  if ((seq = gnn_tensor_view (rows, shape, 3, error)) == NULL)
    return NULL;
  if (!c->batched || c->priv->batch_first)
    {
      GnnTensor *t = !c->batched ? gnn_tensor_squeeze (seq, 1, error)
                                 : gnn_tensor_transpose (seq, 0, 1, error);

      return t != NULL ? gnn_value_take_tensor (t) : NULL;
    }
  return gnn_value_new_tensor (seq);
}

/* The time-major [N, input_size] rows of the input. */
static GnnTensor *
sequence_rows (Call     *c,
               GError  **error)
{
  g_autoptr(GnnTensor) time_major = NULL;
  gint64 shape[2] = { c->steps * c->batch, c->priv->input_size };

  if (c->packed != NULL)
    return g_object_ref (c->input);
  time_major = c->priv->batch_first ? gnn_tensor_transpose (c->input, 0, 1, error)
                                    : g_object_ref (c->input);
  if (time_major == NULL)
    return NULL;
  return gnn_tensor_reshape (time_major, shape, 2, error);
}

GnnValue *
gnn_rnn_base_forward (GnnModule  *module,
                      GnnValue   *args,
                      GnnValue   *kwargs,
                      GError    **error)
{
  GnnRNNBase *self = GNN_RNN_BASE (module);
  g_autofree char *function = NULL;
  g_autoptr(GPtrArray) h_n = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) c_n = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnTensor) sequence = NULL;
  g_autoptr(GnnTensor) rows = NULL;
  g_autoptr(GnnTensor) h = NULL;
  g_autoptr(GnnTensor) cc = NULL;
  GnnTensor *first_weight[GNN_RNN_N_WEIGHTS];
  GnnValue *output, *state;
  GObject *input = NULL;
  GnnValue *hx = NULL;
  Call c = { 0 };

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  c.self = self;
  c.priv = gnn_rnn_base_priv (self);
  c.name = gnn_module_get_name (module);
  c.lstm = c.priv->mode == GNN_RNN_MODE_LSTM;
  function = g_strconcat (c.name, ".forward", NULL);
  if (!gnn_args_parse (args, kwargs, function, error,
                       "input", GNN_ARG_OBJECT, &input,
                       "hx", GNN_ARG_OPTIONAL_VALUE, &hx,
                       NULL))
    return NULL;

  if (!read_arguments (&c, input, hx, error) || !prepare_states (&c, error) ||
      !layer_weights (&c, 0, first_weight, error) ||
      !check_arguments (&c, first_weight[GNN_RNN_W_IH], error) ||
      (sequence = sequence_rows (&c, error)) == NULL ||
      (rows = run_layers (&c, sequence, h_n, c_n, error)) == NULL ||
      (h = stack_states (&c, h_n, error)) == NULL ||
      (c.lstm && (cc = stack_states (&c, c_n, error)) == NULL) ||
      (output = shape_output (&c, rows, error)) == NULL)
    {
      call_clear (&c);
      return NULL;
    }
  call_clear (&c);
  state = c.lstm ? gnn_value_new_tuple_take (2, gnn_value_new_tensor (h), gnn_value_new_tensor (cc))
                 : gnn_value_new_tensor (h);
  return gnn_value_new_tuple_take (2, output, state);
}
