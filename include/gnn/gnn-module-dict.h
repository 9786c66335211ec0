/* gnn-module-dict.h: modules by key (torch.nn.ModuleDict)
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

#define GNN_TYPE_MODULE_DICT (gnn_module_dict_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnModuleDict, gnn_module_dict, GNN, MODULE_DICT, GnnModule)

/**
 * GnnModuleDictClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.ModuleDict].
 */
struct _GnnModuleDictClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnModuleDict *gnn_module_dict_new        (void);
GNN_AVAILABLE_IN_ALL
guint          gnn_module_dict_get_length (GnnModuleDict  *self);
GNN_AVAILABLE_IN_ALL
char         **gnn_module_dict_get_keys   (GnnModuleDict  *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_dict_contains   (GnnModuleDict  *self,
                                           const char     *key);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_dict_get        (GnnModuleDict  *self,
                                           const char     *key,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_dict_set        (GnnModuleDict  *self,
                                           const char     *key,
                                           GnnModule      *module,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_dict_pop        (GnnModuleDict  *self,
                                           const char     *key,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_dict_update     (GnnModuleDict  *self,
                                           GnnModuleDict  *other,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
void           gnn_module_dict_clear      (GnnModuleDict  *self);

G_END_DECLS
