/* gnn-module-attributes.c: plain tensor attributes of a module — torch's
 * tensors kept in a module's instance __dict__, which are not children
 *
 * torch's weight reparametrizations (weight_norm, spectral_norm) delete the
 * parameter `weight` and keep the tensor they compute from `weight_g` and
 * `weight_v` as a plain attribute of that name: the layer's forward reads
 * it as before, and it is in no parameter or buffer list and no state
 * dict. A C object has no instance dictionary, so the module keeps such
 * tensors here (object data), and gnn_module_get_child() finds them after
 * its three maps.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-private.h"

G_DEFINE_QUARK (gnn-module-tensor-attributes, tensor_attributes)

static GHashTable *
attributes (GnnModule *self,
            gboolean   create)
{
  GHashTable *table = g_object_get_qdata (G_OBJECT (self), tensor_attributes_quark ());

  if (table == NULL && create)
    {
      table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
      g_object_set_qdata_full (G_OBJECT (self), tensor_attributes_quark (), table,
                               (GDestroyNotify) g_hash_table_unref);
    }
  return table;
}

/**
 * gnn_module_set_tensor_attribute:
 * @self: a module
 * @name: the attribute's name
 * @value: (nullable): the tensor, or %NULL to remove the attribute
 * @error: return location for a #GError
 *
 * Keeps @value as a plain attribute of @self, torch's `module.name =
 * tensor` for a name that is no parameter or buffer (a tensor in the
 * instance `__dict__`): [method@Gnn.Module.get_child] finds it, but it is
 * not a child (no parameter or buffer list, no state dict, no `to()`). The
 * weight reparametrizations ([func@Gnn.weight_norm],
 * [func@Gnn.spectral_norm]) keep the weight they compute this way.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_KEY) if @name is a
 *   registered parameter, buffer or child module
 *
 * Since: 0.1
 */
gboolean
gnn_module_set_tensor_attribute (GnnModule  *self,
                                 const char *name,
                                 GnnTensor  *value,
                                 GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value == NULL || GNN_IS_TENSOR (value), FALSE);

  if (gnn_module_find_kind (gnn_module_priv (self), name) != GNN_MAP_NONE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                   "'%s' is a child of '%s': a plain attribute cannot take its name", name,
                   gnn_module_get_name (self));
      return FALSE;
    }
  if (value == NULL)
    {
      GHashTable *table = attributes (self, FALSE);

      if (table != NULL)
        g_hash_table_remove (table, name);
      return TRUE;
    }
  g_hash_table_replace (attributes (self, TRUE), g_strdup (name), g_object_ref (value));
  return TRUE;
}

/**
 * gnn_module_get_tensor_attribute:
 * @self: a module
 * @name: the attribute's name
 *
 * The plain tensor attribute @name of @self (see
 * [method@Gnn.Module.set_tensor_attribute]).
 *
 * Returns: (transfer none) (nullable): the tensor, or %NULL if there is none
 *
 * Since: 0.1
 */
GnnTensor *
gnn_module_get_tensor_attribute (GnnModule  *self,
                                 const char *name)
{
  GHashTable *table;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  table = attributes (self, FALSE);
  return table != NULL ? g_hash_table_lookup (table, name) : NULL;
}

gboolean
gnn_module_remove_tensor_attribute (GnnModule  *self,
                                    const char *name)
{
  GHashTable *table = attributes (self, FALSE);

  return table != NULL && g_hash_table_remove (table, name);
}
