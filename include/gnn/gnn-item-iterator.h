/* gnn-item-iterator.h: a stream of dataset items
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-batch.h>

G_BEGIN_DECLS

#define GNN_TYPE_ITEM_ITERATOR (gnn_item_iterator_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnItemIterator, gnn_item_iterator, GNN, ITEM_ITERATOR, GObject)

/**
 * GnnItemIteratorClass:
 * @parent_class: the parent class
 * @next: stores the next item in its out argument, leaves it %NULL at the
 *   end of the stream, or sets an error
 * @skip: optional: moves past the next @n items without producing them
 *   (a file reader seeks); returns how many it skipped (fewer at the end
 *   of the stream) or -1 with an error. Without it, skipping calls @next.
 * @next_batch: optional: the next item as a named, typed [struct@Gnn.Batch]
 *   (a dict item, a bare tensor); the default calls @next and makes a
 *   tuple of its tensors
 *
 * The virtual method of [class@Gnn.ItemIterator].
 *
 * Since: 0.1
 */
struct _GnnItemIteratorClass
{
  GObjectClass parent_class;

  void   (*next) (GnnItemIterator  *self,
                  GPtrArray       **item,
                  GError          **error);
  gint64 (*skip) (GnnItemIterator  *self,
                  gint64            n,
                  GError          **error);
  void   (*next_batch) (GnnItemIterator  *self,
                        GnnBatch        **item,
                        GError          **error);

  /*< private >*/
  gpointer padding[6];
};

/**
 * GnnItemIteratorClass::next:
 * @self: a #GnnItemIterator
 * @item: (out) (transfer full) (element-type Gnn.Tensor) (nullable): the
 *   next item (a new array holding a reference to each tensor), or %NULL at
 *   the end of the stream
 * @error: return location for a #GError
 *
 * Produces the next item. In Python, `do_next (self)` returns a list of
 * tensors, or %None at the end.
 *
 * Since: 0.1
 */

/**
 * GnnItemIteratorClass::next_batch:
 * @self: a #GnnItemIterator
 * @item: (out) (transfer full) (nullable): the next item, or %NULL at the
 *   end of the stream
 * @error: return location for a #GError
 *
 * Produces the next item with its field names and kind.
 *
 * Since: 0.1
 */

GNN_AVAILABLE_IN_ALL
gboolean gnn_item_iterator_next_batch (GnnItemIterator  *self,
                                       GnnBatch        **item,
                                       GError          **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_item_iterator_next (GnnItemIterator  *self,
                                 GPtrArray       **item,
                                 GError          **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_item_iterator_skip (GnnItemIterator  *self,
                                 gint64            n,
                                 gint64           *skipped,
                                 GError          **error);

G_END_DECLS
