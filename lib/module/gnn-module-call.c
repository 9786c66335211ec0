/* gnn-module-call.c: GnnModule's call path: forward dispatch, hooks, and
 * the one-tensor and general calls
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-private.h"
#include "module/gnn-module-call-private.h"
#include "tensor/gnn-tensor-private.h"

/* Nested calls on this thread (see GNN_MODULE_MAX_CALL_DEPTH).
 * initial-exec: a plain %fs-relative access instead of a __tls_get_addr()
 * call on every module call (a 4-byte variable fits glibc's static TLS
 * reserve even when the library is dlopen()ed by a binding). */
#if defined(__GNUC__) && defined(__ELF__)
static _Thread_local int call_depth __attribute__ ((tls_model ("initial-exec")));
#else
static _Thread_local int call_depth;
#endif

/* What a call of the one-tensor API returns: the output if it is one
 * tensor, else a GNN_ERROR_TYPE pointing to the general call. */
/* The output's tensor, referenced, and @out cleared; NULL (and @out kept)
 * if the output is not one tensor. */
static GnnTensor *
output_steal_tensor (GnnCallOutput *out)
{
  GnnTensor *tensor = out->tensor;

  if (tensor != NULL)
    out->tensor = NULL;   /* stolen: no reference taken and dropped */
  else if ((tensor = gnn_call_output_tensor (out)) != NULL)
    g_object_ref (tensor);
  else
    return NULL;
  gnn_call_output_clear (out);
  return tensor;
}

static GnnTensor *
output_finish_tensor (GnnModule     *self,
                      GnnCallOutput *out,
                      GError       **error)
{
  GnnTensor *tensor = output_steal_tensor (out);

  if (tensor != NULL)
    return tensor;
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s returned a %s, not a Tensor: call it with gnn_module_call_args "
               "(gnn_module_call and gnn_module_forward return one tensor)",
               gnn_module_get_name (self), gnn_value_get_type_name (out->value));
  gnn_call_output_clear (out);
  return NULL;
}

static GnnValue *
output_finish_value (GnnCallOutput *out)
{
  GnnValue *value = gnn_call_output_value (out);

  out->value = NULL;   /* stolen */
  gnn_call_output_clear (out);
  return value;
}

/* --- which forward runs ---------------------------------------------------- */

typedef enum
{
  IMPL_NONE,
  IMPL_TENSOR,   /* forward */
  IMPL_ARGS,     /* forward_args */
} ForwardImpl;

enum { NEWER_TENSOR = 1, NEWER_ARGS, SAME_CLASS };

/* The depth of the class that set the vfunc at @offset (the first ancestor
 * of @klass holding the same pointer). */
static guint
vfunc_owner_depth (GnnModuleClass *klass,
                   gsize           offset)
{
  gpointer fn = G_STRUCT_MEMBER (gpointer, klass, offset);
  GTypeClass *owner = (GTypeClass *) klass;

  for (;;)
    {
      GTypeClass *parent = g_type_class_peek_parent (owner);

      if (parent == NULL || !g_type_is_a (G_TYPE_FROM_CLASS (parent), GNN_TYPE_MODULE) ||
          G_STRUCT_MEMBER (gpointer, parent, offset) != fn)
        break;
      owner = parent;
    }
  return g_type_depth (G_TYPE_FROM_CLASS (owner));
}

/* For a class with both vfuncs: which one a subclass set last. A class
 * struct starts as a copy of its parent's, cached fields included, so the
 * cache records the class it was worked out for. */
static int
newer_forward (GnnModuleClass *klass)
{
  guint tensor_depth, args_depth;
  int newer;

  if (g_atomic_pointer_get (&klass->dispatch_class) == klass)
    return g_atomic_int_get (&klass->dispatch);
  tensor_depth = vfunc_owner_depth (klass, G_STRUCT_OFFSET (GnnModuleClass, forward));
  args_depth = vfunc_owner_depth (klass, G_STRUCT_OFFSET (GnnModuleClass, forward_args));
  newer = tensor_depth > args_depth ? NEWER_TENSOR :
          args_depth > tensor_depth ? NEWER_ARGS : SAME_CLASS;
  g_atomic_int_set (&klass->dispatch, newer);
  g_atomic_pointer_set (&klass->dispatch_class, klass);
  return newer;
}

/* A class with one of the vfuncs runs it. With both, the one a subclass
 * set last wins (a Python subclass of Linear whose forward takes two
 * inputs); when the same class set both, a call with one tensor that
 * wants one tensor back runs forward, anything else forward_args. */
static ForwardImpl
choose_forward (GnnModuleClass *klass,
                gboolean        one_tensor_call)
{
  if (G_LIKELY (klass->forward_args == NULL))
    return klass->forward != NULL ? IMPL_TENSOR : IMPL_NONE;
  if (klass->forward == NULL)
    return IMPL_ARGS;
  switch (newer_forward (klass))
    {
    case NEWER_TENSOR: return IMPL_TENSOR;
    case NEWER_ARGS: return IMPL_ARGS;
    default: return one_tensor_call ? IMPL_TENSOR : IMPL_ARGS;
    }
}

/* torch's "Linear.forward() takes 2 positional arguments but 3 were
 * given" for a one-tensor forward called with other arguments; a single
 * tensor by keyword (`input=x`) is accepted, as Python accepts it. */
static GnnTensor *
bind_one_tensor (GnnModule     *self,
                 GnnCallInput  *in,
                 GError       **error)
{
  g_autofree char *function = NULL;
  GnnTensor *tensor = gnn_call_input_tensor (in);

  if (tensor != NULL)
    return tensor;
  function = g_strdup_printf ("%s.forward", gnn_module_get_name (self));
  if (!gnn_args_parse (gnn_call_input_args (in), in->kwargs, function, error,
                       "input", GNN_ARG_TENSOR, &tensor, NULL))
    return NULL;
  return tensor;
}

gboolean
gnn_module_run_forward (GnnModule       *self,
                        GnnModuleClass  *klass,
                        GnnCallInput    *in,
                        gboolean         want_tensor,
                        GnnCallOutput   *out,
                        GError         **error)
{
  GError *local_error = NULL;
  ForwardImpl impl = choose_forward (klass, want_tensor && gnn_call_input_tensor (in) != NULL);

  if (impl == IMPL_NONE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "Module [%s] is missing the required \"forward\" function",
                   gnn_module_get_name (self));
      return FALSE;
    }
  /* Meta parameters would reach kernels through forward fast paths: refuse
   * them here (free while no meta storage exists). */
  if (G_UNLIKELY (g_atomic_int_get (&gnn_storage_meta_live) > 0) &&
      !gnn_module_check_storage (self, in->tensor, in->args, in->kwargs, error))
    return FALSE;
  if (impl == IMPL_TENSOR)
    {
      GnnTensor *input = bind_one_tensor (self, in, error);

      if (input == NULL)
        return FALSE;
      out->tensor = klass->forward (self, input, &local_error);
    }
  else
    out->value = klass->forward_args (self, gnn_call_input_args (in), in->kwargs, &local_error);
  if (local_error != NULL)
    {
      gnn_call_output_clear (out);
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (!gnn_call_output_is_set (out))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "forward of %s returned no output and no error", gnn_module_get_name (self));
      return FALSE;
    }
  return TRUE;
}

/* The one-tensor fast path, taken when @klass runs forward on one tensor
 * (every built-in layer taking one tensor) and no meta tensor exists: no
 * tuple, no extra reference. Returns FALSE when it does not apply. */
static inline gboolean
forward_tensor_fast (GnnModule      *self,
                     GnnModuleClass *klass,
                     GnnTensor      *input,
                     gboolean        want_tensor,
                     GnnTensor     **output,
                     GError        **error)
{
  GError *local_error = NULL;

  if (G_UNLIKELY (choose_forward (klass, want_tensor) != IMPL_TENSOR ||
                  g_atomic_int_get (&gnn_storage_meta_live) > 0))
    return FALSE;
  *output = klass->forward (self, input, &local_error);
  if (local_error != NULL)
    {
      g_clear_object (output);
      g_propagate_error (error, local_error);
    }
  else if (*output == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "forward of %s returned no output and no error", gnn_module_get_name (self));
  return TRUE;
}

/**
 * gnn_module_forward: (virtual forward)
 * @self: a module
 * @input: the input
 * @error: return location for a #GError
 *
 * Runs the module's computation on one tensor without hooks. Subclasses
 * implement it (in Python `do_forward`, in GJS `vfunc_forward`), or
 * [vfunc@Gnn.Module.forward_args]: then this calls that with the 1-tuple
 * `(input,)` and fails with %GNN_ERROR_TYPE if the output is not one
 * tensor. Callers normally use [method@Gnn.Module.call].
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
/* gnn_module_forward off its fast path, out of line so that the fast path
 * keeps a small frame. */
static G_GNUC_NO_INLINE GnnTensor *
forward_tensor_slow (GnnModule      *self,
                     GnnModuleClass *klass,
                     GnnTensor      *input,
                     GError        **error)
{
  GnnTensor *output = NULL;
  GnnCallInput in;
  GnnCallOutput out = { NULL, NULL };

  gnn_call_input_init_tensor (&in, input);
  if (gnn_module_run_forward (self, klass, &in, TRUE, &out, error))
    output = output_finish_tensor (self, &out, error);
  gnn_call_input_clear (&in);
  return output;
}

GnnTensor *
gnn_module_forward (GnnModule  *self,
                    GnnTensor  *input,
                    GError    **error)
{
  GnnModuleClass *klass;
  GnnTensor *output;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  klass = GNN_MODULE_GET_CLASS (self);
  gnn_module_use_begin ();   /* see enter_call() */
  if (!forward_tensor_fast (self, klass, input, TRUE, &output, error))
    output = forward_tensor_slow (self, klass, input, error);
  gnn_module_use_end ();
  return output;
}

/* Argument checks shared by the general entry points. */
static gboolean
check_args (GnnValue  *args,
            GnnValue  *kwargs,
            GError   **error)
{
  if (gnn_value_get_kind (args) != GNN_VALUE_TUPLE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "the positional arguments of a module call must be a tuple, not %s",
                   gnn_value_get_type_name (args));
      return FALSE;
    }
  if (kwargs != NULL && gnn_value_get_kind (kwargs) != GNN_VALUE_DICT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "the keyword arguments of a module call must be a dict, not %s",
                   gnn_value_get_type_name (kwargs));
      return FALSE;
    }
  return TRUE;
}

static GnnValue *
forward_args_with_class (GnnModule       *self,
                         GnnModuleClass  *klass,
                         GnnValue        *args,
                         GnnValue        *kwargs,
                         GError         **error)
{
  GnnCallInput in;
  GnnCallOutput out = { NULL, NULL };
  GnnValue *output = NULL;

  if (!check_args (args, kwargs, error))
    return NULL;
  gnn_call_input_init_args (&in, args, kwargs);
  gnn_module_use_begin ();   /* see enter_call() */
  if (gnn_module_run_forward (self, klass, &in, FALSE, &out, error))
    output = output_finish_value (&out);
  gnn_module_use_end ();
  gnn_call_input_clear (&in);
  return output;
}

/**
 * gnn_module_forward_args: (virtual forward_args)
 * @self: a module
 * @args: the positional arguments, a tuple
 * @kwargs: (nullable): the keyword arguments, a dict, or %NULL
 * @error: return location for a #GError
 *
 * Runs the module's computation on any arguments without hooks, PyTorch's
 * `module.forward(*args, **kwargs)`. Subclasses whose forward takes more
 * than one tensor, keywords or numbers, or returns anything but one tensor,
 * implement it (in Python a `forward(self, *args, **kwargs)` method, in
 * GJS `vfunc_forward_args`), reading their arguments with
 * [func@Gnn.args_parse]. A class with only [vfunc@Gnn.Module.forward] is
 * run with the one tensor of @args (errors worded as Python's:
 * "Linear.forward() takes 2 positional arguments but 3 were given").
 * Callers normally use [method@Gnn.Module.call_args].
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnValue *
gnn_module_forward_args (GnnModule  *self,
                         GnnValue   *args,
                         GnnValue   *kwargs,
                         GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (args != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return forward_args_with_class (self, GNN_MODULE_GET_CLASS (self), args, kwargs, error);
}

/**
 * gnn_module_forward_args_as:
 * @self: a module
 * @type: @self's type or one of its ancestors, derived from
 *   [class@Gnn.Module]
 * @args: the positional arguments, a tuple
 * @kwargs: (nullable): the keyword arguments, a dict, or %NULL
 * @error: return location for a #GError
 *
 * Runs the forward that @type implements on @self, without hooks: how a
 * subclass's forward chains up to its parent's (Python's
 * `super().forward(x)` in a subclass of [class@Gnn.Linear]), whichever of
 * [vfunc@Gnn.Module.forward] and [vfunc@Gnn.Module.forward_args] the
 * parent has.
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnValue *
gnn_module_forward_args_as (GnnModule  *self,
                            GType       type,
                            GnnValue   *args,
                            GnnValue   *kwargs,
                            GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (g_type_is_a (type, GNN_TYPE_MODULE), NULL);
  g_return_val_if_fail (g_type_is_a (G_OBJECT_TYPE (self), type), NULL);
  g_return_val_if_fail (args != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return forward_args_with_class (self, g_type_class_peek (type), args, kwargs, error);
}

/* --- calls -------------------------------------------------------------- */

/**
 * gnn_module_has_forward_hooks:
 * @self: a module
 *
 * Whether a call of @self would run hooks: forward pre-hooks or forward
 * hooks of its own, or global ones.
 *
 * Returns: %TRUE if a call of @self runs hooks
 *
 * Since: 0.1
 */
gboolean
gnn_module_has_forward_hooks (GnnModule *self)
{
  GnnModulePrivate *priv;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  priv = gnn_module_priv (self);
  return priv->pre_hooks != NULL || priv->hooks != NULL ||
         g_atomic_int_get (&gnn_module_n_global_hooks) > 0;
}

static gboolean
enter_call (GnnModule  *self,
            GError    **error)
{
  if (G_UNLIKELY (call_depth >= GNN_MODULE_MAX_CALL_DEPTH))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "maximum recursion depth exceeded while calling %s (more than %d nested "
                   "module calls)", gnn_module_get_name (self), GNN_MODULE_MAX_CALL_DEPTH);
      return FALSE;
    }
  call_depth++;
  /* A use window: the children and tensors forward and the hooks borrow
   * stay alive while another thread changes the registry
   * (gnn-module-registry.c). */
  gnn_module_use_begin ();
  return TRUE;
}

static inline void
leave_call (void)
{
  gnn_module_use_end ();
  call_depth--;
}

/* Any call: the hooks if there are any, else forward. Consumes @in. */
static gboolean
call_any (GnnModule      *self,
          GnnCallInput   *in,
          gboolean        want_tensor,
          GnnCallOutput  *out,
          GError        **error)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  gboolean ok;

  if (!enter_call (self, error))
    {
      gnn_call_input_clear (in);
      return FALSE;
    }
  if (priv->pre_hooks == NULL && priv->hooks == NULL &&
      g_atomic_int_get (&gnn_module_n_global_hooks) == 0)
    ok = gnn_module_run_forward (self, GNN_MODULE_GET_CLASS (self), in, want_tensor, out, error);
  else
    ok = gnn_module_call_with_hooks (self, priv, in, want_tensor, out, error);
  leave_call ();
  gnn_call_input_clear (in);
  return ok;
}

/* gnn_module_call with hooks, out of line (see forward_tensor_slow). */
static G_GNUC_NO_INLINE GnnTensor *
call_tensor_with_hooks (GnnModule        *self,
                        GnnModulePrivate *priv,
                        GnnTensor        *input,
                        GError          **error)
{
  GnnCallInput in;
  GnnCallOutput out = { NULL, NULL };
  gboolean ok;

  gnn_call_input_init_tensor (&in, input);
  ok = gnn_module_call_with_hooks (self, priv, &in, TRUE, &out, error);
  gnn_call_input_clear (&in);
  return ok ? output_finish_tensor (self, &out, error) : NULL;
}

/**
 * gnn_module_call:
 * @self: a module
 * @input: the input
 * @error: return location for a #GError
 *
 * Calls the module with one tensor, like PyTorch's `module(input)`: global
 * forward pre-hooks, the module's pre-hooks (each may replace the input),
 * [method@Gnn.Module.forward], global forward hooks, the module's forward
 * hooks (each may replace the output). When any step fails, the hooks
 * registered with %GNN_HOOK_FLAGS_ALWAYS_CALL that have not run yet still
 * run (with the output so far, possibly %NULL), and the caller gets the
 * first error. With no hooks registered this calls forward directly.
 *
 * This is the one-tensor form of [method@Gnn.Module.call_args] and runs
 * the same path; an output that is not one tensor (a module with
 * [vfunc@Gnn.Module.forward_args] returning a tuple) fails with
 * %GNN_ERROR_TYPE.
 *
 * Calls nest (a container calls its children): more than
 * %GNN_MODULE_MAX_CALL_DEPTH nested calls on one thread fail with
 * %GNN_ERROR_NOT_SUPPORTED ("maximum recursion depth exceeded"), as Python's
 * recursion limit stops PyTorch, instead of overflowing the C stack.
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_module_call (GnnModule  *self,
                 GnnTensor  *input,
                 GError    **error)
{
  GnnModulePrivate *priv;
  GnnTensor *output;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  priv = gnn_module_priv (self);

  if (!enter_call (self, error))
    return NULL;
  if (G_LIKELY (priv->pre_hooks == NULL && priv->hooks == NULL &&
                g_atomic_int_get (&gnn_module_n_global_hooks) == 0))
    output = gnn_module_forward (self, input, error);
  else
    output = call_tensor_with_hooks (self, priv, input, error);
  leave_call ();
  return output;
}

/**
 * gnn_module_call_args:
 * @self: a module
 * @args: the positional arguments, a tuple
 * @kwargs: (nullable): the keyword arguments, a dict, or %NULL
 * @error: return location for a #GError
 *
 * Calls the module with any arguments, PyTorch's
 * `module(*args, **kwargs)`, returning any value: an LSTM's
 * `(output, (h_n, c_n))`, MultiheadAttention's `(output, None)`. The path
 * is that of [method@Gnn.Module.call]: global and module pre-hooks (hooks
 * registered with [method@Gnn.Module.register_forward_pre_hook_args] see
 * @args and may replace them), forward, global and module forward hooks
 * (which see the arguments and the output and may replace the output),
 * always-call hooks on failure, the nesting limit. A one-tensor hook
 * ([method@Gnn.Module.register_forward_pre_hook]) works on calls whose
 * @args is one tensor and fails with %GNN_ERROR_TYPE on others.
 *
 * Which forward runs: a class with only [vfunc@Gnn.Module.forward] gets the
 * one tensor of @args (anything else fails with Python's TypeError words,
 * "Linear.forward() takes 2 positional arguments but 3 were given"), and
 * its output comes back as a %GNN_VALUE_TENSOR value; a class with only
 * [vfunc@Gnn.Module.forward_args] gets @args and @kwargs. A class with
 * both runs the one its most derived class set (a subclass overriding one
 * of them overrides the call), and if one class set both, this runs
 * forward_args while [method@Gnn.Module.call] runs forward.
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnValue *
gnn_module_call_args (GnnModule  *self,
                      GnnValue   *args,
                      GnnValue   *kwargs,
                      GError    **error)
{
  GnnCallInput in;
  GnnCallOutput out = { NULL, NULL };

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (args != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_args (args, kwargs, error))
    return NULL;
  gnn_call_input_init_args (&in, args, kwargs);
  if (!call_any (self, &in, FALSE, &out, error))
    return NULL;
  return output_finish_value (&out);
}

/**
 * gnn_module_call_one:
 * @self: a module
 * @input: the input
 * @other_output: (out) (transfer full) (optional) (nullable): where the
 *   output goes when it is not one tensor; %NULL when it is. Without it,
 *   such an output fails as in [method@Gnn.Module.call]
 * @error: return location for a #GError
 *
 * Calls the module with one tensor and accepts any output: the
 * `model(x)` of a binding, or a container passing a tensor on, which does
 * not know whether the module returns a tensor (a Linear) or a tuple (an
 * LSTM). Runs the path of [method@Gnn.Module.call_args] with the 1-tuple
 * `(input,)`, allocating no tuple while no hook or forward_args needs one.
 *
 * Returns: (transfer full) (nullable): the output when it is a tensor;
 *   else %NULL, with the output in @other_output, or with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_module_call_one (GnnModule  *self,
                     GnnTensor  *input,
                     GnnValue  **other_output,
                     GError    **error)
{
  GnnModulePrivate *priv;
  GnnCallInput in;
  GnnCallOutput out = { NULL, NULL };
  GnnTensor *tensor;
  gboolean fast;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (other_output != NULL)
    *other_output = NULL;
  priv = gnn_module_priv (self);
  if (G_LIKELY (priv->pre_hooks == NULL && priv->hooks == NULL &&
                g_atomic_int_get (&gnn_module_n_global_hooks) == 0))
    {
      /* As gnn_module_call's fast path, for a module running forward. */
      if (!enter_call (self, error))
        return NULL;
      fast = forward_tensor_fast (self, GNN_MODULE_GET_CLASS (self), input, FALSE, &tensor, error);
      leave_call ();
      if (fast)
        return tensor;
    }
  gnn_call_input_init_tensor (&in, input);
  if (!call_any (self, &in, FALSE, &out, error))
    return NULL;
  tensor = output_steal_tensor (&out);
  if (tensor != NULL)
    return tensor;
  if (other_output == NULL)
    return output_finish_tensor (self, &out, error);
  *other_output = output_finish_value (&out);
  return NULL;
}

/**
 * gnn_module_call_tensors:
 * @self: a module
 * @inputs: (array length=n_inputs): the positional arguments, tensors
 * @n_inputs: the number of @inputs (at least 1)
 * @error: return location for a #GError
 *
 * Calls the module with several tensors and returns one tensor: PyTorch's
 * `criterion(input, target)` or `bilinear(x1, x2)`. This is
 * [method@Gnn.Module.call_args] with the tuple of @inputs and no keywords
 * (hooks run, a wrong number of arguments fails with Python's words, "
 * MSELoss.forward() missing 1 required positional argument: 'target'"),
 * and an output that is not one tensor fails with %GNN_ERROR_TYPE as in
 * [method@Gnn.Module.call].
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_module_call_tensors (GnnModule         *self,
                         GnnTensor * const *inputs,
                         guint              n_inputs,
                         GError           **error)
{
  g_autoptr(GnnValue) args = NULL;
  GnnCallInput in;
  GnnCallOutput out = { NULL, NULL };

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (inputs != NULL && n_inputs > 0, NULL);
  for (guint i = 0; i < n_inputs; i++)
    g_return_val_if_fail (GNN_IS_TENSOR (inputs[i]), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  args = gnn_value_new_tensor_tuple (inputs, n_inputs);
  gnn_call_input_init_args (&in, args, NULL);
  if (!call_any (self, &in, FALSE, &out, error))
    return NULL;
  return output_finish_tensor (self, &out, error);
}

/**
 * gnn_module_call2:
 * @self: a module
 * @input: the first argument
 * @other: the second argument (a loss's target)
 * @error: return location for a #GError
 *
 * Calls the module with two tensors, PyTorch's `loss_fn(pred, y)`: see
 * [method@Gnn.Module.call_tensors]. Any loss module
 * ([class@Gnn.CrossEntropyLoss], [class@Gnn.MSELoss], …) is called this
 * way, like any other module; its `_compute` method is the same
 * computation without the call path (no hooks).
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_module_call2 (GnnModule  *self,
                  GnnTensor  *input,
                  GnnTensor  *other,
                  GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (other), NULL);
  return gnn_module_call_tensors (self, (GnnTensor *[]) { input, other }, 2, error);
}
