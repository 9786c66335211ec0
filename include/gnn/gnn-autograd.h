/* gnn-autograd.h: reverse-mode automatic differentiation
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

/* --- grad mode ------------------------------------------------------------ */

GNN_AVAILABLE_IN_ALL
void        gnn_set_grad_enabled       (gboolean    enabled);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_is_grad_enabled        (void);
GNN_AVAILABLE_IN_ALL
void        gnn_no_grad_push           (void);
GNN_AVAILABLE_IN_ALL
void        gnn_no_grad_pop            (void);

/**
 * GnnNoGradGuard: (skip)
 *
 * A no-grad scope for C: `g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();`
 * turns recording off until the end of the enclosing block.
 *
 * Since: 0.1
 */
typedef struct _GnnNoGradGuard GnnNoGradGuard;

GNN_AVAILABLE_IN_ALL
GnnNoGradGuard *gnn_no_grad_guard_new  (void);
GNN_AVAILABLE_IN_ALL
void        gnn_no_grad_guard_free     (GnnNoGradGuard *guard);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnNoGradGuard, gnn_no_grad_guard_free)

/* --- the graph ------------------------------------------------------------ */

GNN_AVAILABLE_IN_ALL
gboolean    gnn_tensor_backward        (GnnTensor  *self,
                                        GnnTensor  *gradient,
                                        gboolean    retain_graph,
                                        GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_tensor_detach          (GnnTensor  *self);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_tensor_is_leaf         (GnnTensor  *self);
GNN_AVAILABLE_IN_ALL
const char *gnn_tensor_get_grad_fn_name (GnnTensor *self);
GNN_AVAILABLE_IN_ALL
guint       gnn_tensor_get_version     (GnnTensor  *self);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_tensor_detach_         (GnnTensor  *self,
                                        GError    **error);
GNN_AVAILABLE_IN_ALL
void        gnn_tensor_retain_grad     (GnnTensor  *self);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_tensor_get_retains_grad (GnnTensor *self);

typedef GnnTensor *(*GnnTensorHookFunc) (GnnTensor *grad, gpointer user_data);

GNN_AVAILABLE_IN_ALL
guint       gnn_tensor_register_hook   (GnnTensor         *self,
                                        GnnTensorHookFunc  func,
                                        gpointer           user_data,
                                        GDestroyNotify     notify,
                                        GError           **error);
GNN_AVAILABLE_IN_ALL
void        gnn_tensor_remove_hook     (GnnTensor         *self,
                                        guint              id);

G_END_DECLS
