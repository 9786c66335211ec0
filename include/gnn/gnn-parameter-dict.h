/* gnn-parameter-dict.h: parameters by key (torch.nn.ParameterDict)
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

#define GNN_TYPE_PARAMETER_DICT (gnn_parameter_dict_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnParameterDict, gnn_parameter_dict, GNN, PARAMETER_DICT, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnParameterDict *gnn_parameter_dict_new        (void);
GNN_AVAILABLE_IN_ALL
guint             gnn_parameter_dict_get_length (GnnParameterDict  *self);
GNN_AVAILABLE_IN_ALL
char            **gnn_parameter_dict_get_keys   (GnnParameterDict  *self);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_parameter_dict_contains   (GnnParameterDict  *self,
                                                 const char        *key);
GNN_AVAILABLE_IN_ALL
GnnParameter     *gnn_parameter_dict_get        (GnnParameterDict  *self,
                                                 const char        *key,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_parameter_dict_set        (GnnParameterDict  *self,
                                                 const char        *key,
                                                 GnnTensor         *value,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
GnnParameter     *gnn_parameter_dict_pop        (GnnParameterDict  *self,
                                                 const char        *key,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
void              gnn_parameter_dict_clear      (GnnParameterDict  *self);

G_END_DECLS
