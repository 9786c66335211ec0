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
 * Since: 1.0
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
 * Since: 1.0
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
