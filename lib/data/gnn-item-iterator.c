/* gnn-item-iterator.c: a stream of dataset items
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

/**
 * GnnItemIterator:
 *
 * A stream of items (arrays of tensors), made by
 * [method@Gnn.IterableDataset.create_iterator]. Subclasses implement `next`
 * (Python: `do_next` returning a list of tensors, or %None at the end).
 * An iterator is used from one thread at a time.
 *
 * Since: 0.1
 */

G_DEFINE_ABSTRACT_TYPE (GnnItemIterator, gnn_item_iterator, G_TYPE_OBJECT)

static void
gnn_item_iterator_class_init (GnnItemIteratorClass *klass)
{
}

static void
gnn_item_iterator_init (GnnItemIterator *self)
{
}

/**
 * gnn_item_iterator_next:
 * @self: a #GnnItemIterator
 * @item: (out) (transfer container) (element-type Gnn.Tensor) (optional) (nullable):
 *   the next item (the array holds references: free it with
 *   g_ptr_array_unref()), or %NULL at the end
 * @error: return location for a #GError
 *
 * Fetches the next item of an iterable dataset's stream.
 *
 * Returns: %TRUE with an item, %FALSE at the end of the stream or on error
 *
 * Since: 0.1
 */
gboolean
gnn_item_iterator_next (GnnItemIterator  *self,
                        GPtrArray       **item,
                        GError          **error)
{
  GnnItemIteratorClass *klass;
  GError *local = NULL;
  GPtrArray *out = NULL;

  g_return_val_if_fail (GNN_IS_ITEM_ITERATOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (item != NULL)
    *item = NULL;
  klass = GNN_ITEM_ITERATOR_GET_CLASS (self);
  if (klass->next == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement next", G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  klass->next (self, &out, &local);
  if (local != NULL)
    {
      g_clear_pointer (&out, g_ptr_array_unref);
      g_propagate_error (error, local);
      return FALSE;
    }
  if (out == NULL)
    return FALSE;
  g_ptr_array_set_free_func (out, g_object_unref);
  for (guint i = 0; i < out->len; i++)
    if (!GNN_IS_TENSOR (g_ptr_array_index (out, i)))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                     "%s.next: field %u is not a GnnTensor", G_OBJECT_TYPE_NAME (self), i);
        g_ptr_array_unref (out);
        return FALSE;
      }
  if (item != NULL)
    *item = out;
  else
    g_ptr_array_unref (out);
  return TRUE;
}

/**
 * gnn_item_iterator_next_batch:
 * @self: a #GnnItemIterator
 * @item: (out) (transfer full) (optional) (nullable): the next item with its
 *   field names and kind, or %NULL at the end of the stream
 * @error: return location for a #GError
 *
 * [method@Gnn.ItemIterator.next] for a named, typed item: the
 * `next_batch` virtual method when the class has one, else the item of
 * `next` as a tuple.
 *
 * Returns: %TRUE with an item, %FALSE at the end of the stream or on error
 *
 * Since: 0.1
 */
gboolean
gnn_item_iterator_next_batch (GnnItemIterator  *self,
                              GnnBatch        **item,
                              GError          **error)
{
  GnnItemIteratorClass *klass;
  GPtrArray *fields = NULL;
  GnnBatch *out = NULL;
  GError *local = NULL;

  g_return_val_if_fail (GNN_IS_ITEM_ITERATOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (item != NULL)
    *item = NULL;
  klass = GNN_ITEM_ITERATOR_GET_CLASS (self);
  if (klass->next_batch == NULL)
    {
      if (!gnn_item_iterator_next (self, &fields, error))
        return FALSE;
      out = gnn_batch_new_take (GNN_BATCH_KIND_TUPLE, NULL, fields);
    }
  else
    {
      klass->next_batch (self, &out, &local);
      if (local != NULL)
        {
          g_clear_pointer (&out, gnn_batch_unref);
          g_propagate_error (error, local);
          return FALSE;
        }
      if (out == NULL)
        return FALSE;
    }
  if (item != NULL)
    *item = out;
  else
    gnn_batch_unref (out);
  return TRUE;
}

/**
 * gnn_item_iterator_skip:
 * @self: a #GnnItemIterator
 * @n: how many items to move past
 * @skipped: (out) (optional): how many were skipped: @n, or fewer when the
 *   stream ended first
 * @error: return location for a #GError
 *
 * Moves past the next @n items: what a resumed data loader pass does with
 * the items it already delivered. Uses the iterator's `skip` method when
 * it has one (a stream that can seek), else produces and drops the items.
 *
 * Returns: %TRUE, or %FALSE on error (a negative @n is a
 *   %GNN_ERROR_INVALID_ARGUMENT error)
 *
 * Since: 0.1
 */
gboolean
gnn_item_iterator_skip (GnnItemIterator  *self,
                        gint64            n,
                        gint64           *skipped,
                        GError          **error)
{
  GnnItemIteratorClass *klass;
  gint64 done = 0;

  g_return_val_if_fail (GNN_IS_ITEM_ITERATOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (skipped != NULL)
    *skipped = 0;
  if (n < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot skip a negative number of items (%" G_GINT64_FORMAT ")", n);
      return FALSE;
    }
  klass = GNN_ITEM_ITERATOR_GET_CLASS (self);
  if (klass->skip != NULL && n > 0)
    {
      GError *local = NULL;

      done = klass->skip (self, n, &local);
      if (local != NULL || done < 0 || done > n)
        {
          if (local == NULL)
            local = g_error_new (GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                                 "%s skip: skipped %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                                 " items", G_OBJECT_TYPE_NAME (self), done, n);
          g_propagate_error (error, local);
          return FALSE;
        }
    }
  else
    while (done < n)
      {
        GPtrArray *item = NULL;
        GError *local = NULL;

        if (!gnn_item_iterator_next (self, &item, &local))
          {
            if (local != NULL)
              {
                g_propagate_error (error, local);
                return FALSE;
              }
            break;
          }
        g_ptr_array_unref (item);
        done++;
      }
  if (skipped != NULL)
    *skipped = done;
  return TRUE;
}
