/* gnn-iterable-dataset.h: iterable-style datasets (streams)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-dataset.h>
#include <gnn/gnn-item-iterator.h>

G_BEGIN_DECLS

#define GNN_TYPE_ITERABLE_DATASET (gnn_iterable_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnIterableDataset, gnn_iterable_dataset, GNN, ITERABLE_DATASET, GnnDataset)

/**
 * GnnIterableDatasetClass:
 * @parent_class: the parent class
 * @create_iterator: returns a new iterator over the items (inside a loader
 *   worker, [func@Gnn.get_worker_info] tells which share to produce)
 *
 * The virtual method of [class@Gnn.IterableDataset].
 *
 * Since: 0.1
 */
struct _GnnIterableDatasetClass
{
  GnnDatasetClass parent_class;

  GnnItemIterator * (*create_iterator) (GnnIterableDataset  *self,
                                        GError             **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnItemIterator *gnn_iterable_dataset_create_iterator (GnnIterableDataset  *self,
                                                       GError             **error);

G_END_DECLS
