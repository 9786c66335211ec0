/* gnn-grad-fn.c: GnnGradFn, the autograd graph as objects — a node of an
 * op ("AddBackward0") or the accumulation into a leaf ("AccumulateGrad"),
 * with torch's next_functions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "autograd/gnn-autograd-private.h"

/**
 * GnnGradFn:
 *
 * A node of the autograd graph, as `tensor.grad_fn` is in torch: the op
 * that computed a tensor (named like torch's, `"MulBackward0"`), with the
 * functions its gradient flows on to ([method@Gnn.GradFn.get_next_function],
 * torch's `next_functions`); a leaf's end of the graph is an
 * `"AccumulateGrad"` node whose [method@Gnn.GradFn.get_variable] is the leaf.
 * While a #GnnGradFn is alive, asking a tensor for its grad_fn again gives
 * the same object. Built without a node (g_object_new), it is an empty one.
 *
 * Since: 0.1
 */
struct _GnnGradFn
{
  GObject    parent_instance;
  GnnNode   *node;
  GnnTensor *variable;   /* AccumulateGrad */
};

G_DEFINE_FINAL_TYPE (GnnGradFn, gnn_grad_fn, G_TYPE_OBJECT)

static void
gnn_grad_fn_finalize (GObject *object)
{
  GnnGradFn *self = GNN_GRAD_FN (object);

  if (self->node != NULL)
    {
      if (self->node->wrapper == self)
        self->node->wrapper = NULL;
      gnn_node_unref (self->node);
    }
  g_clear_object (&self->variable);
  G_OBJECT_CLASS (gnn_grad_fn_parent_class)->finalize (object);
}

static void
gnn_grad_fn_class_init (GnnGradFnClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_grad_fn_finalize;
}

static void
gnn_grad_fn_init (GnnGradFn *self)
{
}

static GnnGradFn *
wrap_node (GnnNode *node)
{
  GnnGradFn *self;

  if (node->wrapper != NULL)
    return g_object_ref (node->wrapper);
  self = g_object_new (GNN_TYPE_GRAD_FN, NULL);
  self->node = gnn_node_ref (node);
  node->wrapper = self;
  return self;
}

static GnnGradFn *
wrap_leaf (GnnTensor *leaf)
{
  GnnGradFn *self = g_object_new (GNN_TYPE_GRAD_FN, NULL);

  self->variable = g_object_ref (leaf);
  return self;
}

/**
 * gnn_tensor_get_grad_fn:
 * @self: a #GnnTensor
 *
 * The node that computed @self (like `tensor.grad_fn`).
 *
 * Returns: (transfer full) (nullable): the node, or %NULL for a leaf
 *
 * Since: 0.1
 */
GnnGradFn *
gnn_tensor_get_grad_fn (GnnTensor *self)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  return p->grad_fn != NULL ? wrap_node (p->grad_fn) : NULL;
}

/**
 * gnn_grad_fn_get_name:
 * @self: a #GnnGradFn
 *
 * The node's name, as `type (grad_fn).__name__` in torch: the op's
 * ("AddBackward0"), a custom function's ("MyFnBackward") or
 * "AccumulateGrad".
 *
 * Returns: (transfer none): the name ("" for an empty node)
 *
 * Since: 0.1
 */
const char *
gnn_grad_fn_get_name (GnnGradFn *self)
{
  g_return_val_if_fail (GNN_IS_GRAD_FN (self), NULL);
  if (self->variable != NULL)
    return "AccumulateGrad";
  return self->node != NULL ? self->node->name : "";
}

/**
 * gnn_grad_fn_get_n_next_functions:
 * @self: a #GnnGradFn
 *
 * The number of inputs of the node: the length of torch's
 * `grad_fn.next_functions`.
 *
 * Returns: the count (0 for AccumulateGrad)
 *
 * Since: 0.1
 */
guint
gnn_grad_fn_get_n_next_functions (GnnGradFn *self)
{
  g_return_val_if_fail (GNN_IS_GRAD_FN (self), 0);
  return self->node != NULL ? self->node->n_inputs : 0;
}

/**
 * gnn_grad_fn_get_next_function:
 * @self: a #GnnGradFn
 * @i: the input, below [method@Gnn.GradFn.get_n_next_functions]
 * @input_nr: (out) (optional): which output of the next node that input was
 *
 * Where the gradient of input @i goes (torch's `next_functions[i]`): the
 * node that computed it, the AccumulateGrad of a leaf that requires grad,
 * or %NULL for an input outside the graph.
 *
 * Returns: (transfer full) (nullable): the next node
 *
 * Since: 0.1
 */
GnnGradFn *
gnn_grad_fn_get_next_function (GnnGradFn *self,
                               guint      i,
                               guint     *input_nr)
{
  GnnEdge *e;

  g_return_val_if_fail (GNN_IS_GRAD_FN (self), NULL);
  if (input_nr != NULL)
    *input_nr = 0;
  if (self->node == NULL || i >= self->node->n_inputs)
    return NULL;
  e = &self->node->edges[i];
  if (input_nr != NULL)
    *input_nr = e->input_nr;
  if (e->node != NULL)
    return wrap_node (e->node);
  if (e->leaf != NULL)
    return wrap_leaf (e->leaf);
  return NULL;
}

/**
 * gnn_grad_fn_get_variable:
 * @self: a #GnnGradFn
 *
 * The leaf an AccumulateGrad node accumulates into (torch's
 * `grad_fn.variable`).
 *
 * Returns: (transfer none) (nullable): the leaf, or %NULL for other nodes
 *
 * Since: 0.1
 */
GnnTensor *
gnn_grad_fn_get_variable (GnnGradFn *self)
{
  g_return_val_if_fail (GNN_IS_GRAD_FN (self), NULL);
  return self->variable;
}

/**
 * gnn_grad_fn_equal:
 * @self: a #GnnGradFn
 * @other: another #GnnGradFn
 *
 * Whether both stand for the same node (or the same leaf's accumulation).
 *
 * Returns: %TRUE if they do
 *
 * Since: 0.1
 */
gboolean
gnn_grad_fn_equal (GnnGradFn *self,
                   GnnGradFn *other)
{
  g_return_val_if_fail (GNN_IS_GRAD_FN (self), FALSE);
  g_return_val_if_fail (GNN_IS_GRAD_FN (other), FALSE);
  if (self->variable != NULL || other->variable != NULL)
    return self->variable == other->variable;
  return self->node == other->node;
}
