/* gnn-rnn-utils.c: torch.nn.utils.rnn's functions — packing padded
 * sequences and padding packed ones
 *
 * Packing and padding move whole rows: each is one index_select over the
 * rows of the source (with one extra row of padding for the padded side),
 * so autograd sends every gradient row back where it came from through
 * index_select's own backward, and padding positions get none.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "nn/gnn-nn-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-tensor-private.h"

static GnnTensor *
int64_vector (const gint64  *values,
              gint64         n,
              GError       **error)
{
  return gnn_tensor_new_from_int64s (values, (gsize) n, &n, 1, error);
}

/* The rows of @source picked by @rows (n of them), reshaped to @shape. */
static GnnTensor *
gather_rows (GnnTensor     *source,
             const gint64  *rows,
             gint64         n,
             const gint64  *shape,
             guint          ndim,
             GError       **error)
{
  g_autoptr(GnnTensor) index = int64_vector (rows, n, error);
  g_autoptr(GnnTensor) picked = NULL;

  if (index == NULL || (picked = gnn_tensor_index_select (source, 0, index, error)) == NULL)
    return NULL;
  return gnn_tensor_reshape (picked, shape, ndim, error);
}

/* @tensors' rows one after the other, then one row of @padding_value: the
 * source the padded results gather from (the last row is the padding). */
static GnnTensor *
rows_with_padding (GnnTensor **tensors,
                   guint       n,
                   double      padding_value,
                   GError    **error)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnTensor) pad = NULL;
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (tensors[0], &ndim);
  gint64 pad_shape[GNN_MAX_DIMS];

  memcpy (pad_shape, shape, sizeof (gint64) * ndim);
  pad_shape[0] = 1;
  pad = gnn_tensor_full (pad_shape, ndim, padding_value, gnn_tensor_get_dtype (tensors[0]), error);
  if (pad == NULL)
    return NULL;
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (parts, g_object_ref (tensors[i]));
  g_ptr_array_add (parts, g_steal_pointer (&pad));
  return gnn_tensor_cat ((GnnTensor **) parts->pdata, parts->len, 0, error);
}

/* Stable sort of 0 .. n-1 by decreasing @keys. */
static gint
compare_desc (gconstpointer a,
              gconstpointer b,
              gpointer      keys)
{
  gint64 ka = ((const gint64 *) keys)[*(const gint64 *) a];
  gint64 kb = ((const gint64 *) keys)[*(const gint64 *) b];

  return ka > kb ? -1 : ka < kb ? 1 : 0;
}

/**
 * gnn_pack_padded_sequence:
 * @input: padded sequences, `[T, B, *]` (`[B, T, *]` with @batch_first)
 * @lengths: the length of each sequence, a 1-D int64 tensor of B values
 * @batch_first: whether @input is `[B, T, *]`
 * @enforce_sorted: whether @lengths must already be in decreasing order;
 *   %FALSE sorts the batch (stably) and records the order in the result
 * @error: return location for a #GError
 *
 * Packs a padded batch, like `torch.nn.utils.rnn.pack_padded_sequence
 * (input, lengths, batch_first, enforce_sorted)`: step t of the result
 * holds row t of every sequence longer than t, longest first. The packing
 * is recorded for autograd (the gradient of each packed row goes back to
 * its place in @input).
 *
 * Returns: (transfer full): the packed sequence, or %NULL with @error set
 *   with torch's messages: @lengths not a 1-D int64 tensor, of the wrong
 *   count, not sorted with @enforce_sorted, a length that is not positive,
 *   an empty @input ("Cannot pack empty tensors."), or a length beyond T
 *
 * Since: 0.1
 */
GnnPackedSequence *
gnn_pack_padded_sequence (GnnTensor  *input,
                          GnnTensor  *lengths,
                          gboolean    batch_first,
                          gboolean    enforce_sorted,
                          GError    **error)
{
  g_autoptr(GnnTensor) len_c = NULL;
  g_autoptr(GnnTensor) flat = NULL;
  g_autoptr(GnnTensor) data = NULL;
  g_autoptr(GnnTensor) sizes = NULL;
  g_autoptr(GnnTensor) sorted = NULL;
  g_autofree gint64 *order = NULL;
  g_autofree gint64 *len = NULL;
  g_autofree gint64 *bs = NULL;
  g_autofree gint64 *rows = NULL;
  gint64 data_shape[GNN_MAX_DIMS];
  const gint64 *shape;
  guint ndim;
  gint64 T, B, steps, n = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (lengths), NULL);
  GNN_CHECK_STORAGE ("pack_padded_sequence", input, error, NULL);
  GNN_CHECK_STORAGE ("pack_padded_sequence", lengths, error, NULL);

  if (gnn_tensor_get_ndim (lengths) != 1 || gnn_tensor_get_dtype (lengths) != GNN_DTYPE_I64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "'lengths' argument should be a 1D CPU int64 tensor, but got %uD cpu %s tensor",
                   gnn_tensor_get_ndim (lengths),
                   gnn_torch_scalar_name (gnn_tensor_get_dtype (lengths)));
      return NULL;
    }
  shape = gnn_tensor_get_shape (input, &ndim);
  if (ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%d, %d], but got 1)",
                   ndim == 0 ? -1 : -(gint) ndim, ndim == 0 ? 0 : (gint) ndim - 1);
      return NULL;
    }
  T = shape[batch_first ? 1 : 0];
  B = shape[batch_first ? 0 : 1];
  len_c = gnn_tensor_contiguous (lengths);
  len = g_memdup2 (gnn_tensor_get_data (len_c), sizeof (gint64) * (gsize) gnn_tensor_get_numel (len_c));
  order = g_new (gint64, MAX (B, 1));
  for (gint64 i = 0; i < B; i++)
    order[i] = i;
  if (gnn_tensor_get_numel (input) == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "Cannot pack empty tensors.");
      return NULL;
    }
  if (gnn_tensor_get_numel (len_c) != B)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected `len(lengths)` to be equal to batch_size, but got %" G_GINT64_FORMAT
                   " (batch_size=%" G_GINT64_FORMAT ")", gnn_tensor_get_numel (len_c), B);
      return NULL;
    }
  if (!enforce_sorted)
    g_qsort_with_data (order, (gint) B, sizeof (gint64), compare_desc, len);
  if (len[order[B - 1]] <= 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Length of all samples has to be greater than 0, but found an element "
                           "in 'lengths' that is <= 0");
      return NULL;
    }
  for (gint64 i = 1; i < B; i++)
    if (len[order[i]] > len[order[i - 1]])
      {
        g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                             "`lengths` array must be sorted in decreasing order when "
                             "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                             "pack_padded_sequence and/or pack_sequence to sidestep this "
                             "requirement if you do not need ONNX exportability.");
        return NULL;
      }
  steps = len[order[0]];
  if (steps > T)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "pack_padded_sequence: a length of %" G_GINT64_FORMAT " is longer than the "
                   "input's %" G_GINT64_FORMAT " time steps", steps, T);
      return NULL;
    }

  /* step t: the sorted positions i with len > t, i.e. the first bs[t] */
  bs = g_new0 (gint64, steps);
  for (gint64 i = 0; i < B; i++)
    for (gint64 t = 0; t < len[order[i]]; t++)
      bs[t]++;
  for (gint64 t = 0; t < steps; t++)
    n += bs[t];
  rows = g_new (gint64, MAX (n, 1));
  n = 0;
  for (gint64 t = 0; t < steps; t++)
    for (gint64 i = 0; i < bs[t]; i++)
      rows[n++] = batch_first ? order[i] * T + t : t * B + order[i];

  flat = gnn_tensor_flatten (input, 0, 1, error);
  if (flat == NULL)
    return NULL;
  memcpy (data_shape + 1, shape + 2, sizeof (gint64) * (ndim - 2));
  data_shape[0] = n;
  if ((data = gather_rows (flat, rows, n, data_shape, ndim - 1, error)) == NULL ||
      (sizes = int64_vector (bs, steps, error)) == NULL ||
      (!enforce_sorted && (sorted = int64_vector (order, B, error)) == NULL))
    return NULL;
  return gnn_packed_sequence_new (data, sizes, sorted, NULL, error);
}

/**
 * gnn_packed_sequence_pad:
 * @sequence: a packed sequence
 * @batch_first: whether the result is `[B, T, *]` rather than `[T, B, *]`
 * @padding_value: the value of the positions past each sequence's end
 * @total_length: the T of the result, at least the longest sequence's
 *   length; -1 for that length (torch's `None`)
 * @lengths: (out) (optional) (transfer full): the length of each sequence,
 *   int64, in the batch's original order
 * @error: return location for a #GError
 *
 * Pads a packed batch back into one tensor, like
 * `torch.nn.utils.rnn.pad_packed_sequence (sequence, batch_first,
 * padding_value, total_length)`; the inverse of
 * [func@Gnn.pack_padded_sequence], the batch in its original order.
 * Recorded for autograd.
 *
 * Returns: (transfer full): the padded batch, or %NULL with @error set
 *   ("Expected total_length to be at least the length of the longest
 *   sequence in input, …")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_pad (GnnPackedSequence  *sequence,
                         gboolean            batch_first,
                         double              padding_value,
                         gint64              total_length,
                         GnnTensor         **lengths,
                         GError            **error)
{
  GnnTensor *data, *unsorted;
  g_autoptr(GnnTensor) sizes_c = NULL;
  g_autoptr(GnnTensor) unsorted_c = NULL;
  g_autoptr(GnnTensor) source = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autofree gint64 *offsets = NULL;
  g_autofree gint64 *slot_len = NULL;
  g_autofree gint64 *rows = NULL;
  g_autofree gint64 *out_len = NULL;
  const gint64 *bs, *perm = NULL, *shape;
  gint64 out_shape[GNN_MAX_DIMS];
  gint64 steps, T, B, pad_row;
  guint ndim;

  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (sequence), NULL);
  if (lengths != NULL)
    *lengths = NULL;
  data = gnn_packed_sequence_get_data (sequence);
  if (data == NULL || gnn_packed_sequence_get_batch_sizes (sequence) == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "pad_packed_sequence: the packed sequence has no data");
      return NULL;
    }
  GNN_CHECK_STORAGE ("pad_packed_sequence", data, error, NULL);
  sizes_c = gnn_tensor_contiguous (gnn_packed_sequence_get_batch_sizes (sequence));
  bs = gnn_tensor_get_data (sizes_c);
  steps = gnn_tensor_get_numel (sizes_c);
  T = steps;
  if (total_length != -1)
    {
      if (total_length < steps)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Expected total_length to be at least the length of the longest sequence "
                       "in input, but got total_length=%" G_GINT64_FORMAT " and max sequence "
                       "length being %" G_GINT64_FORMAT, total_length, steps);
          return NULL;
        }
      T = total_length;
    }
  B = steps > 0 ? bs[0] : 0;
  unsorted = gnn_packed_sequence_get_unsorted_indices (sequence);
  if (unsorted != NULL)
    {
      unsorted_c = gnn_tensor_contiguous (unsorted);
      perm = gnn_tensor_get_data (unsorted_c);
    }

  offsets = g_new (gint64, steps + 1);
  slot_len = g_new0 (gint64, MAX (B, 1));
  offsets[0] = 0;
  for (gint64 t = 0; t < steps; t++)
    {
      offsets[t + 1] = offsets[t] + bs[t];
      for (gint64 s = 0; s < bs[t]; s++)
        slot_len[s]++;
    }
  pad_row = offsets[steps];
  rows = g_new (gint64, MAX (T * B, 1));
  out_len = g_new (gint64, MAX (B, 1));
  for (gint64 b = 0; b < B; b++)
    {
      gint64 slot = perm != NULL ? perm[b] : b;

      out_len[b] = slot_len[slot];
      for (gint64 t = 0; t < T; t++)
        rows[batch_first ? b * T + t : t * B + b] = t < slot_len[slot] ? offsets[t] + slot : pad_row;
    }

  shape = gnn_tensor_get_shape (data, &ndim);
  if (ndim + 1 > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pad_packed_sequence: the result would have more than %d dimensions",
                   GNN_MAX_DIMS);
      return NULL;
    }
  out_shape[0] = batch_first ? B : T;
  out_shape[1] = batch_first ? T : B;
  memcpy (out_shape + 2, shape + 1, sizeof (gint64) * (ndim - 1));
  if ((source = rows_with_padding (&data, 1, padding_value, error)) == NULL ||
      (out = gather_rows (source, rows, T * B, out_shape, ndim + 1, error)) == NULL)
    return NULL;
  if (lengths != NULL && (*lengths = int64_vector (out_len, B, error)) == NULL)
    return NULL;
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_pad_sequence:
 * @sequences: (array length=n_sequences): tensors `[L_i, *]` of the same
 *   trailing shape
 * @n_sequences: their number
 * @batch_first: whether the result is `[B, T, *]` rather than `[T, B, *]`
 * @padding_value: the value of the positions past each sequence's end
 * @error: return location for a #GError
 *
 * Stacks sequences of different lengths into one padded tensor, like
 * `torch.nn.utils.rnn.pad_sequence (sequences, batch_first,
 * padding_value)`: T is the longest length, the dtype the first
 * sequence's. Recorded for autograd.
 *
 * Returns: (transfer full): the padded batch, or %NULL with @error set
 *   ("received an empty list of sequences", a 0-dim sequence, trailing
 *   sizes that differ)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pad_sequence (GnnTensor **sequences,
                         guint       n_sequences,
                         gboolean    batch_first,
                         double      padding_value,
                         GError    **error)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnTensor) source = NULL;
  g_autofree gint64 *rows = NULL;
  gint64 out_shape[GNN_MAX_DIMS];
  const gint64 *first;
  gint64 T = 0, B = n_sequences, start = 0, total = 0;
  guint ndim;
  GnnDType dtype;

  g_return_val_if_fail (sequences != NULL || n_sequences == 0, NULL);
  if (n_sequences == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "received an empty list of sequences");
      return NULL;
    }
  first = gnn_tensor_get_shape (sequences[0], &ndim);
  dtype = gnn_tensor_get_dtype (sequences[0]);
  for (guint i = 0; i < n_sequences; i++)
    {
      guint nd;
      const gint64 *s;

      g_return_val_if_fail (GNN_IS_TENSOR (sequences[i]), NULL);
      s = gnn_tensor_get_shape (sequences[i], &nd);
      if (nd == 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                               "Dimension specified as 0 but tensor has no dimensions");
          return NULL;
        }
      if (nd != ndim)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "pad_sequence: sequence %u has %u dimensions, the first has %u", i, nd, ndim);
          return NULL;
        }
      for (guint d = 1; d < nd; d++)
        if (s[d] != first[d])
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "The size of tensor a (%" G_GINT64_FORMAT ") must match the size of "
                         "tensor b (%" G_GINT64_FORMAT ") at non-singleton dimension %u",
                         first[d], s[d], d);
            return NULL;
          }
      T = MAX (T, s[0]);
      total += s[0];
      if (gnn_tensor_get_dtype (sequences[i]) == dtype)
        g_ptr_array_add (parts, g_object_ref (sequences[i]));
      else
        {
          GnnTensor *converted = gnn_tensor_to_dtype (sequences[i], dtype, error);

          if (converted == NULL)
            return NULL;
          g_ptr_array_add (parts, converted);
        }
    }
  if (ndim + 1 > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pad_sequence: the result would have more than %d dimensions", GNN_MAX_DIMS);
      return NULL;
    }

  rows = g_new (gint64, MAX (T * B, 1));
  for (gint64 b = 0; b < B; b++)
    {
      gint64 len = gnn_tensor_get_size (parts->pdata[b], 0, NULL);

      for (gint64 t = 0; t < T; t++)
        rows[batch_first ? b * T + t : t * B + b] = t < len ? start + t : total;
      start += len;
    }
  out_shape[0] = batch_first ? B : T;
  out_shape[1] = batch_first ? T : B;
  memcpy (out_shape + 2, first + 1, sizeof (gint64) * (ndim - 1));
  source = rows_with_padding ((GnnTensor **) parts->pdata, parts->len, padding_value, error);
  if (source == NULL)
    return NULL;
  return gather_rows (source, rows, T * B, out_shape, ndim + 1, error);
}

/**
 * gnn_pack_sequence:
 * @sequences: (array length=n_sequences): tensors `[L_i, *]` of the same
 *   trailing shape
 * @n_sequences: their number
 * @enforce_sorted: whether the sequences must come longest first
 * @error: return location for a #GError
 *
 * Packs sequences of different lengths, like `torch.nn.utils.rnn.
 * pack_sequence (sequences, enforce_sorted)`: [func@Gnn.Tensor.pad_sequence], then
 * [func@Gnn.pack_padded_sequence] with their lengths.
 *
 * Returns: (transfer full): the packed sequence, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnPackedSequence *
gnn_pack_sequence (GnnTensor **sequences,
                   guint       n_sequences,
                   gboolean    enforce_sorted,
                   GError    **error)
{
  g_autoptr(GnnTensor) padded = NULL;
  g_autoptr(GnnTensor) lengths = NULL;
  g_autofree gint64 *len = g_new (gint64, MAX (n_sequences, 1));

  padded = gnn_tensor_pad_sequence (sequences, n_sequences, FALSE, 0.0, error);
  if (padded == NULL)
    return NULL;
  for (guint i = 0; i < n_sequences; i++)
    len[i] = gnn_tensor_get_size (sequences[i], 0, NULL);
  lengths = int64_vector (len, n_sequences, error);
  if (lengths == NULL)
    return NULL;
  return gnn_pack_padded_sequence (padded, lengths, FALSE, enforce_sorted, error);
}

/* Each sequence of a padded batch cut to its length (@padded batch-first). */
static GPtrArray *
cut_sequences (GnnTensor     *padded,
               const gint64  *len,
               gint64         n,
               GError       **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);

  for (gint64 b = 0; b < n; b++)
    {
      g_autoptr(GnnTensor) row = gnn_tensor_select (padded, 0, b, error);
      GnnTensor *seq = row != NULL ? gnn_tensor_narrow (row, 0, 0, len[b], error) : NULL;

      if (seq == NULL)
        return NULL;
      g_ptr_array_add (out, seq);
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_unpad_sequence:
 * @padded_sequences: a padded batch, `[T, B, *]` (`[B, T, *]` with
 *   @batch_first)
 * @lengths: the length of each sequence, a 1-D int64 tensor of B values
 * @batch_first: whether the batch is `[B, T, *]`
 * @error: return location for a #GError
 *
 * Cuts a padded batch into its sequences, like `torch.nn.utils.rnn.
 * unpad_sequence (padded_sequences, lengths, batch_first)`: each
 * `[L_i, *]`, views of @padded_sequences.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the sequences, or
 *   %NULL with @error set (a length beyond T, a count other than B)
 *
 * Since: 0.1
 */
GPtrArray *
gnn_unpad_sequence (GnnTensor  *padded_sequences,
                    GnnTensor  *lengths,
                    gboolean    batch_first,
                    GError    **error)
{
  g_autoptr(GnnTensor) batch_major = NULL;
  g_autoptr(GnnTensor) len_c = NULL;
  gint64 batch;

  g_return_val_if_fail (GNN_IS_TENSOR (padded_sequences), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (lengths), NULL);
  if (gnn_tensor_get_ndim (lengths) != 1 || gnn_tensor_get_dtype (lengths) != GNN_DTYPE_I64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "unpad_sequence: lengths should be a 1-D int64 tensor, got a %uD %s tensor",
                   gnn_tensor_get_ndim (lengths), gnn_torch_scalar_name (gnn_tensor_get_dtype (lengths)));
      return NULL;
    }
  batch_major = batch_first ? g_object_ref (padded_sequences)
                            : gnn_tensor_transpose (padded_sequences, 0, 1, error);
  if (batch_major == NULL)
    return NULL;
  batch = gnn_tensor_get_size (batch_major, 0, NULL);
  len_c = gnn_tensor_contiguous (lengths);
  if (gnn_tensor_get_numel (len_c) != batch)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "unpad_sequence: %" G_GINT64_FORMAT " lengths for a batch of %" G_GINT64_FORMAT,
                   gnn_tensor_get_numel (len_c), batch);
      return NULL;
    }
  return cut_sequences (batch_major, gnn_tensor_get_data (len_c), batch, error);
}

/**
 * gnn_unpack_sequence:
 * @sequence: a packed sequence
 * @error: return location for a #GError
 *
 * Unpacks a packed batch into its sequences, like
 * `torch.nn.utils.rnn.unpack_sequence (packed_sequences)`: each
 * `[L_i, *]`, in the batch's original order.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the sequences, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_unpack_sequence (GnnPackedSequence  *sequence,
                     GError            **error)
{
  g_autoptr(GnnTensor) padded = NULL;
  g_autoptr(GnnTensor) lengths = NULL;

  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (sequence), NULL);
  padded = gnn_packed_sequence_pad (sequence, TRUE, 0.0, -1, &lengths, error);
  if (padded == NULL)
    return NULL;
  return cut_sequences (padded, gnn_tensor_get_data (lengths), gnn_tensor_get_numel (lengths),
                        error);
}
