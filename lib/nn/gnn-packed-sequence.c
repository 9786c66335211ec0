/* gnn-packed-sequence.c: a batch of sequences of different lengths, packed
 * (torch.nn.utils.rnn.PackedSequence)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "nn/gnn-nn-private.h"
#include "tensor/gnn-tensor-private.h"

/**
 * GnnPackedSequence:
 *
 * The sequences of a batch packed time step by time step, like torch's
 * `torch.nn.utils.rnn.PackedSequence`: [property@Gnn.PackedSequence:data]
 * holds, for each time step t, one row per sequence still running at t
 * (the longest first), and [property@Gnn.PackedSequence:batch-sizes] how
 * many rows each step has. The recurrent layers ([class@Gnn.LSTM],
 * [class@Gnn.GRU], [class@Gnn.RNN]) take a packed sequence as their input
 * and return their output packed the same way.
 *
 * When the batch was sorted by length to pack it,
 * [property@Gnn.PackedSequence:sorted-indices] says which batch element
 * each position of the sorted batch is, and
 * [property@Gnn.PackedSequence:unsorted-indices] the inverse permutation
 * (computed from the sorted indices when not given).
 *
 * Build one with [func@Gnn.pack_padded_sequence] or
 * [func@Gnn.pack_sequence]; [method@Gnn.PackedSequence.pad] pads it back.
 * From Python it behaves like torch's namedtuple (`data, batch_sizes,
 * sorted_indices, unsorted_indices = packed`).
 *
 * Since: 0.1
 */
struct _GnnPackedSequence
{
  GObject parent_instance;

  GnnTensor *data;
  GnnTensor *batch_sizes;
  GnnTensor *sorted_indices;
  GnnTensor *unsorted_indices;
};

enum {
  PROP_0,
  PROP_DATA,
  PROP_BATCH_SIZES,
  PROP_SORTED_INDICES,
  PROP_UNSORTED_INDICES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnPackedSequence, gnn_packed_sequence, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, initable_iface_init))

static gboolean
is_index_vector (GnnTensor *t)
{
  return gnn_tensor_get_ndim (t) == 1 && gnn_tensor_get_dtype (t) == GNN_DTYPE_I64 &&
         !gnn_tensor_is_meta (t);
}

/* A permutation of 0 .. n-1 as int64 values (NULL when it is not one). */
static gint64 *
read_permutation (GnnTensor *t,
                  gint64     n)
{
  g_autofree gint64 *v = NULL;
  g_autofree gboolean *seen = NULL;
  g_autoptr(GnnTensor) c = NULL;

  if (!is_index_vector (t) || gnn_tensor_get_numel (t) != n)
    return NULL;
  c = gnn_tensor_contiguous (t);
  v = g_memdup2 (gnn_tensor_get_data (c), sizeof (gint64) * (gsize) n);
  seen = g_new0 (gboolean, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    {
      if (v[i] < 0 || v[i] >= n || seen[v[i]])
        return NULL;
      seen[v[i]] = TRUE;
    }
  return g_steal_pointer (&v);
}

/* Checks the parts against each other: sizes positive and non-increasing,
 * as many rows as they add up to, indices permutations of the batch. */
static gboolean
validate (GnnPackedSequence  *self,
          GError            **error)
{
  g_autoptr(GnnTensor) sizes = NULL;
  const gint64 *bs;
  gint64 steps, rows = 0, batch;

  if (self->data == NULL || self->batch_sizes == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "PackedSequence: data and batch_sizes are required");
      return FALSE;
    }
  if (!is_index_vector (self->batch_sizes))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "PackedSequence: batch_sizes should be a 1-D int64 tensor, got a %u-D %s tensor",
                   gnn_tensor_get_ndim (self->batch_sizes),
                   gnn_dtype_get_name (gnn_tensor_get_dtype (self->batch_sizes)));
      return FALSE;
    }
  if (gnn_tensor_get_ndim (self->data) == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "PackedSequence: data must have at least one dimension");
      return FALSE;
    }
  sizes = gnn_tensor_contiguous (self->batch_sizes);
  bs = gnn_tensor_get_data (sizes);
  steps = gnn_tensor_get_numel (sizes);
  batch = steps > 0 ? bs[0] : 0;
  for (gint64 t = 0; t < steps; t++)
    {
      if (bs[t] <= 0 || (t > 0 && bs[t] > bs[t - 1]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "PackedSequence: batch_sizes must be positive and non-increasing, got %"
                       G_GINT64_FORMAT " at step %" G_GINT64_FORMAT, bs[t], t);
          return FALSE;
        }
      rows += bs[t];
    }
  if (rows != gnn_tensor_get_size (self->data, 0, NULL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "PackedSequence: batch_sizes add up to %" G_GINT64_FORMAT " rows, but data has %"
                   G_GINT64_FORMAT, rows, gnn_tensor_get_size (self->data, 0, NULL));
      return FALSE;
    }
  for (guint i = 0; i < 2; i++)
    {
      GnnTensor *perm = i == 0 ? self->sorted_indices : self->unsorted_indices;
      g_autofree gint64 *v = perm != NULL ? read_permutation (perm, batch) : NULL;

      if (perm != NULL && v == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "PackedSequence: %s must be a permutation of the %" G_GINT64_FORMAT
                       " sequences (a 1-D int64 tensor)", i == 0 ? "sorted_indices" : "unsorted_indices",
                       batch);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
gnn_packed_sequence_initable_init (GInitable     *initable,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  GnnPackedSequence *self = GNN_PACKED_SEQUENCE (initable);

  if (!validate (self, error))
    return FALSE;
  /* torch's invert_permutation when only the sorting is given */
  if (self->sorted_indices != NULL && self->unsorted_indices == NULL)
    {
      gint64 n = gnn_tensor_get_numel (self->sorted_indices);
      g_autofree gint64 *sorted = read_permutation (self->sorted_indices, n);
      g_autofree gint64 *inverse = g_new (gint64, MAX (n, 1));

      for (gint64 i = 0; i < n; i++)
        inverse[sorted[i]] = i;
      self->unsorted_indices = gnn_tensor_new_from_int64s (inverse, (gsize) n, &n, 1, error);
      if (self->unsorted_indices == NULL)
        return FALSE;
    }
  return TRUE;
}

static void
initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_packed_sequence_initable_init;
}

static void
gnn_packed_sequence_finalize (GObject *object)
{
  GnnPackedSequence *self = GNN_PACKED_SEQUENCE (object);

  g_clear_object (&self->data);
  g_clear_object (&self->batch_sizes);
  g_clear_object (&self->sorted_indices);
  g_clear_object (&self->unsorted_indices);
  G_OBJECT_CLASS (gnn_packed_sequence_parent_class)->finalize (object);
}

static GnnTensor **
field (GnnPackedSequence *self,
       guint              prop_id)
{
  switch (prop_id)
    {
    case PROP_DATA:
      return &self->data;
    case PROP_BATCH_SIZES:
      return &self->batch_sizes;
    case PROP_SORTED_INDICES:
      return &self->sorted_indices;
    case PROP_UNSORTED_INDICES:
      return &self->unsorted_indices;
    default:
      return NULL;
    }
}

static void
gnn_packed_sequence_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  GnnTensor **slot = field (GNN_PACKED_SEQUENCE (object), prop_id);

  if (slot == NULL)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else
    g_value_set_object (value, *slot);
}

static void
gnn_packed_sequence_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  GnnTensor **slot = field (GNN_PACKED_SEQUENCE (object), prop_id);

  if (slot == NULL)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else
    g_set_object (slot, g_value_get_object (value));
}

static void
gnn_packed_sequence_class_init (GnnPackedSequenceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_packed_sequence_finalize;
  object_class->get_property = gnn_packed_sequence_get_property;
  object_class->set_property = gnn_packed_sequence_set_property;

  /**
   * GnnPackedSequence:data:
   *
   * The packed rows: `[sum (batch_sizes), *]`, time step by time step.
   *
   * Since: 0.1
   */
  properties[PROP_DATA] =
    g_param_spec_object ("data", NULL, NULL, GNN_TYPE_TENSOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnPackedSequence:batch-sizes:
   *
   * How many sequences run at each time step: a 1-D int64 tensor,
   * non-increasing.
   *
   * Since: 0.1
   */
  properties[PROP_BATCH_SIZES] =
    g_param_spec_object ("batch-sizes", NULL, NULL, GNN_TYPE_TENSOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnPackedSequence:sorted-indices:
   *
   * For each position of the batch sorted by length, the batch element
   * there (int64), or %NULL when the batch was packed in its own order.
   *
   * Since: 0.1
   */
  properties[PROP_SORTED_INDICES] =
    g_param_spec_object ("sorted-indices", NULL, NULL, GNN_TYPE_TENSOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnPackedSequence:unsorted-indices:
   *
   * The inverse of [property@Gnn.PackedSequence:sorted-indices]: where each
   * batch element is in the sorted batch, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_UNSORTED_INDICES] =
    g_param_spec_object ("unsorted-indices", NULL, NULL, GNN_TYPE_TENSOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_packed_sequence_init (GnnPackedSequence *self)
{
}

/**
 * gnn_packed_sequence_new:
 * @data: the packed rows, `[sum (batch_sizes), *]`
 * @batch_sizes: the number of sequences at each time step (1-D int64,
 *   positive, non-increasing)
 * @sorted_indices: (nullable): the batch element at each sorted position
 * @unsorted_indices: (nullable): its inverse; computed from
 *   @sorted_indices when %NULL
 * @error: return location for a #GError
 *
 * Wraps packed data, like `PackedSequence(data, batch_sizes,
 * sorted_indices, unsorted_indices)`. Usually made by
 * [func@Gnn.pack_padded_sequence].
 *
 * Returns: (transfer full): the packed sequence, or %NULL with @error set
 *   when the parts do not fit together (the batch sizes do not add up to
 *   the rows of @data, are not non-increasing, or an index tensor is not a
 *   permutation of the batch)
 *
 * Since: 0.1
 */
GnnPackedSequence *
gnn_packed_sequence_new (GnnTensor  *data,
                         GnnTensor  *batch_sizes,
                         GnnTensor  *sorted_indices,
                         GnnTensor  *unsorted_indices,
                         GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (data), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (batch_sizes), NULL);
  g_return_val_if_fail (sorted_indices == NULL || GNN_IS_TENSOR (sorted_indices), NULL);
  g_return_val_if_fail (unsorted_indices == NULL || GNN_IS_TENSOR (unsorted_indices), NULL);

  return g_initable_new (GNN_TYPE_PACKED_SEQUENCE, NULL, error,
                         "data", data, "batch-sizes", batch_sizes,
                         "sorted-indices", sorted_indices,
                         "unsorted-indices", unsorted_indices, NULL);
}

/**
 * gnn_packed_sequence_get_data:
 * @self: a packed sequence
 *
 * Gets the packed rows (torch's `packed.data`).
 *
 * Returns: (transfer none) (nullable): the data
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_get_data (GnnPackedSequence *self)
{
  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (self), NULL);
  return self->data;
}

/**
 * gnn_packed_sequence_get_batch_sizes:
 * @self: a packed sequence
 *
 * Gets the number of sequences at each time step (torch's
 * `packed.batch_sizes`).
 *
 * Returns: (transfer none) (nullable): the batch sizes
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_get_batch_sizes (GnnPackedSequence *self)
{
  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (self), NULL);
  return self->batch_sizes;
}

/**
 * gnn_packed_sequence_get_sorted_indices:
 * @self: a packed sequence
 *
 * Gets the batch element at each position of the sorted batch.
 *
 * Returns: (transfer none) (nullable): the indices, or %NULL
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_get_sorted_indices (GnnPackedSequence *self)
{
  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (self), NULL);
  return self->sorted_indices;
}

/**
 * gnn_packed_sequence_get_unsorted_indices:
 * @self: a packed sequence
 *
 * Gets where each batch element is in the sorted batch.
 *
 * Returns: (transfer none) (nullable): the indices, or %NULL
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_get_unsorted_indices (GnnPackedSequence *self)
{
  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (self), NULL);
  return self->unsorted_indices;
}
