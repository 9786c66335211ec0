/* gnn-module-lookup.c: dotted-path lookups (get_submodule, get_parameter,
 * get_buffer)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "module/gnn-module-private.h"
#include "core/gnn-format-private.h"

/* get_submodule's walk; @path_len bytes of @path. */
static GnnModule *
lookup_submodule (GnnModule  *self,
                  const char *path,
                  gsize       path_len,
                  GError    **error)
{
  g_autofree char *copy = g_strndup (path, path_len);
  g_auto(GStrv) atoms = NULL;
  GnnModule *mod = self;

  if (path_len == 0)
    return self;
  atoms = g_strsplit (copy, ".", -1);
  for (guint i = 0; atoms[i] != NULL; i++)
    {
      GnnModulePrivate *priv = gnn_module_priv (mod);
      GObject *child;

      if (gnn_module_find_kind (priv, atoms[i]) == GNN_MAP_NONE)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "%s has no attribute `%s`", gnn_module_get_name (mod), atoms[i]);
          return NULL;
        }
      child = gnn_module_get_child (mod, atoms[i], NULL);
      if (child == NULL || !GNN_IS_MODULE (child))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "`%s` is not an nn.Module", atoms[i]);
          return NULL;
        }
      mod = GNN_MODULE (child);
    }
  return mod;
}

/**
 * gnn_module_get_submodule:
 * @self: a module
 * @path: a dotted path such as `"encoder.layers.0"`; `""` is @self
 * @error: return location for a #GError
 *
 * Finds the module at @path, like `get_submodule`.
 *
 * Returns: (transfer none): the module, or %NULL with @error set
 *   ("GnnNet has no attribute `x`", "`x` is not an nn.Module")
 *
 * Since: 0.1
 */
GnnModule *
gnn_module_get_submodule (GnnModule  *self,
                          const char *path,
                          GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  return lookup_submodule (self, path, strlen (path), error);
}

/* Splits @path at its last dot into the owning module and the last atom. */
static GnnModule *
lookup_owner (GnnModule   *self,
              const char  *path,
              const char **last,
              GError     **error)
{
  const char *dot = strrchr (path, '.');
  GnnModule *mod;

  mod = lookup_submodule (self, path, dot != NULL ? (gsize) (dot - path) : 0, error);
  *last = dot != NULL ? dot + 1 : path;
  if (mod != NULL && gnn_module_find_kind (gnn_module_priv (mod), *last) == GNN_MAP_NONE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                   "%s has no attribute `%s`", gnn_module_get_name (mod), *last);
      return NULL;
    }
  return mod;
}

/**
 * gnn_module_get_parameter:
 * @self: a module
 * @path: a dotted path such as `"encoder.fc.weight"`
 * @error: return location for a #GError
 *
 * Finds the parameter at @path, like `get_parameter`.
 *
 * Returns: (transfer none): the parameter, or %NULL with @error set
 *   ("`x` is not an nn.Parameter" if @path names something else or an empty
 *   slot)
 *
 * Since: 0.1
 */
GnnParameter *
gnn_module_get_parameter (GnnModule  *self,
                          const char *path,
                          GError    **error)
{
  const char *last;
  GnnModule *mod;
  GObject *child;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  mod = lookup_owner (self, path, &last, error);
  if (mod == NULL)
    return NULL;
  child = gnn_module_get_child (mod, last, NULL);
  if (child == NULL || !GNN_IS_PARAMETER (child))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "`%s` is not an nn.Parameter", last);
      return NULL;
    }
  return GNN_PARAMETER (child);
}

/**
 * gnn_module_get_buffer:
 * @self: a module
 * @path: a dotted path such as `"bn.running_mean"`
 * @error: return location for a #GError
 *
 * Finds the buffer at @path, like `get_buffer`.
 *
 * Returns: (transfer none) (nullable): the buffer (%NULL for an empty
 *   buffer slot), or %NULL with @error set ("`x` is not a buffer")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_module_get_buffer (GnnModule  *self,
                       const char *path,
                       GError    **error)
{
  const char *last;
  GnnModule *mod;
  GnnMapEntry *entry;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  gnn_module_use_begin ();
  mod = lookup_owner (self, path, &last, error);
  entry = mod != NULL ? gnn_module_registry_lookup (mod, GNN_MAP_BUFFERS, last) : NULL;
  gnn_module_use_end ();
  if (mod == NULL)
    return NULL;
  if (entry == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "`%s` is not a buffer", last);
      return NULL;
    }
  return (GnnTensor *) entry->value;
}


/**
 * gnn_module_get_child_of_type:
 * @self: a module
 * @name: the child's name
 * @type: the type the child must have (a #GnnModule, #GnnParameter or
 *   #GnnTensor type, or one derived from them)
 * @error: return location for a #GError
 *
 * Looks @name up as [method@Gnn.Module.get_child] does and checks that it
 * holds an object of @type: the checked, typed access to a child. C code
 * uses it through `GNN_MODULE_CHILD()`, which also casts:
 *
 * ```c
 * GnnLinear *fc1 = GNN_MODULE_CHILD (self, "fc1", GNN, LINEAR, error);
 * ```
 *
 * An empty slot (PyTorch's `None`) is an error here; use
 * [method@Gnn.Module.get_child] for optional children.
 *
 * Returns: (transfer none): the child, or %NULL with @error set:
 *   %GNN_ERROR_KEY if @name is not registered, %GNN_ERROR_TYPE if it is
 *   empty or holds another type
 *
 * Since: 0.1
 */
GObject *
gnn_module_get_child_of_type (GnnModule   *self,
                              const char  *name,
                              GType        type,
                              GError     **error)
{
  GError *local = NULL;
  GObject *child;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (G_TYPE_IS_OBJECT (type) || G_TYPE_IS_INTERFACE (type), NULL);

  child = gnn_module_get_child (self, name, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  if (child == NULL || !g_type_is_a (G_OBJECT_TYPE (child), type))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s.%s is %s, not a %s", gnn_module_get_name (self), name,
                   child == NULL ? "None" : gnn_format_type_name (G_OBJECT_TYPE (child)),
                   gnn_format_type_name (type));
      return NULL;
    }
  return child;
}
