/* gnn-state-dict.h: ordered name → tensor maps with string metadata
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

#define GNN_TYPE_STATE_DICT (gnn_state_dict_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnStateDict, gnn_state_dict, GNN, STATE_DICT, GObject)

GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_state_dict_new          (void);
GNN_AVAILABLE_IN_ALL
void           gnn_state_dict_insert       (GnnStateDict *self,
                                            const char   *key,
                                            GnnTensor    *tensor);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_state_dict_lookup       (GnnStateDict *self,
                                            const char   *key);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_state_dict_contains     (GnnStateDict *self,
                                            const char   *key);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_state_dict_remove       (GnnStateDict *self,
                                            const char   *key);
GNN_AVAILABLE_IN_ALL
char         **gnn_state_dict_get_keys     (GnnStateDict *self);
GNN_AVAILABLE_IN_ALL
guint          gnn_state_dict_get_length   (GnnStateDict *self);
GNN_AVAILABLE_IN_ALL
void           gnn_state_dict_set_metadata (GnnStateDict *self,
                                            const char   *key,
                                            const char   *value);
GNN_AVAILABLE_IN_ALL
const char    *gnn_state_dict_get_metadata (GnnStateDict *self,
                                            const char   *key);
GNN_AVAILABLE_IN_ALL
char         **gnn_state_dict_get_metadata_keys (GnnStateDict *self);

G_END_DECLS
