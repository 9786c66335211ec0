/* gnn-parameter-list.h: a list of parameters (torch.nn.ParameterList)
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

#define GNN_TYPE_PARAMETER_LIST (gnn_parameter_list_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnParameterList, gnn_parameter_list, GNN, PARAMETER_LIST, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnParameterList *gnn_parameter_list_new        (GnnTensor        **values,
                                                 guint              n_values);
GNN_AVAILABLE_IN_ALL
guint             gnn_parameter_list_get_length (GnnParameterList  *self);
GNN_AVAILABLE_IN_ALL
GnnParameter     *gnn_parameter_list_get        (GnnParameterList  *self,
                                                 gint64             index,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_parameter_list_set        (GnnParameterList  *self,
                                                 gint64             index,
                                                 GnnTensor         *value,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
void              gnn_parameter_list_append     (GnnParameterList  *self,
                                                 GnnTensor         *value);
GNN_AVAILABLE_IN_ALL
void              gnn_parameter_list_extend     (GnnParameterList  *self,
                                                 GnnTensor        **values,
                                                 guint              n_values);

G_END_DECLS
