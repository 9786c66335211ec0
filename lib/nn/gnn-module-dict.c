/* gnn-module-dict.c: modules by key (torch.nn.ModuleDict)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-registry-private.h"
#include "nn/gnn-container-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnModuleDict:
 *
 * Modules by key, like `torch.nn.ModuleDict`: each entry is a child module
 * registered under its key, so every traversal, state dict and
 * [method@Gnn.Module.to_string] sees it. Keys keep their insertion order and
 * follow [method@Gnn.Module.register_module]'s rules (no dot, not empty, not
 * the name of a parameter or buffer).
 *
 * A module dict has no forward: calling it fails with
 * %GNN_ERROR_NOT_SUPPORTED, as in PyTorch.
 *
 * Since: 0.1
 */

G_DEFINE_TYPE (GnnModuleDict, gnn_module_dict, GNN_TYPE_MODULE)

static void
gnn_module_dict_class_init (GnnModuleDictClass *klass)
{
}

static void
gnn_module_dict_init (GnnModuleDict *self)
{
}

/**
 * gnn_module_dict_new:
 *
 * Creates an empty module dict, like `torch.nn.ModuleDict()`; add entries
 * with [method@Gnn.ModuleDict.set].
 *
 * Returns: (transfer full): a new module dict
 *
 * Since: 0.1
 */
GnnModuleDict *
gnn_module_dict_new (void)
{
  return g_object_new (GNN_TYPE_MODULE_DICT, NULL);
}

/**
 * gnn_module_dict_get_length:
 * @self: a module dict
 *
 * Returns the number of entries, like `len(module_dict)`.
 *
 * Returns: the number of entries
 *
 * Since: 0.1
 */
guint
gnn_module_dict_get_length (GnnModuleDict *self)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), 0);

  return gnn_container_get_length (GNN_MODULE (self), GNN_MAP_MODULES);
}

/**
 * gnn_module_dict_get_keys:
 * @self: a module dict
 *
 * Returns the keys in insertion order, like `module_dict.keys()`.
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys
 *
 * Since: 0.1
 */
char **
gnn_module_dict_get_keys (GnnModuleDict *self)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), NULL);

  return gnn_container_get_keys (GNN_MODULE (self), GNN_MAP_MODULES);
}

/**
 * gnn_module_dict_contains:
 * @self: a module dict
 * @key: a key
 *
 * Tells whether @key is in the dict, like `key in module_dict`.
 *
 * Returns: %TRUE if @key is an entry
 *
 * Since: 0.1
 */
gboolean
gnn_module_dict_contains (GnnModuleDict *self,
                          const char    *key)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  return gnn_container_entry_for (GNN_MODULE (self), GNN_MAP_MODULES, key, NULL) != NULL;
}

/**
 * gnn_module_dict_get:
 * @self: a module dict
 * @key: a key
 * @error: return location for a #GError
 *
 * Returns the module under @key, like `module_dict[key]`.
 *
 * Returns: (transfer none) (nullable): the module, or %NULL with @error set
 *   (%GNN_ERROR_KEY, "'x' is not a key of GnnModuleDict")
 *
 * Since: 0.1
 */
GnnModule *
gnn_module_dict_get (GnnModuleDict *self,
                     const char    *key,
                     GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return (GnnModule *) gnn_container_get_for (GNN_MODULE (self), GNN_MAP_MODULES, key, error);
}

/**
 * gnn_module_dict_set:
 * @self: a module dict
 * @key: the key
 * @module: the module
 * @error: return location for a #GError
 *
 * Adds @module under @key, or replaces the module already there (keeping
 * its position), like `module_dict[key] = module` (PyTorch's `add_module`).
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_NAME: "module name
 *   can't contain ".", got: a.b", "module name can't be empty string """,
 *   "attribute 'x' already exists")
 *
 * Since: 0.1
 */
gboolean
gnn_module_dict_set (GnnModuleDict *self,
                     const char    *key,
                     GnnModule     *module,
                     GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);

  return gnn_module_register_module (GNN_MODULE (self), key, module, error);
}

/**
 * gnn_module_dict_pop:
 * @self: a module dict
 * @key: the key
 * @error: return location for a #GError
 *
 * Removes the entry @key and returns its module, like
 * `module_dict.pop(key)`.
 *
 * Returns: (transfer full) (nullable): the module, or %NULL with @error set
 *   (%GNN_ERROR_KEY) if @key is not in the dict
 *
 * Since: 0.1
 */
GnnModule *
gnn_module_dict_pop (GnnModuleDict *self,
                     const char    *key,
                     GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return (GnnModule *) gnn_container_pop_key (GNN_MODULE (self), GNN_MAP_MODULES, key, error);
}

/**
 * gnn_module_dict_update:
 * @self: a module dict
 * @other: another module dict
 * @error: return location for a #GError
 *
 * Sets every entry of @other in @self, in @other's order, like
 * `module_dict.update(other)`. Stops at the first key that fails.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_module_dict_update (GnnModuleDict *self,
                        GnnModuleDict *other,
                        GError       **error)
{
  g_auto(GStrv) keys = NULL;
  g_autoptr(GPtrArray) values = NULL;

  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE_DICT (other), FALSE);

  /* Snapshot of keys and values: registering may run code (child-added
   * handlers) that changes @other. Every value is checked before the first
   * is registered, so a refused one (a module containing @self) leaves
   * @self unchanged. */
  keys = gnn_container_get_keys (GNN_MODULE (other), GNN_MAP_MODULES);
  values = g_ptr_array_new_with_free_func (gnn_nn_unref_nullable);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnModule *value = (GnnModule *) gnn_container_get_for (GNN_MODULE (other), GNN_MAP_MODULES,
                                                              keys[i], NULL);

      /* a reference before the next registration can release it */
      g_ptr_array_add (values, value != NULL ? g_object_ref (value) : NULL);
      if (!gnn_module_registry_check_no_cycle (GNN_MODULE (self), keys[i], value, error))
        return FALSE;
    }
  for (guint i = 0; keys[i] != NULL; i++)
    if (!gnn_module_register_module (GNN_MODULE (self), keys[i],
                                     g_ptr_array_index (values, i), error))
      return FALSE;
  return TRUE;
}

/**
 * gnn_module_dict_clear:
 * @self: a module dict
 *
 * Removes every entry, like `module_dict.clear()`.
 *
 * Since: 0.1
 */
void
gnn_module_dict_clear (GnnModuleDict *self)
{
  g_return_if_fail (GNN_IS_MODULE_DICT (self));

  gnn_container_clear (GNN_MODULE (self), GNN_MAP_MODULES);
}
