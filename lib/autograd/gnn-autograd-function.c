/* gnn-autograd-function.c: custom autograd functions (torch's
 * torch.autograd.Function): a class with forward / backward vfuncs that C,
 * Python and JavaScript subclasses implement, and the context they share
 * (saved tensors, needs_input_grad, mark_dirty, mark_non_differentiable,
 * set_materialize_grads). apply() runs forward without recording and joins
 * the outputs to the graph as one node with several outputs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"

/* --- the context --------------------------------------------------------------- */

/**
 * GnnAutogradContext:
 *
 * The `ctx` a custom function's forward and backward share (torch's
 * FunctionCtx): the tensors forward saves for backward, which inputs need
 * a gradient, and the marks on outputs. Bindings let forward and backward
 * attach their own attributes to it too.
 *
 * Since: 0.1
 */
struct _GnnAutogradContext
{
  GObject              parent_instance;
  GnnAutogradFunction *function;          /* strong */
  GnnNode             *node;              /* the node that owns this context, once made */
  guint                n_inputs;
  gboolean            *needs_grad;
  GPtrArray           *pending;           /* saved during forward */
  GPtrArray           *dirty;             /* marked during forward (weak identity) */
  GPtrArray           *non_differentiable;
  gboolean             materialize;
  GnnMeta             *outputs;           /* for materialized zero gradients */
  guint                n_outputs;
};

G_DEFINE_FINAL_TYPE (GnnAutogradContext, gnn_autograd_context, G_TYPE_OBJECT)

static void
unref_nullable (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

static void
gnn_autograd_context_finalize (GObject *object)
{
  GnnAutogradContext *self = GNN_AUTOGRAD_CONTEXT (object);

  g_clear_object (&self->function);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->dirty, g_ptr_array_unref);
  g_clear_pointer (&self->non_differentiable, g_ptr_array_unref);
  g_free (self->needs_grad);
  g_free (self->outputs);
  G_OBJECT_CLASS (gnn_autograd_context_parent_class)->finalize (object);
}

static void
gnn_autograd_context_class_init (GnnAutogradContextClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_autograd_context_finalize;
}

static void
gnn_autograd_context_init (GnnAutogradContext *self)
{
  self->materialize = TRUE;
  self->pending = g_ptr_array_new_with_free_func (unref_nullable);
  self->dirty = g_ptr_array_new ();
  self->non_differentiable = g_ptr_array_new ();
}

/**
 * gnn_autograd_context_save_for_backward:
 * @self: a #GnnAutogradContext
 * @tensors: (element-type Gnn.Tensor): the tensors backward will need
 *   (inputs or outputs of forward)
 *
 * Saves @tensors for backward (torch's `ctx.save_for_backward`), through
 * the autograd's one save path, so they are freed after backward like an
 * op's saved tensors. Call it from forward.
 *
 * Returns: %TRUE
 *
 * Since: 0.1
 */
gboolean
gnn_autograd_context_save_for_backward (GnnAutogradContext *self,
                                        GPtrArray          *tensors)
{
  g_return_val_if_fail (GNN_IS_AUTOGRAD_CONTEXT (self), FALSE);
  g_return_val_if_fail (tensors != NULL, FALSE);
  g_ptr_array_set_size (self->pending, 0);
  for (guint i = 0; i < tensors->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (tensors, i);

      g_return_val_if_fail (t == NULL || GNN_IS_TENSOR (t), FALSE);
      g_ptr_array_add (self->pending, t != NULL ? g_object_ref (t) : NULL);
    }
  return TRUE;
}

/**
 * gnn_autograd_context_get_saved_tensors:
 * @self: a #GnnAutogradContext
 * @error: return location for a #GError
 *
 * The tensors saved with [method@Gnn.AutogradContext.save_for_backward]
 * (torch's `ctx.saved_tensors`).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the tensors, or %NULL
 *   with @error set once a backward pass has freed them (torch's "Trying to
 *   backward through the graph a second time …")
 *
 * Since: 0.1
 */
GPtrArray *
gnn_autograd_context_get_saved_tensors (GnnAutogradContext *self,
                                        GError            **error)
{
  GPtrArray *source, *out;

  g_return_val_if_fail (GNN_IS_AUTOGRAD_CONTEXT (self), NULL);
  if (self->node != NULL && self->node->freed)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "Trying to backward through the graph a second time (or directly "
                           "access saved tensors after they have already been freed). Saved "
                           "intermediate values of the graph are freed when you call .backward() "
                           "or autograd.grad(). Specify retain_graph=True if you need to backward "
                           "through the graph a second time or if you need to access saved "
                           "tensors after calling backward.");
      return NULL;
    }
  source = self->node != NULL ? self->node->saved_extra : self->pending;
  out = g_ptr_array_new ();
  for (guint i = 0; source != NULL && i < source->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (source, i);

      g_ptr_array_add (out, t != NULL ? g_object_ref (t) : NULL);
    }
  return out;
}

/**
 * gnn_autograd_context_get_n_inputs:
 * @self: a #GnnAutogradContext
 *
 * The number of inputs of the function.
 *
 * Returns: the count
 *
 * Since: 0.1
 */
guint
gnn_autograd_context_get_n_inputs (GnnAutogradContext *self)
{
  g_return_val_if_fail (GNN_IS_AUTOGRAD_CONTEXT (self), 0);
  return self->n_inputs;
}

/**
 * gnn_autograd_context_needs_input_grad:
 * @self: a #GnnAutogradContext
 * @i: an input
 *
 * Whether input @i needs a gradient (torch's `ctx.needs_input_grad[i]`):
 * backward may skip the others.
 *
 * Returns: %TRUE if it does
 *
 * Since: 0.1
 */
gboolean
gnn_autograd_context_needs_input_grad (GnnAutogradContext *self,
                                       guint               i)
{
  g_return_val_if_fail (GNN_IS_AUTOGRAD_CONTEXT (self), FALSE);
  return i < self->n_inputs && self->needs_grad[i];
}

/**
 * gnn_autograd_context_mark_dirty:
 * @self: a #GnnAutogradContext
 * @tensors: (element-type Gnn.Tensor): inputs forward modified in place
 *   (and returns as outputs)
 *
 * Declares in-place modified inputs (torch's `ctx.mark_dirty`): their
 * history continues through this function's node.
 *
 * Since: 0.1
 */
void
gnn_autograd_context_mark_dirty (GnnAutogradContext *self,
                                 GPtrArray          *tensors)
{
  g_return_if_fail (GNN_IS_AUTOGRAD_CONTEXT (self));
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    g_ptr_array_add (self->dirty, g_ptr_array_index (tensors, i));
}

/**
 * gnn_autograd_context_mark_non_differentiable:
 * @self: a #GnnAutogradContext
 * @tensors: (element-type Gnn.Tensor): outputs that have no gradient
 *   (indices, masks)
 *
 * Declares outputs without a gradient (torch's
 * `ctx.mark_non_differentiable`): they do not require grad.
 *
 * Since: 0.1
 */
void
gnn_autograd_context_mark_non_differentiable (GnnAutogradContext *self,
                                              GPtrArray          *tensors)
{
  g_return_if_fail (GNN_IS_AUTOGRAD_CONTEXT (self));
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    g_ptr_array_add (self->non_differentiable, g_ptr_array_index (tensors, i));
}

/**
 * gnn_autograd_context_set_materialize_grads:
 * @self: a #GnnAutogradContext
 * @value: whether missing output gradients become zeros
 *
 * Whether backward gets zero tensors for the outputs no gradient reached
 * (the default, as torch) or %NULL (torch's
 * `ctx.set_materialize_grads (False)`).
 *
 * Since: 0.1
 */
void
gnn_autograd_context_set_materialize_grads (GnnAutogradContext *self,
                                            gboolean            value)
{
  g_return_if_fail (GNN_IS_AUTOGRAD_CONTEXT (self));
  self->materialize = value;
}

static gboolean
marked (GPtrArray *list,
        GnnTensor *t)
{
  for (guint i = 0; i < list->len; i++)
    if (g_ptr_array_index (list, i) == t)
      return TRUE;
  return FALSE;
}

/* --- the function -------------------------------------------------------------- */

/**
 * GnnAutogradFunction:
 *
 * A custom differentiable operation (torch's `torch.autograd.Function`):
 * subclasses implement forward (the outputs from the inputs, with
 * recording off) and backward (the inputs' gradients from the outputs'),
 * in C, Python or JavaScript; [method@Gnn.AutogradFunction.apply] joins
 * the outputs to the autograd graph as one node with several outputs,
 * named "<name>Backward" after [property@Gnn.AutogradFunction:name].
 *
 * Since: 0.1
 */
typedef struct
{
  char *name;
} GnnAutogradFunctionPrivate;

enum {
  PROP_0,
  PROP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (GnnAutogradFunction, gnn_autograd_function, G_TYPE_OBJECT)

static void
gnn_autograd_function_finalize (GObject *object)
{
  GnnAutogradFunctionPrivate *priv =
    gnn_autograd_function_get_instance_private (GNN_AUTOGRAD_FUNCTION (object));

  g_free (priv->name);
  G_OBJECT_CLASS (gnn_autograd_function_parent_class)->finalize (object);
}

static void
gnn_autograd_function_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  GnnAutogradFunctionPrivate *priv =
    gnn_autograd_function_get_instance_private (GNN_AUTOGRAD_FUNCTION (object));

  if (prop_id == PROP_NAME)
    g_value_set_string (value, priv->name);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_autograd_function_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  GnnAutogradFunctionPrivate *priv =
    gnn_autograd_function_get_instance_private (GNN_AUTOGRAD_FUNCTION (object));

  if (prop_id == PROP_NAME)
    {
      g_free (priv->name);
      priv->name = g_value_dup_string (value);
    }
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static GPtrArray *
no_forward (GnnAutogradFunction *self,
            GnnAutogradContext  *ctx,
            GPtrArray           *inputs,
            GError             **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "You must implement the forward function for custom autograd.Function (%s).",
               gnn_autograd_function_get_name (self));
  return NULL;
}

static GPtrArray *
no_backward (GnnAutogradFunction *self,
             GnnAutogradContext  *ctx,
             GPtrArray           *grad_outputs,
             GError             **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "You must implement either the backward or vjp method for your custom "
               "autograd.Function to use it with backward mode AD (%s).",
               gnn_autograd_function_get_name (self));
  return NULL;
}

static void
gnn_autograd_function_class_init (GnnAutogradFunctionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_autograd_function_finalize;
  object_class->get_property = gnn_autograd_function_get_property;
  object_class->set_property = gnn_autograd_function_set_property;
  klass->forward = no_forward;
  klass->backward = no_backward;

  /**
   * GnnAutogradFunction:name:
   *
   * The function's name; its graph node is "<name>Backward" (torch names it
   * after the Python class). Empty: the GType's name.
   *
   * Since: 0.1
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_autograd_function_init (GnnAutogradFunction *self)
{
}

/**
 * gnn_autograd_function_get_name:
 * @self: a #GnnAutogradFunction
 *
 * The function's name ([property@Gnn.AutogradFunction:name], or the type's).
 *
 * Returns: (transfer none): the name
 *
 * Since: 0.1
 */
const char *
gnn_autograd_function_get_name (GnnAutogradFunction *self)
{
  GnnAutogradFunctionPrivate *priv;

  g_return_val_if_fail (GNN_IS_AUTOGRAD_FUNCTION (self), NULL);
  priv = gnn_autograd_function_get_instance_private (self);
  return priv->name != NULL && priv->name[0] != '\0' ? priv->name : G_OBJECT_TYPE_NAME (self);
}

/* Frees an array of tensors a vfunc returned (transfer full: the array and
 * a reference to each element, whether or not it has a free func). */
static void
free_tensor_array (GPtrArray *array)
{
  g_ptr_array_set_free_func (array, NULL);
  for (guint i = 0; i < array->len; i++)
    if (g_ptr_array_index (array, i) != NULL)
      g_object_unref (g_ptr_array_index (array, i));
  g_ptr_array_unref (array);
}

static void
context_release (gpointer data)
{
  GnnAutogradContext *ctx = data;

  ctx->node = NULL;
  g_object_unref (ctx);
}

/* The node's backward: the output gradients (zeros where none arrived,
 * unless the function said otherwise) to the function's backward. */
static gboolean
custom_backward (GnnNode    *node,
                 GnnTensor  *grad,
                 GnnTensor **grads,
                 GError    **error)
{
  GnnAutogradContext *ctx = node->custom;
  GnnAutogradFunctionClass *klass = GNN_AUTOGRAD_FUNCTION_GET_CLASS (ctx->function);
  g_autoptr(GPtrArray) grad_outputs = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *result;

  for (guint i = 0; i < node->n_outputs; i++)
    {
      GnnTensor *g = node->grads_out[i];

      if (g != NULL)
        g_ptr_array_add (grad_outputs, g_object_ref (g));
      else if (ctx->materialize && i < ctx->n_outputs)
        g_ptr_array_add (grad_outputs, gnn_ag_zeros (&ctx->outputs[i]));
      else
        g_ptr_array_add (grad_outputs, NULL);
    }
  result = klass->backward (ctx->function, ctx, grad_outputs, error);
  if (result == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD, "%s returned no gradients",
                     node->name);
      return FALSE;
    }
  if (result->len != node->n_inputs)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "function %s returned an incorrect number of gradients (expected %u, got %u)",
                   node->name, node->n_inputs, result->len);
      free_tensor_array (result);
      return FALSE;
    }
  for (guint i = 0; i < node->n_inputs; i++)
    {
      GnnTensor *g = g_ptr_array_index (result, i);

      if (g == NULL || !gnn_node_needs_grad (node, i))
        continue;
      grads[i] = gnn_ag_sum_to (g, &node->inputs[i], NULL);
      if (grads[i] == NULL)
        {
          g_autofree char *got = gnn_shape_to_string (gnn_tensor_get_shape (g, NULL),
                                                      gnn_tensor_get_ndim (g));
          g_autofree char *want = gnn_shape_to_string (node->inputs[i].shape,
                                                       node->inputs[i].ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                       "Function %s returned an invalid gradient at index %u - got %s but "
                       "expected shape compatible with %s", node->name, i, got, want);
          free_tensor_array (result);
          return FALSE;
        }
    }
  free_tensor_array (result);
  return TRUE;
}

static gboolean
is_input (GPtrArray *inputs,
          GnnTensor *t)
{
  return marked (inputs, t);
}

/**
 * gnn_autograd_function_apply:
 * @self: a #GnnAutogradFunction
 * @inputs: (element-type Gnn.Tensor): the tensors forward takes (the ones
 *   gradients flow to)
 * @error: return location for a #GError
 *
 * Runs the function like torch's `MyFunction.apply (*inputs)`: forward
 * with recording off, then, when an input requires grad, the outputs join
 * the graph through one node whose backward is the function's; outputs
 * marked non-differentiable (and integer ones) stay outside it. An input
 * forward returns unchanged comes back as a new view of it; one it marked
 * dirty keeps its identity and continues its history here.
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the outputs, or %NULL
 *   with @error set (forward's error; a leaf that requires grad marked
 *   dirty)
 *
 * Since: 0.1
 */
GPtrArray *
gnn_autograd_function_apply (GnnAutogradFunction *self,
                             GPtrArray           *inputs,
                             GError             **error)
{
  GnnAutogradFunctionClass *klass;
  g_autoptr(GnnAutogradContext) ctx = NULL;
  g_autofree char *node_name = NULL;
  GPtrArray *outputs;
  gboolean any = FALSE;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_AUTOGRAD_FUNCTION (self), NULL);
  g_return_val_if_fail (inputs != NULL, NULL);
  klass = GNN_AUTOGRAD_FUNCTION_GET_CLASS (self);

  ctx = g_object_new (GNN_TYPE_AUTOGRAD_CONTEXT, NULL);
  ctx->function = g_object_ref (self);
  ctx->n_inputs = inputs->len;
  ctx->needs_grad = g_new0 (gboolean, MAX (inputs->len, 1));
  for (guint i = 0; i < inputs->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (inputs, i);

      g_return_val_if_fail (t == NULL || GNN_IS_TENSOR (t), NULL);
      ctx->needs_grad[i] = t != NULL && gnn_is_grad_enabled () &&
                           gnn_tensor_get_requires_grad (t) &&
                           gnn_dtype_is_floating (gnn_tensor_get_dtype (t));
      any = any || ctx->needs_grad[i];
    }

  gnn_no_grad_push ();
  outputs = klass->forward (self, ctx, inputs, error);
  gnn_no_grad_pop ();
  if (outputs == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD, "%s.forward returned no outputs",
                     gnn_autograd_function_get_name (self));
      return NULL;
    }
  /* returned without a free func, as the library's arrays are (bindings
   * take each reference and free the array) */
  g_ptr_array_set_free_func (outputs, NULL);
  for (guint i = 0; i < outputs->len; i++)
    if (!GNN_IS_TENSOR (g_ptr_array_index (outputs, i)))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                     "%s.forward must return tensors (output %u is not one)",
                     gnn_autograd_function_get_name (self), i);
        free_tensor_array (outputs);
        return NULL;
      }
  if (!any)
    return outputs;

  for (guint i = 0; i < ctx->dirty->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (ctx->dirty, i);

      if (gnn_tensor_get_requires_grad (t) && gnn_tensor_is_leaf (t))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                               "a leaf Variable that requires grad has been used in an in-place "
                               "operation.");
          free_tensor_array (outputs);
          return NULL;
        }
    }

  node_name = g_strdup_printf ("%sBackward", gnn_autograd_function_get_name (self));
  node = gnn_node_new_custom (node_name, (GnnTensor *const *) inputs->pdata, inputs->len,
                              outputs->len, custom_backward, g_object_ref (ctx), context_release);
  ctx->node = node;
  ctx->n_outputs = outputs->len;
  ctx->outputs = g_new0 (GnnMeta, MAX (outputs->len, 1));
  for (guint i = 0; i < outputs->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (outputs, i);
      GnnTensorPrivate *p = gnn_tensor_priv (t);

      ctx->outputs[i].dtype = p->dtype;
      ctx->outputs[i].ndim = p->ndim;
      memcpy (ctx->outputs[i].shape, p->shape, sizeof (gint64) * p->ndim);
      if (marked (ctx->non_differentiable, t) || !gnn_dtype_is_floating (p->dtype))
        continue;
      if (is_input (inputs, t) && !marked (ctx->dirty, t))
        {
          /* an input passed through: a new view carries the new history */
          GnnTensor *view = gnn_tensor_new_view (t, p->shape, p->strides, p->ndim, p->offset);

          g_object_unref (t);
          g_ptr_array_index (outputs, i) = view;
          t = view;
        }
      gnn_node_attach (node, t, i);
    }
  for (guint i = 0; i < ctx->pending->len; i++)
    gnn_node_save_extra (node, g_ptr_array_index (ctx->pending, i));
  g_ptr_array_set_size (ctx->pending, 0);
  gnn_node_unref (node);
  return outputs;
}
