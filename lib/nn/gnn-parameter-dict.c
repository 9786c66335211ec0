/* gnn-parameter-dict.c: parameters by key (torch.nn.ParameterDict)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-registry-private.h"
#include "nn/gnn-container-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnParameterDict:
 *
 * Parameters by key, like `torch.nn.ParameterDict`: each entry is a
 * parameter registered under its key (insertion order kept), so
 * [method@Gnn.Module.named_parameters] and [method@Gnn.Module.state_dict]
 * see it. Keys follow [method@Gnn.Module.register_parameter]'s rules. A plain
 * [class@Gnn.Tensor] is wrapped into a [class@Gnn.Parameter] sharing its
 * storage, as PyTorch does.
 *
 * Calling the dict fails with %GNN_ERROR_NOT_SUPPORTED ("ParameterDict
 * should not be called.").
 *
 * Since: 0.1
 */
struct _GnnParameterDict
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnParameterDict, gnn_parameter_dict, GNN_TYPE_MODULE)

static GnnTensor *
gnn_parameter_dict_forward (GnnModule  *module,
                            GnnTensor  *input,
                            GError    **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ParameterDict should not be called.");
  return NULL;
}

static char *
gnn_parameter_dict_extra_repr (GnnModule *module)
{
  return gnn_nn_parameter_lines (module, TRUE);
}

static void
gnn_parameter_dict_class_init (GnnParameterDictClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_parameter_dict_forward;
  module_class->extra_repr = gnn_parameter_dict_extra_repr;
}

static void
gnn_parameter_dict_init (GnnParameterDict *self)
{
}

/**
 * gnn_parameter_dict_new:
 *
 * Creates an empty parameter dict, like `torch.nn.ParameterDict()`; add
 * entries with [method@Gnn.ParameterDict.set].
 *
 * Returns: (transfer full): a new parameter dict
 *
 * Since: 0.1
 */
GnnParameterDict *
gnn_parameter_dict_new (void)
{
  return g_object_new (GNN_TYPE_PARAMETER_DICT, NULL);
}

/**
 * gnn_parameter_dict_get_length:
 * @self: a parameter dict
 *
 * Returns the number of entries, like `len(parameter_dict)`.
 *
 * Returns: the number of entries
 *
 * Since: 0.1
 */
guint
gnn_parameter_dict_get_length (GnnParameterDict *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), 0);

  return gnn_container_get_length (GNN_MODULE (self), GNN_MAP_PARAMETERS);
}

/**
 * gnn_parameter_dict_get_keys:
 * @self: a parameter dict
 *
 * Returns the keys in insertion order, like `parameter_dict.keys()`.
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys
 *
 * Since: 0.1
 */
char **
gnn_parameter_dict_get_keys (GnnParameterDict *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), NULL);

  return gnn_container_get_keys (GNN_MODULE (self), GNN_MAP_PARAMETERS);
}

/**
 * gnn_parameter_dict_contains:
 * @self: a parameter dict
 * @key: a key
 *
 * Tells whether @key is in the dict, like `key in parameter_dict`.
 *
 * Returns: %TRUE if @key is an entry
 *
 * Since: 0.1
 */
gboolean
gnn_parameter_dict_contains (GnnParameterDict *self,
                             const char       *key)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  return gnn_container_entry_for (GNN_MODULE (self), GNN_MAP_PARAMETERS, key, NULL) != NULL;
}

/**
 * gnn_parameter_dict_get:
 * @self: a parameter dict
 * @key: a key
 * @error: return location for a #GError
 *
 * Returns the parameter under @key, like `parameter_dict[key]`.
 *
 * Returns: (transfer none) (nullable): the parameter, or %NULL with @error
 *   set (%GNN_ERROR_KEY, "'x' is not a key of GnnParameterDict")
 *
 * Since: 0.1
 */
GnnParameter *
gnn_parameter_dict_get (GnnParameterDict *self,
                        const char       *key,
                        GError          **error)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return (GnnParameter *) gnn_container_get_for (GNN_MODULE (self), GNN_MAP_PARAMETERS, key, error);
}

/**
 * gnn_parameter_dict_set:
 * @self: a parameter dict
 * @key: the key
 * @value: a tensor or parameter (a plain tensor is wrapped into a parameter)
 * @error: return location for a #GError
 *
 * Adds @value under @key, or replaces the parameter already there (keeping
 * its position), like `parameter_dict[key] = value`.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_NAME: "parameter
 *   name can't contain ".""; "parameter name can't be empty string """)
 *
 * Since: 0.1
 */
gboolean
gnn_parameter_dict_set (GnnParameterDict *self,
                        const char       *key,
                        GnnTensor        *value,
                        GError          **error)
{
  g_autoptr(GnnParameter) parameter = NULL;

  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (value), FALSE);

  parameter = gnn_nn_as_parameter (value);
  return gnn_module_register_parameter (GNN_MODULE (self), key, parameter, error);
}

/**
 * gnn_parameter_dict_pop:
 * @self: a parameter dict
 * @key: the key
 * @error: return location for a #GError
 *
 * Removes the entry @key and returns its parameter, like
 * `parameter_dict.pop(key)`.
 *
 * Returns: (transfer full) (nullable): the parameter, or %NULL with @error
 *   set (%GNN_ERROR_KEY) if @key is not in the dict
 *
 * Since: 0.1
 */
GnnParameter *
gnn_parameter_dict_pop (GnnParameterDict *self,
                        const char       *key,
                        GError          **error)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return (GnnParameter *) gnn_container_pop_key (GNN_MODULE (self), GNN_MAP_PARAMETERS, key, error);
}

/**
 * gnn_parameter_dict_clear:
 * @self: a parameter dict
 *
 * Removes every entry, like `parameter_dict.clear()`.
 *
 * Since: 0.1
 */
void
gnn_parameter_dict_clear (GnnParameterDict *self)
{
  g_return_if_fail (GNN_IS_PARAMETER_DICT (self));

  gnn_container_clear (GNN_MODULE (self), GNN_MAP_PARAMETERS);
}
