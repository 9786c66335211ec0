/* gnn-module-list.h: a list of modules (torch.nn.ModuleList)
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

#define GNN_TYPE_MODULE_LIST (gnn_module_list_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnModuleList, gnn_module_list, GNN, MODULE_LIST, GnnModule)

/**
 * GnnModuleListClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.ModuleList].
 */
struct _GnnModuleListClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnModuleList *gnn_module_list_new        (GnnModule    **modules,
                                          guint          n_modules);
GNN_AVAILABLE_IN_ALL
guint          gnn_module_list_get_length (GnnModuleList *self);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_list_get        (GnnModuleList *self,
                                          gint64         index,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_list_set        (GnnModuleList *self,
                                          gint64         index,
                                          GnnModule     *module,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_list_append     (GnnModuleList *self,
                                          GnnModule     *module,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_list_insert     (GnnModuleList *self,
                                          gint64         index,
                                          GnnModule     *module,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_list_extend     (GnnModuleList *self,
                                          GnnModule    **modules,
                                          guint          n_modules,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_list_pop        (GnnModuleList *self,
                                          gint64         index,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
GnnModuleList *gnn_module_list_slice      (GnnModuleList *self,
                                          gint64         start,
                                          gint64         stop,
                                          gint64         step,
                                          GError       **error);

G_END_DECLS
