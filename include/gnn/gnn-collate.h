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

G_BEGIN_DECLS

#define GNN_TYPE_COLLATE (gnn_collate_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnCollate, gnn_collate, GNN, COLLATE, GObject)

/**
 * GnnCollateClass:
 * @parent_class: the parent class
 * @collate: turns @n_items items of @n_fields tensors each, given
 *   item-major in one flat array, into one batch (an array of tensors)
 *
 * The virtual method of [class@Gnn.Collate]. The default implementation is
 * [func@Gnn.default_collate].
 */
struct _GnnCollateClass
{
  GObjectClass parent_class;

  GPtrArray * (*collate) (GnnCollate  *self,
                          GPtrArray   *items,
                          guint        n_fields,
                          GError     **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnCollate *gnn_collate_new         (void);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_collate_collate     (GnnCollate  *self,
                                     GPtrArray   *items,
                                     guint        n_fields,
                                     GError     **error);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_default_collate     (GPtrArray   *items,
                                     guint        n_fields,
                                     GError     **error);

G_END_DECLS
