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
 * Since: 0.1
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

/**
 * GnnAutogradFunctionClass::forward:
 * @self: a #GnnAutogradFunction
 * @ctx: the context backward will get
 * @inputs: (element-type Gnn.Tensor): the inputs apply() was given
 * @error: return location for a #GError
 *
 * Computes the outputs (recording is off while it runs). In Python,
 * `do_forward (self, ctx, inputs)` returns a list of tensors or raises.
 *
 * Returns: (transfer full) (element-type Gnn.Tensor) (nullable): the outputs,
 *   a new array holding a reference to each, or %NULL with @error set
 *
 * Since: 0.1
 */

/**
 * GnnAutogradFunctionClass::backward:
 * @self: a #GnnAutogradFunction
 * @ctx: the context forward filled
 * @grad_outputs: (element-type Gnn.Tensor): one gradient per output (%NULL
 *   for an output that got none, unless gradients are materialized)
 * @error: return location for a #GError
 *
 * The gradients of the inputs, one per input (%NULL where an input gets
 * none). In Python, `do_backward (self, ctx, grad_outputs)` returns a list
 * (None allowed) or raises.
 *
 * Returns: (transfer full) (element-type Gnn.Tensor) (nullable): the
 *   gradients, a new array holding a reference to each, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */

GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_autograd_function_apply    (GnnAutogradFunction *self,
                                            GPtrArray           *inputs,
                                            GError             **error);
GNN_AVAILABLE_IN_ALL
const char *gnn_autograd_function_get_name (GnnAutogradFunction *self);

G_END_DECLS
