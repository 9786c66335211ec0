/* gnn-dataset.h: map-style datasets
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

#define GNN_TYPE_DATASET (gnn_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnDataset, gnn_dataset, GNN, DATASET, GObject)

/**
 * GnnDatasetClass:
 * @parent_class: the parent class
 * @get_length: returns the number of items
 * @get_item: stores the item at an index (already checked to be in range)
 *   in its out argument, or sets an error
 * @get_item_batch: stores the item at an index as a named, typed
 *   [struct@Gnn.Batch] (a dict item, a bare tensor); optional: the default
 *   calls `get_item` and makes a tuple of its tensors
 *
 * The virtual methods of [class@Gnn.Dataset]. `get_length` and `get_item`
 * must be implemented.
 *
 * Since: 0.1
 */
struct _GnnDatasetClass
{
  GObjectClass parent_class;

  gint64 (*get_length) (GnnDataset  *self);
  void   (*get_item)   (GnnDataset  *self,
                        gint64       index,
                        GPtrArray  **item,
                        GError     **error);
  void   (*get_item_batch) (GnnDataset  *self,
                            gint64       index,
                            GnnBatch   **item,
                            GError     **error);

  /*< private >*/
  gpointer padding[7];
};

/**
 * GnnDatasetClass::get_item:
 * @self: a #GnnDataset
 * @index: the index, in `[0, length)`
 * @item: (out) (transfer full) (element-type Gnn.Tensor) (nullable): the
 *   item: a new array holding a reference to each tensor
 * @error: return location for a #GError
 *
 * Produces the item at @index. In Python, `do_get_item (self, index)`
 * returns a list of tensors or raises. The vfunc hands out its tensors with
 * (transfer full) while [method@Gnn.Dataset.get_item] returns (transfer
 * container) arrays that own their tensors (free function set), which is
 * what bindings and C callers both handle correctly.
 *
 * Since: 0.1
 */

/**
 * GnnDatasetClass::get_item_batch:
 * @self: a #GnnDataset
 * @index: the index, in `[0, length)`
 * @item: (out) (transfer full) (nullable): the item
 * @error: return location for a #GError
 *
 * Produces the item at @index with its field names and kind. In Python,
 * the override implements it for datasets whose items are dicts or bare
 * values.
 *
 * Since: 0.1
 */

GNN_AVAILABLE_IN_ALL
gint64      gnn_dataset_get_length (GnnDataset  *self);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_dataset_get_item   (GnnDataset  *self,
                                    gint64       index,
                                    GError     **error);
GNN_AVAILABLE_IN_ALL
GnnBatch   *gnn_dataset_get_item_batch (GnnDataset  *self,
                                        gint64       index,
                                        GError     **error);

G_END_DECLS
