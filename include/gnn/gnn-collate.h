/* gnn-collate.h: turning a list of items into a batch
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

#define GNN_TYPE_COLLATE (gnn_collate_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnCollate, gnn_collate, GNN, COLLATE, GObject)

/**
 * GnnCollateClass:
 * @parent_class: the parent class
 * @collate: turns items of @n_fields tensors each, given item-major in
 *   one flat array, into one batch (an array of tensors) stored in @batch
 * @collate_batch: turns items (named, typed [struct@Gnn.Batch]es) into one
 *   batch; the default checks that the items agree in kind and names,
 *   calls `collate` on their fields and gives the result the items' names
 *   and kind (positional when `collate` returns another number of fields)
 *
 * The virtual method of [class@Gnn.Collate]. The default implementation is
 * [func@Gnn.default_collate].
 *
 * Since: 0.1
 */
struct _GnnCollateClass
{
  GObjectClass parent_class;

  void (*collate) (GnnCollate  *self,
                   GPtrArray   *items,
                   guint        n_fields,
                   GPtrArray  **batch,
                   GError     **error);
  void (*collate_batch) (GnnCollate  *self,
                         GPtrArray   *items,
                         GnnBatch   **batch,
                         GError     **error);

  /*< private >*/
  gpointer padding[7];
};

/**
 * GnnCollateClass::collate:
 * @self: a #GnnCollate
 * @items: (element-type Gnn.Tensor): the fields of every item, item-major
 * @n_fields: the number of fields per item
 * @batch: (out) (transfer full) (element-type Gnn.Tensor) (nullable): the
 *   batch, a new array holding a reference to each tensor
 * @error: return location for a #GError
 *
 * Collates a batch. In Python, `do_collate (self, items, n_fields)` returns
 * a list of tensors or raises.
 *
 * Since: 0.1
 */

/**
 * GnnCollateClass::collate_batch:
 * @self: a #GnnCollate
 * @items: (element-type Gnn.Batch): the items
 * @batch: (out) (transfer full) (nullable): the batch
 * @error: return location for a #GError
 *
 * Collates a batch of named, typed items.
 *
 * Since: 0.1
 */

GNN_AVAILABLE_IN_ALL
GnnCollate *gnn_collate_new         (void);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_collate_collate     (GnnCollate  *self,
                                     GPtrArray   *items,
                                     guint        n_fields,
                                     GError     **error);
GNN_AVAILABLE_IN_ALL
GnnBatch   *gnn_collate_collate_batch (GnnCollate  *self,
                                       GPtrArray   *items,
                                       GError     **error);
GNN_AVAILABLE_IN_ALL
GnnBatch   *gnn_default_collate_batch (GPtrArray   *items,
                                       GError     **error);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_default_collate     (GPtrArray   *items,
                                     guint        n_fields,
                                     GError     **error);

G_END_DECLS
