/* gnn-grad-fn.h: a node of the autograd graph, as torch's Tensor.grad_fn
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

#define GNN_TYPE_GRAD_FN (gnn_grad_fn_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGradFn, gnn_grad_fn, GNN, GRAD_FN, GObject)

GNN_AVAILABLE_IN_ALL
GnnGradFn  *gnn_tensor_get_grad_fn          (GnnTensor *self);
GNN_AVAILABLE_IN_ALL
const char *gnn_grad_fn_get_name            (GnnGradFn *self);
GNN_AVAILABLE_IN_ALL
guint       gnn_grad_fn_get_n_next_functions (GnnGradFn *self);
GNN_AVAILABLE_IN_ALL
GnnGradFn  *gnn_grad_fn_get_next_function   (GnnGradFn *self,
                                             guint      i,
                                             guint     *input_nr);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_grad_fn_get_variable        (GnnGradFn *self);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_grad_fn_equal               (GnnGradFn *self,
                                             GnnGradFn *other);

G_END_DECLS
