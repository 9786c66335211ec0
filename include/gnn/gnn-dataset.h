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

G_BEGIN_DECLS

#define GNN_TYPE_DATASET (gnn_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnDataset, gnn_dataset, GNN, DATASET, GObject)

/**
 * GnnDatasetClass:
 * @parent_class: the parent class
 * @get_length: returns the number of items
 * @get_item: returns the item at an index already checked to be in range,
 *   as a new array of tensors
 *
 * The virtual methods of [class@Gnn.Dataset]. Both must be implemented.
 */
struct _GnnDatasetClass
{
  GObjectClass parent_class;

  gint64      (*get_length) (GnnDataset  *self);
  /* Spelled "struct _GPtrArray" so g-ir-scanner does not merge the
   * invoker's (transfer container) into the vfunc, see GnnDatasetClass::get_item. */
  struct _GPtrArray * (*get_item) (GnnDataset  *self,
                             gint64       index,
                             GError     **error);

  /*< private >*/
  gpointer padding[8];
};

/**
 * GnnDatasetClass::get_item:
 * @self: a #GnnDataset
 * @index: the index, in `[0, length)`
 * @error: return location for a #GError
 *
 * Returns the item at @index (already checked to be in range). Unlike
 * [method@Gnn.Dataset.get_item], which returns the array as (transfer
 * container) with its free function set so that bindings and C agree, an
 * implementation returns every tensor with a reference of its own (bindings
 * marshal a (transfer container) return without references); the invoker
 * then sets the array's free function.
 *
 * Returns: (transfer full) (type GLib.PtrArray) (element-type Gnn.Tensor): the item, or %NULL on error
 */

GNN_AVAILABLE_IN_ALL
gint64      gnn_dataset_get_length (GnnDataset  *self);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_dataset_get_item   (GnnDataset  *self,
                                    gint64       index,
                                    GError     **error);

G_END_DECLS
