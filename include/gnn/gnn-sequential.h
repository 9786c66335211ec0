/* gnn-sequential.h: a chain of modules (torch.nn.Sequential)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_SEQUENTIAL (gnn_sequential_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnSequential, gnn_sequential, GNN, SEQUENTIAL, GnnModule)

/**
 * GnnSequentialClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Sequential].
 */
struct _GnnSequentialClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnSequential *gnn_sequential_new        (GnnModule    **modules,
                                          guint          n_modules);
GNN_AVAILABLE_IN_ALL
guint          gnn_sequential_get_length (GnnSequential *self);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_sequential_get        (GnnSequential *self,
                                          gint64         index,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_sequential_set        (GnnSequential *self,
                                          gint64         index,
                                          GnnModule     *module,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_sequential_append     (GnnSequential *self,
                                          GnnModule     *module,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_sequential_insert     (GnnSequential *self,
                                          gint64         index,
                                          GnnModule     *module,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_sequential_extend     (GnnSequential *self,
                                          GnnModule    **modules,
                                          guint          n_modules,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_sequential_pop        (GnnSequential *self,
                                          gint64         index,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
GnnSequential *gnn_sequential_slice      (GnnSequential *self,
                                          gint64         start,
                                          gint64         stop,
                                          gint64         step,
                                          GError       **error);

G_END_DECLS
