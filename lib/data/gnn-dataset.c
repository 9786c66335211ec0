/* gnn-dataset.c: the map-style dataset base class
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

/**
 * GnnDataset:
 *
 * A map-style dataset, like `torch.utils.data.Dataset`: a length and an item
 * per index in `[0, length)`. An item is an ordered tuple of tensors (a
 * #GPtrArray of [class@Gnn.Tensor]); numbers are 0-d tensors.
 *
 * Subclasses implement `get_length` and `get_item` (in Python `do_get_length`
 * and `do_get_item`). [method@Gnn.Dataset.get_item] checks the index before
 * calling the virtual method, so implementations only see valid indices.
 * A [class@Gnn.DataLoader] with worker threads calls `get_item` from several
 * threads at once: implementations must be safe for concurrent reads.
 *
 * Since: 0.1
 */

G_DEFINE_ABSTRACT_TYPE (GnnDataset, gnn_dataset, G_TYPE_OBJECT)

G_DEFINE_QUARK (gnn-dataset-columns-func, columns_func)

void
gnn_dataset_class_set_columns (gpointer              klass,
                               GnnDatasetColumnsFunc func)
{
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), columns_func_quark (), (gpointer) func);
}

guint
gnn_dataset_peek_columns (GnnDataset *self,
                          GnnTensor **columns)
{
  GnnDatasetColumnsFunc func =
    (GnnDatasetColumnsFunc) g_type_get_qdata (G_OBJECT_TYPE (self), columns_func_quark ());

  return func != NULL ? func (self, columns) : 0;
}

static void
gnn_dataset_class_init (GnnDatasetClass *klass)
{
}

static void
gnn_dataset_init (GnnDataset *self)
{
}

/**
 * gnn_dataset_get_length: (virtual get_length)
 * @self: a #GnnDataset
 *
 * Returns the number of items, like `len(dataset)`.
 *
 * Returns: the number of items
 *
 * Since: 0.1
 */
gint64
gnn_dataset_get_length (GnnDataset *self)
{
  GnnDatasetClass *klass;

  g_return_val_if_fail (GNN_IS_DATASET (self), 0);
  klass = GNN_DATASET_GET_CLASS (self);
  if (klass->get_length == NULL)
    {
      g_critical ("%s does not implement get_length", G_OBJECT_TYPE_NAME (self));
      return 0;
    }
  return MAX (klass->get_length (self), 0);
}

static gboolean
check_index (GnnDataset  *self,
             gint64       index,
             GError     **error)
{
  gint64 length = gnn_dataset_get_length (self);

  if (index >= 0 && index < length)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
               "index %" G_GINT64_FORMAT " is out of range for %s of length %" G_GINT64_FORMAT,
               index, G_OBJECT_TYPE_NAME (self), length);
  return FALSE;
}

/**
 * gnn_dataset_get_item:
 * @self: a #GnnDataset
 * @index: the index, in `[0, length)`
 * @error: return location for a #GError
 *
 * Returns the item at @index, like `dataset[index]`: a new array of tensors
 * (for a [class@Gnn.TensorDataset] and [class@Gnn.IdxDataset], views of the
 * dataset's storage). An index out of range is a %GNN_ERROR_INDEX error.
 *
 * The array owns its tensors (its free function unrefs them), hence
 * (transfer container): free it with g_ptr_array_unref().
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the item, or %NULL on error
 *
 * Since: 0.1
 */
GPtrArray *
gnn_dataset_get_item (GnnDataset  *self,
                      gint64       index,
                      GError     **error)
{
  g_return_val_if_fail (GNN_IS_DATASET (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!check_index (self, index, error))
    return NULL;
  return gnn_dataset_get_item_unchecked (self, index, error);
}

/**
 * gnn_dataset_get_item_batch:
 * @self: a #GnnDataset
 * @index: the index, in `[0, length)`
 * @error: return location for a #GError
 *
 * Returns the item at @index with its field names and kind, like
 * `dataset[index]` (a dict item has its keys, a tuple item positional
 * fields). An index out of range is a %GNN_ERROR_INDEX error.
 *
 * Returns: (transfer full) (nullable): the item, or %NULL on error
 *
 * Since: 0.1
 */
GnnBatch *
gnn_dataset_get_item_batch (GnnDataset  *self,
                            gint64       index,
                            GError     **error)
{
  g_return_val_if_fail (GNN_IS_DATASET (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!check_index (self, index, error))
    return NULL;
  return gnn_dataset_get_item_batch_unchecked (self, index, error);
}

GnnBatch *
gnn_dataset_get_item_batch_unchecked (GnnDataset  *self,
                                      gint64       index,
                                      GError     **error)
{
  GnnDatasetClass *klass = GNN_DATASET_GET_CLASS (self);
  GnnBatch *item = NULL;
  GPtrArray *fields;

  if (klass->get_item_batch == NULL)
    {
      fields = gnn_dataset_get_item_unchecked (self, index, error);
      return fields != NULL ? gnn_batch_new_take (GNN_BATCH_KIND_TUPLE, NULL, fields) : NULL;
    }
  klass->get_item_batch (self, index, &item, error);
  if (item == NULL && error != NULL && *error == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "%s.get_item_batch(%" G_GINT64_FORMAT ") returned no item",
                 G_OBJECT_TYPE_NAME (self), index);
  return item;
}

GPtrArray *
gnn_dataset_get_item_unchecked (GnnDataset  *self,
                                gint64       index,
                                GError     **error)
{
  GnnDatasetClass *klass = GNN_DATASET_GET_CLASS (self);
  GPtrArray *item = NULL;

  if (klass->get_item == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement get_item", G_OBJECT_TYPE_NAME (self));
      return NULL;
    }
  klass->get_item (self, index, &item, error);
  if (item == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s.get_item(%" G_GINT64_FORMAT ") returned no item",
                     G_OBJECT_TYPE_NAME (self), index);
      return NULL;
    }
  /* Implementations hand out a reference per tensor (bindings build the
   * array without a free function): the array now owns them. */
  g_ptr_array_set_free_func (item, g_object_unref);
  for (guint i = 0; i < item->len; i++)
    if (!GNN_IS_TENSOR (g_ptr_array_index (item, i)))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                     "%s.get_item(%" G_GINT64_FORMAT "): field %u is not a GnnTensor",
                     G_OBJECT_TYPE_NAME (self), index, i);
        g_ptr_array_unref (item);
        return NULL;
      }
  return item;
}
