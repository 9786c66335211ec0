/* gnn-epoch.c: one pass of a loader, and the fetch-and-collate step every
 * worker backend uses
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-worker-private.h"

void
gnn_batch_result_free (GnnBatchResult *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->batch, gnn_batch_unref);
  g_clear_error (&r->error);
  g_free (r);
}

GnnEpoch *
gnn_epoch_new (GnnDataset *dataset,
               GnnCollate *collate,
               gint64     *indices,
               gsize       n_indices,
               gsize       batch_size)
{
  GnnEpoch *e = g_new0 (GnnEpoch, 1);

  g_atomic_ref_count_init (&e->ref_count);
  e->dataset = g_object_ref (dataset);
  e->collate = g_object_ref (collate);
  e->indices = indices;
  e->n_indices = n_indices;
  e->batch_size = batch_size;
  e->results = g_async_queue_new_full ((GDestroyNotify) gnn_batch_result_free);
  return e;
}

GnnEpoch *
gnn_epoch_new_iterable (GnnIterableDataset *dataset,
                        GnnCollate         *collate,
                        gsize               batch_size,
                        gboolean            drop_last,
                        guint               n_streams)
{
  GnnEpoch *e = gnn_epoch_new (GNN_DATASET (dataset), collate, NULL, 0, batch_size);

  e->iterable = TRUE;
  e->drop_last = drop_last;
  e->n_streams = n_streams;
  e->streams = g_new0 (GnnItemIterator *, n_streams);
  e->ended = g_new0 (gboolean, n_streams);
  e->skip = g_new0 (gint64, n_streams);
  return e;
}

GnnEpoch *
gnn_epoch_ref (GnnEpoch *epoch)
{
  g_atomic_ref_count_inc (&epoch->ref_count);
  return epoch;
}

void
gnn_epoch_unref (GnnEpoch *epoch)
{
  if (!g_atomic_ref_count_dec (&epoch->ref_count))
    return;
  g_async_queue_unref (epoch->results);   /* frees undelivered results */
  g_object_unref (epoch->dataset);
  g_object_unref (epoch->collate);
  g_free (epoch->indices);
  for (guint i = 0; i < epoch->n_streams; i++)
    g_clear_object (&epoch->streams[i]);
  g_free (epoch->streams);
  g_free (epoch->ended);
  g_free (epoch->skip);
  g_free (epoch);
}

/* Whether the pass was dropped (*@stop_word moved off @expected). */
static gboolean
stopped (const gint  *stop_word,
         gint         expected,
         GError     **error)
{
  if (g_atomic_int_get (stop_word) == expected)
    return FALSE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER, "DataLoader iterator stopped");
  return TRUE;
}

/* Room for the fields of @count items of two fields (an image and a label),
 * reserved up front but bounded: the batch size is the user's, and an
 * iterable dataset's stream may end long before it (the array grows as
 * items come). */
static guint
reserve_fields (gsize count)
{
  return (guint) MIN (count, 4096) * 2;
}

/* The items at @indices, their fields flattened item-major in the first
 * item's order (*@layout, a reference); with @batches, the items
 * themselves are kept there too (for a collation of its own). */
static GPtrArray *
fetch_items (GnnDataset    *dataset,
             const gint64  *indices,
             gsize          count,
             const gint    *stop_word,
             gint           expected,
             guint64        sample_seed,
             GnnBatch     **layout,
             GPtrArray     *batches,
             GError       **error)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (reserve_fields (count), g_object_unref);

  *layout = NULL;
  for (gsize i = 0; i < count; i++)
    {
      gint64 index = indices[i];
      g_autoptr(GnnBatch) item = NULL;

      if (stopped (stop_word, expected, error))
        goto fail;
      gnn_sample_generator_enter (sample_seed, index);
      item = gnn_dataset_get_item_batch_unchecked (dataset, index, error);
      gnn_sample_generator_leave ();
      if (item == NULL ||
          !gnn_batch_append_fields (*layout != NULL ? *layout : item, item, items, error))
        {
          g_prefix_error (error, "sample index %" G_GINT64_FORMAT ": ", index);
          goto fail;
        }
      if (batches != NULL)
        g_ptr_array_add (batches, gnn_batch_ref (item));
      if (*layout == NULL)
        *layout = g_steal_pointer (&item);
    }
  return g_steal_pointer (&items);

fail:
  g_clear_pointer (layout, gnn_batch_unref);
  return NULL;
}

void
gnn_prefix_collate_error (GError **error,
                          gint64   first_index)
{
  g_prefix_error (error, "collate of the batch starting at sample index %" G_GINT64_FORMAT ": ",
                  first_index);
}

GnnBatch *
gnn_fetch_and_collate (GnnDataset    *dataset,
                       GnnCollate    *collate,
                       const gint64  *indices,
                       gsize          count,
                       const gint    *stop_word,
                       gint           expected,
                       guint64        sample_seed,
                       GnnStackFunc   stack,
                       gpointer       stack_data,
                       gboolean      *stacked,
                       GError       **error)
{
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) batches = NULL;
  g_autoptr(GnnBatch) layout = NULL;
  GnnTensor *columns[GNN_BATCH_SOURCE_MAX_COLUMNS];
  GnnBatchSource src = { 0, NULL, columns, NULL, 0, NULL };
  gboolean default_collate = G_OBJECT_TYPE (collate) == GNN_TYPE_COLLATE;
  GnnBatch *batch;

  if (stacked != NULL)
    *stacked = FALSE;
  /* Rows of contiguous tensors under the default collation: gathered
   * straight into the batch (or the shared-memory segment). */
  if (default_collate && gnn_batch_source_rows (dataset, indices, count, &src))
    {
      if (stopped (stop_word, expected, error))
        return NULL;
    }
  else
    {
      if (!default_collate)
        batches = g_ptr_array_new_full (MIN (count, 4096), (GDestroyNotify) gnn_batch_unref);
      items = fetch_items (dataset, indices, count, stop_word, expected, sample_seed, &layout,
                           batches, error);
      if (items == NULL)
        return NULL;
      src.items = items;
      src.layout = layout;
      src.n_fields = gnn_batch_get_n_fields (layout);
    }
  if (stack != NULL && default_collate)
    {
      *stacked = stack (stack_data, &src, error);
      return NULL;
    }
  /* a collation of its own sees the items, names and all (collate_batch) */
  batch = batches != NULL ? gnn_collate_collate_batch (collate, batches, error)
                          : gnn_default_collate_source (&src, error);
  if (batch == NULL)
    gnn_prefix_collate_error (error, indices[0]);
  return batch;
}

GnnBatch *
gnn_epoch_fetch_batch (GnnEpoch  *epoch,
                       gsize      seq,
                       GError   **error)
{
  gsize start = seq * epoch->batch_size;
  gsize count = MIN (epoch->batch_size, epoch->n_indices - start);

  return gnn_fetch_and_collate (epoch->dataset, epoch->collate, epoch->indices + start, count,
                                &epoch->stop, 0, epoch->sample_seed, NULL, NULL, NULL, error);
}

GnnBatch *
gnn_epoch_fetch_stream_batch (GnnEpoch  *epoch,
                              guint      stream,
                              gboolean  *end,
                              GError   **error)
{
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) batches = NULL;
  g_autoptr(GnnBatch) layout = NULL;
  GnnBatchSource src = { 0 };
  gsize count = 0;
  GnnBatch *batch;

  *end = FALSE;
  if (epoch->ended[stream])
    {
      *end = TRUE;
      return NULL;
    }
  if (epoch->streams[stream] == NULL)
    {
      epoch->streams[stream] =
        gnn_iterable_dataset_create_iterator (GNN_ITERABLE_DATASET (epoch->dataset), error);
      if (epoch->streams[stream] == NULL ||
          !gnn_item_iterator_skip (epoch->streams[stream], epoch->skip[stream], NULL, error))
        {
          epoch->ended[stream] = TRUE;
          return NULL;
        }
    }
  items = g_ptr_array_new_full (reserve_fields (epoch->batch_size), g_object_unref);
  if (G_OBJECT_TYPE (epoch->collate) != GNN_TYPE_COLLATE)
    batches = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_batch_unref);
  while (count < epoch->batch_size)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(GnnBatch) item = NULL;

      if (stopped (&epoch->stop, 0, error))
        return NULL;
      if (!gnn_item_iterator_next_batch (epoch->streams[stream], &item, &local))
        {
          if (local != NULL)
            {
              epoch->ended[stream] = TRUE;
              g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                          "item %" G_GSIZE_FORMAT " of the batch: ", count);
              return NULL;
            }
          epoch->ended[stream] = TRUE;
          break;
        }
      if (!gnn_batch_append_fields (layout != NULL ? layout : item, item, items, error))
        {
          g_prefix_error (error, "item %" G_GSIZE_FORMAT " of the batch: ", count);
          return NULL;
        }
      if (batches != NULL)
        g_ptr_array_add (batches, gnn_batch_ref (item));
      if (layout == NULL)
        layout = g_steal_pointer (&item);
      count++;
    }
  if (count == 0 || (count < epoch->batch_size && epoch->drop_last))
    {
      *end = TRUE;
      return NULL;
    }
  src.n_fields = gnn_batch_get_n_fields (layout);
  src.items = items;
  src.layout = layout;
  batch = batches != NULL ? gnn_collate_collate_batch (epoch->collate, batches, error)
                          : gnn_default_collate_source (&src, error);
  if (batch == NULL)
    g_prefix_error (error, "collate: ");
  return batch;
}
