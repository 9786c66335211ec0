/* gnn-autograd-function.h: custom autograd functions (torch's
 * torch.autograd.Function) in any language
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
#include <gnn/gnn-autograd-context.h>

G_BEGIN_DECLS

#define GNN_TYPE_AUTOGRAD_FUNCTION (gnn_autograd_function_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnAutogradFunction, gnn_autograd_function, GNN, AUTOGRAD_FUNCTION,
                          GObject)

/**
 * GnnAutogradFunctionClass:
 * @parent_class: the parent class
 * @forward: computes the outputs from the inputs (recording is off); may
 *   save tensors in the context
 * @backward: the gradients of the inputs (one per input, %NULL for none)
 *   from the gradients of the outputs
 *
 * The class structure of #GnnAutogradFunction.
 *
 * Since: 1.0
 */
struct _GnnAutogradFunctionClass
{
  GObjectClass parent_class;

  GPtrArray *(*forward)  (GnnAutogradFunction *self,
                          GnnAutogradContext  *ctx,
                          GPtrArray           *inputs,
                          GError             **error);
  GPtrArray *(*backward) (GnnAutogradFunction *self,
                          GnnAutogradContext  *ctx,
                          GPtrArray           *grad_outputs,
                          GError             **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_autograd_function_apply    (GnnAutogradFunction *self,
                                            GPtrArray           *inputs,
                                            GError             **error);
GNN_AVAILABLE_IN_ALL
const char *gnn_autograd_function_get_name (GnnAutogradFunction *self);

G_END_DECLS
