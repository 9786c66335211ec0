/* gnn-tensor-dataset.c: items are slices of tensors along dim 0
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

/**
 * GnnTensorDataset:
 *
 * A dataset over tensors sharing their first dimension, like
 * `torch.utils.data.TensorDataset`: item `i` holds `tensor[i]` of each tensor,
 * as views (no copy).
 *
 * Since: 0.1
 */
struct _GnnTensorDataset
{
  GnnDataset parent_instance;
  GPtrArray *tensors;
  gint64     length;
};

G_DEFINE_FINAL_TYPE (GnnTensorDataset, gnn_tensor_dataset, GNN_TYPE_DATASET)

static gint64
gnn_tensor_dataset_get_length_impl (GnnDataset *dataset)
{
  return GNN_TENSOR_DATASET (dataset)->length;
}

static void
gnn_tensor_dataset_get_item_impl (GnnDataset  *dataset,
                                  gint64       index,
                                  GPtrArray  **out,
                                  GError     **error)
{
  GnnTensorDataset *self = GNN_TENSOR_DATASET (dataset);
  GPtrArray *item = g_ptr_array_new_full (self->tensors->len, g_object_unref);

  for (guint i = 0; i < self->tensors->len; i++)
    {
      GnnTensor *view = gnn_tensor_select (g_ptr_array_index (self->tensors, i), 0, index, error);

      if (view == NULL)
        {
          g_ptr_array_unref (item);
          return;
        }
      g_ptr_array_add (item, view);
    }
  *out = item;
}

static void
gnn_tensor_dataset_finalize (GObject *object)
{
  GnnTensorDataset *self = GNN_TENSOR_DATASET (object);

  g_clear_pointer (&self->tensors, g_ptr_array_unref);
  G_OBJECT_CLASS (gnn_tensor_dataset_parent_class)->finalize (object);
}

/* Its items are the rows of its tensors (GnnDatasetColumnsFunc). */
static guint
gnn_tensor_dataset_peek_columns (GnnDataset *dataset,
                                 GnnTensor **columns)
{
  GPtrArray *tensors = GNN_TENSOR_DATASET (dataset)->tensors;

  if (tensors->len > GNN_BATCH_SOURCE_MAX_COLUMNS)
    return 0;
  for (guint f = 0; f < tensors->len; f++)
    columns[f] = g_ptr_array_index (tensors, f);
  return tensors->len;
}

static void
gnn_tensor_dataset_class_init (GnnTensorDatasetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnDatasetClass *dataset_class = GNN_DATASET_CLASS (klass);

  object_class->finalize = gnn_tensor_dataset_finalize;
  dataset_class->get_length = gnn_tensor_dataset_get_length_impl;
  dataset_class->get_item = gnn_tensor_dataset_get_item_impl;
  gnn_dataset_class_set_columns (klass, gnn_tensor_dataset_peek_columns);
}

static void
gnn_tensor_dataset_init (GnnTensorDataset *self)
{
  self->tensors = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * gnn_tensor_dataset_new:
 * @tensors: (array length=n_tensors) (transfer none): tensors with at least
 *   one dimension, all of the same size in dimension 0
 * @n_tensors: the number of tensors, at least 1
 * @error: return location for a #GError
 *
 * Creates a dataset whose item `i` is (`tensors[0][i]`, `tensors[1][i]`, …).
 * The dataset keeps references to the tensors; items are views of them.
 * Tensors of different first sizes fail with "Size mismatch between tensors".
 *
 * Returns: (transfer full): the dataset, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensorDataset *
gnn_tensor_dataset_new (GnnTensor **tensors,
                        guint       n_tensors,
                        GError    **error)
{
  g_autoptr(GnnTensorDataset) self = NULL;
  gint64 length = 0;

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  if (n_tensors == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "TensorDataset needs at least one tensor");
      return NULL;
    }
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensorPrivate *p;

      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      p = gnn_tensor_priv (tensors[i]);
      if (p->ndim == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "TensorDataset: tensor %u is 0-d; every tensor needs a first dimension", i);
          return NULL;
        }
      if (i == 0)
        length = p->shape[0];
      else if (p->shape[0] != length)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Size mismatch between tensors: tensor 0 has %" G_GINT64_FORMAT
                       " rows but tensor %u has %" G_GINT64_FORMAT,
                       length, i, p->shape[0]);
          return NULL;
        }
    }
  self = g_object_new (GNN_TYPE_TENSOR_DATASET, NULL);
  self->length = length;
  for (guint i = 0; i < n_tensors; i++)
    g_ptr_array_add (self->tensors, g_object_ref (tensors[i]));
  return g_steal_pointer (&self);
}

/**
 * gnn_tensor_dataset_get_tensors:
 * @self: a #GnnTensorDataset
 *
 * Gets the tensors whose rows make the items.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the tensors (the
 *   array holds references: free it with g_ptr_array_unref())
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_dataset_get_tensors (GnnTensorDataset *self)
{
  GPtrArray *out;

  g_return_val_if_fail (GNN_IS_TENSOR_DATASET (self), NULL);
  out = g_ptr_array_new_full (self->tensors->len, g_object_unref);
  for (guint i = 0; i < self->tensors->len; i++)
    g_ptr_array_add (out, g_object_ref (g_ptr_array_index (self->tensors, i)));
  return out;
}
