/* gnn-autograd-context.h: the ctx of a custom autograd function (torch's
 * FunctionCtx): saved tensors, needs_input_grad, mark_dirty, ...
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

#define GNN_TYPE_AUTOGRAD_CONTEXT (gnn_autograd_context_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAutogradContext, gnn_autograd_context, GNN, AUTOGRAD_CONTEXT, GObject)

GNN_AVAILABLE_IN_ALL
gboolean   gnn_autograd_context_save_for_backward (GnnAutogradContext *self,
                                                   GPtrArray          *tensors);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_autograd_context_get_saved_tensors (GnnAutogradContext *self,
                                                   GError            **error);
GNN_AVAILABLE_IN_ALL
guint      gnn_autograd_context_get_n_inputs      (GnnAutogradContext *self);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_autograd_context_needs_input_grad  (GnnAutogradContext *self,
                                                   guint               i);
GNN_AVAILABLE_IN_ALL
void       gnn_autograd_context_mark_dirty        (GnnAutogradContext *self,
                                                   GPtrArray          *tensors);
GNN_AVAILABLE_IN_ALL
void       gnn_autograd_context_mark_non_differentiable (GnnAutogradContext *self,
                                                         GPtrArray          *tensors);
GNN_AVAILABLE_IN_ALL
void       gnn_autograd_context_set_materialize_grads (GnnAutogradContext *self,
                                                       gboolean            value);

G_END_DECLS
