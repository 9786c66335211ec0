/* gnn-module-list.c: a list of modules (torch.nn.ModuleList)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-registry-private.h"
#include "nn/gnn-container-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnModuleList:
 *
 * A list of modules, like `torch.nn.ModuleList`: the children live in the
 * module registry under the keys "0", "1", …, so every traversal, state
 * dict and [method@Gnn.Module.to_string] sees them.
 *
 * A module list has no forward: calling it fails with
 * %GNN_ERROR_NOT_SUPPORTED ("Module [GnnModuleList] is missing the required
 * "forward" function"), as in PyTorch. Indices follow Python: negative ones
 * count from the end, and an index outside the list fails with
 * %GNN_ERROR_INDEX ("index 3 is out of range").
 * [method@Gnn.ModuleList.slice] and [method@Gnn.ModuleList.pop] renumber
 * the children.
 *
 * Since: 0.1
 */

G_DEFINE_TYPE (GnnModuleList, gnn_module_list, GNN_TYPE_MODULE)

static void
gnn_module_list_class_init (GnnModuleListClass *klass)
{
}

static void
gnn_module_list_init (GnnModuleList *self)
{
}

/**
 * gnn_module_list_new:
 * @modules: (array length=n_modules) (nullable): the modules, in order
 * @n_modules: the number of @modules
 *
 * Creates a module list holding @modules under the keys "0", "1",
 * …, like `torch.nn.ModuleList(modules)`. A module may appear several
 * times (its parameters are shared).
 *
 * Returns: (transfer full): a new module list
 *
 * Since: 0.1
 */
GnnModuleList *
gnn_module_list_new (GnnModule **modules,
                    guint       n_modules)
{
  GnnModuleList *self;

  g_return_val_if_fail (modules != NULL || n_modules == 0, NULL);
  for (guint i = 0; i < n_modules; i++)
    g_return_val_if_fail (GNN_IS_MODULE (modules[i]), NULL);

  self = g_object_new (GNN_TYPE_MODULE_LIST, NULL);
  /* A new container is in no tree, so no cycle: this cannot fail. */
  gnn_container_extend_modules (GNN_MODULE (self), modules, n_modules, NULL);
  return self;
}

/**
 * gnn_module_list_get_length:
 * @self: a module list
 *
 * Returns the number of children, like `len(module_list)`.
 *
 * Returns: the number of child modules
 *
 * Since: 0.1
 */
guint
gnn_module_list_get_length (GnnModuleList *self)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), 0);

  return gnn_container_get_length (GNN_MODULE (self), GNN_MAP_MODULES);
}

/**
 * gnn_module_list_get:
 * @self: a module list
 * @index: the position; negative values count from the end
 * @error: return location for a #GError
 *
 * Returns the child at @index, like `module_list[index]`.
 *
 * Returns: (transfer none) (nullable): the child, or %NULL with @error set
 *   (%GNN_ERROR_INDEX, "index 5 is out of range"); %NULL without error for
 *   an empty slot
 *
 * Since: 0.1
 */
GnnModule *
gnn_module_list_get (GnnModuleList *self,
                    gint64         index,
                    GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), NULL);

  return (GnnModule *) gnn_container_get_at (GNN_MODULE (self), GNN_MAP_MODULES, index, error);
}

/**
 * gnn_module_list_set:
 * @self: a module list
 * @index: the position; negative values count from the end
 * @module: the new child
 * @error: return location for a #GError
 *
 * Replaces the child at @index, keeping its key, like
 * `module_list[index] = module`.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INDEX when @index
 *   is out of range, or an error of [method@Gnn.Module.set_child])
 *
 * Since: 0.1
 */
gboolean
gnn_module_list_set (GnnModuleList *self,
                    gint64         index,
                    GnnModule     *module,
                    GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);

  return gnn_container_set_module_at (GNN_MODULE (self), index, module, error);
}

/**
 * gnn_module_list_append:
 * @self: a module list
 * @module: the module to add
 * @error: return location for a #GError
 *
 * Adds @module at the end under the key `str(len(self))`, like
 * `module_list.append(module)`.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT)
 *   if @module is @self or contains it; then @self is unchanged
 *
 * Since: 0.1
 */
gboolean
gnn_module_list_append (GnnModuleList *self,
                        GnnModule *module,
                        GError **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);

  return gnn_container_append (GNN_MODULE (self), GNN_MAP_MODULES, G_OBJECT (module), error);
}

/**
 * gnn_module_list_insert:
 * @self: a module list
 * @index: the position of the new child, from `-len` to `len`
 * @module: the module to insert
 * @error: return location for a #GError
 *
 * Inserts @module before the child at @index, moving the later children up
 * by one key, like `module_list.insert(index, module)`.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INDEX, "Index out
 *   of range: 7")
 *
 * Since: 0.1
 */
gboolean
gnn_module_list_insert (GnnModuleList *self,
                       gint64         index,
                       GnnModule     *module,
                       GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);

  return gnn_container_insert_module (GNN_MODULE (self), index, module, error);
}

/**
 * gnn_module_list_extend:
 * @self: a module list
 * @modules: (array length=n_modules) (nullable): the modules to add
 * @n_modules: the number of @modules
 * @error: return location for a #GError
 *
 * Appends each of @modules, like `module_list.extend(modules)`.
 *
 * Returns: %TRUE, or %FALSE with @error set as by
 *   [method@Gnn.ModuleList.append]; then none of @modules was added
 *
 * Since: 0.1
 */
gboolean
gnn_module_list_extend (GnnModuleList *self,
                        GnnModule **modules,
                        guint n_modules,
                        GError **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), FALSE);
  g_return_val_if_fail (modules != NULL || n_modules == 0, FALSE);

  return gnn_container_extend_modules (GNN_MODULE (self), modules, n_modules, error);
}

/**
 * gnn_module_list_pop:
 * @self: a module list
 * @index: the position; negative values count from the end
 * @error: return location for a #GError
 *
 * Removes the child at @index and returns it, then renames the remaining
 * children "0", "1", … in order, like `module_list.pop(index)`.
 *
 * Returns: (transfer full) (nullable): the removed child, or %NULL with
 *   @error set (%GNN_ERROR_INDEX, "index 5 is out of range")
 *
 * Since: 0.1
 */
GnnModule *
gnn_module_list_pop (GnnModuleList *self,
                    gint64         index,
                    GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), NULL);

  return (GnnModule *) gnn_container_pop_module (GNN_MODULE (self), index, error);
}

/**
 * gnn_module_list_slice:
 * @self: a module list
 * @start: the first position (clamped like a Python slice; negative values
 *   count from the end)
 * @stop: the position to stop before (%G_MAXINT64 for "to the end")
 * @step: the stride; negative walks backwards (then %G_MAXINT64 as @start
 *   and %G_MININT64 as @stop select everything)
 * @error: return location for a #GError
 *
 * Returns a new list of the same type holding the selected children
 * under the keys "0", "1", …, like `module_list[start:stop:step]`. The
 * children are shared, not copied.
 *
 * Returns: (transfer full): the new list, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, "slice step cannot be zero")
 *
 * Since: 0.1
 */
GnnModuleList *
gnn_module_list_slice (GnnModuleList *self,
                      gint64         start,
                      gint64         stop,
                      gint64         step,
                      GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), NULL);

  return (GnnModuleList *) gnn_container_slice_modules (GNN_MODULE (self), start, stop, step,
                                               TRUE, error);
}
