/* gnn-iterable-dataset.c: iterable-style datasets (streams)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

/**
 * GnnIterableDataset:
 *
 * An iterable-style dataset, like `torch.utils.data.IterableDataset`: items
 * come from iterators ([method@Gnn.IterableDataset.create_iterator]), not
 * from indices. Its [method@Gnn.Dataset.get_length] is 0 unless a subclass
 * implements `get_length` (used for the loader's length only), and
 * [method@Gnn.Dataset.get_item] fails.
 *
 * A [class@Gnn.DataLoader] with workers makes one iterator per worker, in
 * the worker's thread: as in PyTorch, every worker sees the whole stream
 * unless `create_iterator` shards it with [func@Gnn.get_worker_info].
 * Batches are taken from the workers in turn (worker `k % n` for batch
 * `k`), each worker batching its own stream.
 *
 * Since: 0.1
 */

G_DEFINE_ABSTRACT_TYPE (GnnIterableDataset, gnn_iterable_dataset, GNN_TYPE_DATASET)

static gint64
gnn_iterable_dataset_real_get_length (GnnDataset *self)
{
  return 0;
}

static void
gnn_iterable_dataset_real_get_item (GnnDataset  *self,
                                    gint64       index,
                                    GPtrArray  **item,
                                    GError     **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s is an iterable dataset: its items have no index", G_OBJECT_TYPE_NAME (self));
}

static void
gnn_iterable_dataset_class_init (GnnIterableDatasetClass *klass)
{
  GNN_DATASET_CLASS (klass)->get_length = gnn_iterable_dataset_real_get_length;
  GNN_DATASET_CLASS (klass)->get_item = gnn_iterable_dataset_real_get_item;
}

static void
gnn_iterable_dataset_init (GnnIterableDataset *self)
{
}

/**
 * gnn_iterable_dataset_create_iterator: (virtual create_iterator)
 * @self: a #GnnIterableDataset
 * @error: return location for a #GError
 *
 * Starts a new pass over the stream, like `iter(dataset)`.
 *
 * Returns: (transfer full): a new iterator, or %NULL on error
 *
 * Since: 0.1
 */
GnnItemIterator *
gnn_iterable_dataset_create_iterator (GnnIterableDataset  *self,
                                      GError             **error)
{
  GnnIterableDatasetClass *klass;
  GnnItemIterator *iter;

  g_return_val_if_fail (GNN_IS_ITERABLE_DATASET (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  klass = GNN_ITERABLE_DATASET_GET_CLASS (self);
  if (klass->create_iterator == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement create_iterator", G_OBJECT_TYPE_NAME (self));
      return NULL;
    }
  iter = klass->create_iterator (self, error);
  if (iter == NULL && error != NULL && *error == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "%s.create_iterator returned no iterator", G_OBJECT_TYPE_NAME (self));
  return iter;
}
