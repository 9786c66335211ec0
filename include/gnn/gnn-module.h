/* gnn-module.h: the module object model (registry, traversal, call, state)
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
#include <gnn/gnn-parameter.h>
#include <gnn/gnn-hook-handle.h>
#include <gnn/gnn-state-dict.h>
#include <gnn/gnn-value.h>

G_BEGIN_DECLS

/**
 * GnnLoadStateFlags:
 * @GNN_LOAD_STATE_NONE: copy, and report missing and unexpected keys only
 *   through the out arguments
 * @GNN_LOAD_STATE_STRICT: missing and unexpected keys are errors
 * @GNN_LOAD_STATE_ASSIGN: make the tensors of the state dict the module's
 *   parameters and buffers instead of copying their values (PyTorch 2.x's
 *   `assign=True`)
 *
 * How [method@Gnn.Module.load_state_dict_with_flags] loads.
 *
 * Since: 0.1
 */
typedef enum /*< flags >*/ {
  GNN_LOAD_STATE_NONE = 0,
  GNN_LOAD_STATE_STRICT = 1 << 0,
  GNN_LOAD_STATE_ASSIGN = 1 << 1,
} GnnLoadStateFlags;

/**
 * GnnChildKind:
 * @GNN_CHILD_PARAMETER: parameters (PyTorch's `_parameters`)
 * @GNN_CHILD_BUFFER: buffers, persistent or not (`_buffers`)
 * @GNN_CHILD_MODULE: child modules (`_modules`)
 *
 * The three registries of a module, for
 * [method@Gnn.Module.get_registered_names].
 *
 * Since: 0.1
 */
typedef enum {
  GNN_CHILD_PARAMETER,
  GNN_CHILD_BUFFER,
  GNN_CHILD_MODULE,
} GnnChildKind;

#define GNN_TYPE_MODULE (gnn_module_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnModule, gnn_module, GNN, MODULE, GObject)

/**
 * GnnModuleClass:
 * @parent_class: the parent class
 * @forward: computes the output of the module for @input; see
 *   [method@Gnn.Module.forward]
 * @extra_repr: returns the text between the parentheses of
 *   [method@Gnn.Module.to_string] (PyTorch's `extra_repr`), or %NULL
 * @reset_parameters: re-initializes the module's own parameters and buffers
 *   (PyTorch's per-layer `reset_parameters`); see
 *   [method@Gnn.Module.reset_parameters]
 * @forward_args: computes the output of the module for any arguments (a
 *   tuple of positional arguments and a dict of keyword arguments, or
 *   %NULL) and returns any value; see [method@Gnn.Module.forward_args]
 *
 * The class of [class@Gnn.Module]. Subclasses implement @forward (one
 * tensor in, one tensor out: the fast path) or @forward_args (torch's
 * `forward(self, *args, **kwargs)`), or both when the two agree on a call
 * with one tensor. Every call reaches whichever the class has: see
 * [method@Gnn.Module.call_args] for which one runs.
 *
 * Since: 0.1
 */
struct _GnnModuleClass
{
  GObjectClass parent_class;

  GnnTensor *(*forward)    (GnnModule  *self,
                            GnnTensor  *input,
                            GError    **error);
  char      *(*extra_repr) (GnnModule  *self);
  gboolean   (*reset_parameters) (GnnModule  *self,
                                  GError    **error);
  GnnValue  *(*forward_args) (GnnModule  *self,
                              GnnValue   *args,
                              GnnValue   *kwargs,
                              GError    **error);

  /*< private >*/
  gpointer   dispatch_class;   /* the class dispatch was worked out for */
  gint       dispatch;         /* which of forward / forward_args is newer */
  gpointer   padding[4];
};

/**
 * GnnForwardPreHookFunc:
 * @module: the module being called
 * @input: the input forward is about to receive
 * @user_data: the data given at registration
 * @error: return location for a #GError
 *
 * A forward pre-hook, PyTorch's `hook(module, input)`.
 *
 * Returns: (transfer full) (nullable): a replacement input, or %NULL to keep
 *   @input (or %NULL with @error set to fail the call)
 *
 * Since: 0.1
 */
typedef GnnTensor *(*GnnForwardPreHookFunc) (GnnModule  *module,
                                             GnnTensor  *input,
                                             gpointer    user_data,
                                             GError    **error);

/**
 * GnnForwardHookFunc:
 * @module: the module being called
 * @input: the input forward received
 * @output: (nullable): the output of forward, or %NULL when forward failed
 *   (only hooks registered with %GNN_HOOK_FLAGS_ALWAYS_CALL see that)
 * @user_data: the data given at registration
 * @error: return location for a #GError
 *
 * A forward hook, PyTorch's `hook(module, input, output)`.
 *
 * Returns: (transfer full) (nullable): a replacement output, or %NULL to
 *   keep @output (or %NULL with @error set to fail the call)
 *
 * Since: 0.1
 */
typedef GnnTensor *(*GnnForwardHookFunc) (GnnModule  *module,
                                          GnnTensor  *input,
                                          GnnTensor  *output,
                                          gpointer    user_data,
                                          GError    **error);

/**
 * GnnForwardPreHookArgsFunc:
 * @module: the module being called
 * @args: the positional arguments forward is about to receive, a tuple
 * @kwargs: (nullable): its keyword arguments, a dict, or %NULL for none
 * @user_data: the data given at registration
 * @error: return location for a #GError
 *
 * A forward pre-hook that sees every call shape, PyTorch's
 * `hook(module, args)` (`hook(module, args, kwargs)` with
 * %GNN_HOOK_FLAGS_WITH_KWARGS).
 *
 * Returns: (transfer full) (nullable): %NULL to keep the arguments (or
 *   %NULL with @error set to fail the call); else the new positional
 *   arguments: a tuple, or any other value, which becomes a 1-tuple (as in
 *   PyTorch 1.13). With %GNN_HOOK_FLAGS_WITH_KWARGS, a 2-tuple
 *   `(new_args, new_kwargs)`.
 *
 * Since: 0.1
 */
typedef GnnValue *(*GnnForwardPreHookArgsFunc) (GnnModule  *module,
                                                GnnValue   *args,
                                                GnnValue   *kwargs,
                                                gpointer    user_data,
                                                GError    **error);

/**
 * GnnForwardHookArgsFunc:
 * @module: the module being called
 * @args: the positional arguments forward received, a tuple
 * @kwargs: (nullable): its keyword arguments, a dict, or %NULL for none
 * @output: (nullable): the output of forward, or %NULL when the call
 *   failed (only hooks registered with %GNN_HOOK_FLAGS_ALWAYS_CALL see that)
 * @user_data: the data given at registration
 * @error: return location for a #GError
 *
 * A forward hook that sees every call shape, PyTorch's
 * `hook(module, args, output)`.
 *
 * Returns: (transfer full) (nullable): a replacement output, or %NULL to
 *   keep @output (or %NULL with @error set to fail the call)
 *
 * Since: 0.1
 */
typedef GnnValue *(*GnnForwardHookArgsFunc) (GnnModule  *module,
                                             GnnValue   *args,
                                             GnnValue   *kwargs,
                                             GnnValue   *output,
                                             gpointer    user_data,
                                             GError    **error);

/**
 * GnnModuleApplyFunc:
 * @module: a module of the tree
 * @user_data: the data given to [method@Gnn.Module.apply]
 *
 * The function [method@Gnn.Module.apply] calls on every module.
 *
 * Since: 0.1
 */
typedef void (*GnnModuleApplyFunc) (GnnModule *module,
                                    gpointer   user_data);

/* --- registry ------------------------------------------------------------ */

GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_register_module    (GnnModule    *self,
                                              const char   *name,
                                              GnnModule    *module,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_register_parameter (GnnModule    *self,
                                              const char   *name,
                                              GnnParameter *parameter,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_register_buffer    (GnnModule    *self,
                                              const char   *name,
                                              GnnTensor    *tensor,
                                              gboolean      persistent,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_set_child          (GnnModule    *self,
                                              const char   *name,
                                              GObject      *value,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GObject       *gnn_module_get_child          (GnnModule    *self,
                                              const char   *name,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GObject       *gnn_module_get_child_of_type  (GnnModule    *self,
                                              const char   *name,
                                              GType         type,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
char         **gnn_module_get_registered_names (GnnModule   *self,
                                              GnnChildKind  kind);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_has_child          (GnnModule    *self,
                                              const char   *name);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_set_tensor_attribute (GnnModule  *self,
                                                const char *name,
                                                GnnTensor  *value,
                                                GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_module_get_tensor_attribute (GnnModule  *self,
                                                const char *name);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_delete_child       (GnnModule    *self,
                                              const char   *name,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_get_submodule      (GnnModule    *self,
                                              const char   *path,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnParameter  *gnn_module_get_parameter      (GnnModule    *self,
                                              const char   *path,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_module_get_buffer         (GnnModule    *self,
                                              const char   *path,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_is_buffer_persistent (GnnModule  *self,
                                              const char   *name);
GNN_AVAILABLE_IN_ALL
const char    *gnn_module_get_name           (GnnModule    *self);

GNN_AVAILABLE_IN_ALL
void           gnn_module_class_install_child_slot (GnnModuleClass *klass,
                                                    const char     *name,
                                                    GType           child_type);

/**
 * GNN_MODULE_CHILD:
 * @self: a module (any pointer GNN_MODULE() accepts)
 * @name: the child's name
 * @PREFIX: the child type's prefix in G_DECLARE_*_TYPE's spelling (`GNN`)
 * @OBJ: the child type's name in that spelling (`LINEAR`)
 * @error: return location for a #GError
 *
 * The child @name of @self as a pointer of its type, checked:
 * `GNN_MODULE_CHILD (self, "fc1", GNN, LINEAR, error)` is a `GnnLinear *`,
 * or %NULL with @error set when @name is not registered, is empty or
 * holds another type (see [method@Gnn.Module.get_child_of_type]). The
 * pointer is borrowed, as from [method@Gnn.Module.get_child]. A class
 * wraps it in its own accessors:
 *
 * ```c
 * static GnnLinear *
 * my_net_get_fc1 (MyNet *self, GError **error)
 * {
 *   return GNN_MODULE_CHILD (self, "fc1", GNN, LINEAR, error);
 * }
 * ```
 *
 * Since: 0.1
 */
#define GNN_MODULE_CHILD(self, name, PREFIX, OBJ, error)                        \
  (PREFIX##_##OBJ (gnn_module_get_child_of_type (GNN_MODULE (self), (name),    \
                                                 PREFIX##_TYPE_##OBJ, (error))))

/* --- traversal ----------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GPtrArray     *gnn_module_named_children     (GnnModule    *self,
                                              char       ***names);
GNN_AVAILABLE_IN_ALL
GPtrArray     *gnn_module_named_modules      (GnnModule    *self,
                                              const char   *prefix,
                                              char       ***names);
GNN_AVAILABLE_IN_ALL
GPtrArray     *gnn_module_named_parameters   (GnnModule    *self,
                                              const char   *prefix,
                                              gboolean      recurse,
                                              char       ***names);
GNN_AVAILABLE_IN_ALL
GPtrArray     *gnn_module_named_buffers      (GnnModule    *self,
                                              const char   *prefix,
                                              gboolean      recurse,
                                              char       ***names);
GNN_AVAILABLE_IN_ALL
gint64         gnn_module_count_parameters   (GnnModule    *self,
                                              gboolean      trainable_only);
GNN_AVAILABLE_IN_ALL
void           gnn_module_apply              (GnnModule         *self,
                                              GnnModuleApplyFunc func,
                                              gpointer           user_data);
GNN_AVAILABLE_IN_ALL
void           gnn_module_train              (GnnModule    *self,
                                              gboolean      mode);
GNN_AVAILABLE_IN_ALL
void           gnn_module_eval               (GnnModule    *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_get_training       (GnnModule    *self);
GNN_AVAILABLE_IN_ALL
void           gnn_module_requires_grad_     (GnnModule    *self,
                                              gboolean      requires_grad);
GNN_AVAILABLE_IN_ALL
void           gnn_module_zero_grad          (GnnModule    *self,
                                              gboolean      set_to_none);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_load_state_dict_with_flags (GnnModule         *self,
                                                      GnnStateDict      *state_dict,
                                                      GnnLoadStateFlags  flags,
                                                      char            ***missing_keys,
                                                      char            ***unexpected_keys,
                                                      GError           **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_to_empty           (GnnModule    *self,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_reset_parameters   (GnnModule    *self,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_to_dtype           (GnnModule    *self,
                                              GnnDType      dtype,
                                              GError      **error);

/* --- call and hooks ------------------------------------------------------ */

/**
 * GNN_MODULE_MAX_CALL_DEPTH:
 *
 * The most [method@Gnn.Module.call]s that may nest on one thread (a
 * container calling its children, and so on); one more fails with
 * %GNN_ERROR_NOT_SUPPORTED, "maximum recursion depth exceeded", like
 * PyTorch's `RecursionError`. It keeps the C stack (a few hundred bytes per
 * level) far from its end even on small thread stacks.
 *
 * Since: 0.1
 */
#define GNN_MODULE_MAX_CALL_DEPTH 2048

GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_module_forward            (GnnModule    *self,
                                              GnnTensor    *input,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_module_call               (GnnModule    *self,
                                              GnnTensor    *input,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnValue      *gnn_module_forward_args       (GnnModule    *self,
                                              GnnValue     *args,
                                              GnnValue     *kwargs,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnValue      *gnn_module_forward_args_as    (GnnModule    *self,
                                              GType         type,
                                              GnnValue     *args,
                                              GnnValue     *kwargs,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnValue      *gnn_module_call_args          (GnnModule    *self,
                                              GnnValue     *args,
                                              GnnValue     *kwargs,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_module_call_one           (GnnModule    *self,
                                              GnnTensor    *input,
                                              GnnValue    **other_output,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_module_call_tensors       (GnnModule         *self,
                                              GnnTensor * const *inputs,
                                              guint              n_inputs,
                                              GError           **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_module_call2              (GnnModule    *self,
                                              GnnTensor    *input,
                                              GnnTensor    *other,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_has_forward_hooks  (GnnModule    *self);
GNN_AVAILABLE_IN_ALL
GnnHookHandle *gnn_module_register_forward_pre_hook (GnnModule            *self,
                                                     GnnForwardPreHookFunc func,
                                                     gpointer              user_data,
                                                     GDestroyNotify        destroy,
                                                     GnnHookFlags          flags);
GNN_AVAILABLE_IN_ALL
GnnHookHandle *gnn_module_register_forward_hook     (GnnModule            *self,
                                                     GnnForwardHookFunc    func,
                                                     gpointer              user_data,
                                                     GDestroyNotify        destroy,
                                                     GnnHookFlags          flags);
GNN_AVAILABLE_IN_ALL
GnnHookHandle *gnn_module_register_global_forward_pre_hook (GnnForwardPreHookFunc func,
                                                            gpointer              user_data,
                                                            GDestroyNotify        destroy,
                                                            GnnHookFlags          flags);
GNN_AVAILABLE_IN_ALL
GnnHookHandle *gnn_module_register_global_forward_hook     (GnnForwardHookFunc    func,
                                                            gpointer              user_data,
                                                            GDestroyNotify        destroy,
                                                            GnnHookFlags          flags);
GNN_AVAILABLE_IN_ALL
GnnHookHandle *gnn_module_register_forward_pre_hook_args (GnnModule                *self,
                                                          GnnForwardPreHookArgsFunc func,
                                                          gpointer                  user_data,
                                                          GDestroyNotify            destroy,
                                                          GnnHookFlags              flags);
GNN_AVAILABLE_IN_ALL
GnnHookHandle *gnn_module_register_forward_hook_args     (GnnModule                *self,
                                                          GnnForwardHookArgsFunc    func,
                                                          gpointer                  user_data,
                                                          GDestroyNotify            destroy,
                                                          GnnHookFlags              flags);
GNN_AVAILABLE_IN_ALL
GnnHookHandle *gnn_module_register_global_forward_pre_hook_args (GnnForwardPreHookArgsFunc func,
                                                                 gpointer                  user_data,
                                                                 GDestroyNotify            destroy,
                                                                 GnnHookFlags              flags);
GNN_AVAILABLE_IN_ALL
GnnHookHandle *gnn_module_register_global_forward_hook_args     (GnnForwardHookArgsFunc    func,
                                                                 gpointer                  user_data,
                                                                 GDestroyNotify            destroy,
                                                                 GnnHookFlags              flags);

/* --- state --------------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_module_state_dict         (GnnModule    *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_load_state_dict    (GnnModule    *self,
                                              GnnStateDict *state_dict,
                                              gboolean      strict,
                                              char       ***missing_keys,
                                              char       ***unexpected_keys,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
char          *gnn_module_extra_repr         (GnnModule    *self);
GNN_AVAILABLE_IN_ALL
char          *gnn_module_to_string          (GnnModule    *self);

G_END_DECLS
