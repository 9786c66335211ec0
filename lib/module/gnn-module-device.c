/* gnn-module-device.c: modules built without memory (meta) — to_empty,
 * reset_parameters and the forward guard
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-private.h"
#include "tensor/gnn-tensor-private.h"

static void
unref_nullable (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

static gpointer
ref_copy (gconstpointer object,
          gpointer      data)
{
  return g_object_ref ((gpointer) object);
}

/* Every parameter and buffer of the tree, each once. */
static GPtrArray *
all_tensors (GnnModule *self)
{
  GPtrArray *tensors = gnn_module_named_parameters (self, NULL, TRUE, NULL);
  g_autoptr(GPtrArray) buffers = gnn_module_named_buffers (self, NULL, TRUE, NULL);

  g_ptr_array_extend (tensors, buffers, ref_copy, NULL);
  return tensors;
}

/**
 * gnn_module_to_empty:
 * @self: a module
 * @error: return location for a #GError
 *
 * Gives every meta parameter and buffer of the tree (see
 * [func@Gnn.set_default_device]) fresh, uninitialized memory, like
 * PyTorch's `module.to_empty(device="cpu")`. The parameter objects stay the
 * same (so do their names, requires-grad and hooks); tensors that already
 * have memory are left alone. All memory is allocated before anything
 * changes: on %GNN_ERROR_MEMORY the module is unchanged.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_module_to_empty (GnnModule  *self,
                     GError    **error)
{
  g_autoptr(GPtrArray) tensors = NULL;
  g_autoptr(GPtrArray) fresh = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  tensors = all_tensors (self);
  fresh = g_ptr_array_new_with_free_func (unref_nullable);
  /* Stage: an empty tensor of the same shape per meta tensor. */
  for (guint i = 0; i < tensors->len; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (g_ptr_array_index (tensors, i));
      GnnTensor *t = NULL;

      if (gnn_tensor_priv_is_meta (p))
        {
          t = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error);
          if (t == NULL)
            return FALSE;
        }
      g_ptr_array_add (fresh, t);
    }
  /* Commit. */
  for (guint i = 0; i < tensors->len; i++)
    if (g_ptr_array_index (fresh, i) != NULL)
      gnn_tensor_assign_storage (g_ptr_array_index (tensors, i), g_ptr_array_index (fresh, i));
  return TRUE;
}

/**
 * gnn_module_to_dtype:
 * @self: a module
 * @dtype: a floating-point dtype
 * @error: return location for a #GError
 *
 * Converts every floating-point parameter and buffer of the tree, and the
 * gradients of the parameters, to @dtype, like PyTorch's
 * `module.to(dtype)` (`double()`, `float()`, `half()`). The tensors keep
 * their identity: an optimizer built over the parameters, and a parameter
 * shared by two modules, see the conversion. Integer and bool tensors are
 * left alone. All copies are made before anything changes: on
 * %GNN_ERROR_MEMORY the module is unchanged.
 *
 * Returns: %TRUE on success; %FALSE with %GNN_ERROR_DTYPE if @dtype is not
 *   floating-point
 *
 * Since: 0.1
 */
gboolean
gnn_module_to_dtype (GnnModule  *self,
                     GnnDType    dtype,
                     GError    **error)
{
  g_autoptr(GPtrArray) tensors = NULL;
  g_autoptr(GPtrArray) targets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) copies = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "nn.Module.to only accepts floating point or complex dtypes, but got "
                   "desired dtype=%s",
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
  tensors = all_tensors (self);
  /* Stage: a converted copy per floating tensor (and gradient). */
  for (guint i = 0; i < tensors->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (tensors, i);
      GnnTensor *both[2] = { t, gnn_tensor_get_grad (t) };

      for (guint k = 0; k < 2; k++)
        {
          GnnTensorPrivate *p;
          GnnTensor *copy;

          if (both[k] == NULL)
            continue;
          p = gnn_tensor_priv (both[k]);
          if (!gnn_dtype_is_floating (p->dtype) || p->dtype == dtype)
            continue;
          copy = gnn_tensor_priv_is_meta (p)
                 ? gnn_tensor_new_meta (GNN_TYPE_TENSOR, dtype, p->shape, p->ndim)
                 : gnn_tensor_copy_checked (both[k], dtype, error);
          if (copy == NULL)
            return FALSE;
          g_ptr_array_add (targets, g_object_ref (both[k]));
          g_ptr_array_add (copies, copy);
        }
    }
  /* Commit. */
  for (guint i = 0; i < targets->len; i++)
    gnn_tensor_assign_storage (g_ptr_array_index (targets, i), g_ptr_array_index (copies, i));
  return TRUE;
}

/**
 * gnn_module_reset_parameters:
 * @self: a module
 * @error: return location for a #GError
 *
 * Gives the meta tensors of the tree memory ([method@Gnn.Module.to_empty]),
 * then re-initializes every module of the tree that implements
 * `reset_parameters` ([class@Gnn.Linear], [class@Gnn.Conv2d],
 * [class@Gnn.Embedding], [class@Gnn.LayerNorm], the batch norms), in
 * [method@Gnn.Module.named_modules] order, as PyTorch's per-layer
 * `reset_parameters()` does. This is how a module built under
 * %GNN_DEVICE_META gets its normal initial values.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_module_reset_parameters (GnnModule  *self,
                             GError    **error)
{
  g_autoptr(GPtrArray) modules = NULL;
  g_autoptr(GnnNoGradGuard) guard = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!gnn_module_to_empty (self, error))
    return FALSE;
  /* initialization writes into parameters: torch's nn.init runs under no_grad */
  guard = gnn_no_grad_guard_new ();
  modules = gnn_module_named_modules (self, NULL, NULL);
  for (guint i = 0; i < modules->len; i++)
    {
      GnnModule *m = g_ptr_array_index (modules, i);
      GnnModuleClass *klass = GNN_MODULE_GET_CLASS (m);

      if (klass->reset_parameters != NULL && !klass->reset_parameters (m, error))
        return FALSE;
    }
  return TRUE;
}

/* Whether @value holds a meta tensor, at any depth. */
static gboolean
value_has_meta (GnnValue *value)
{
  GnnTensor *tensor = gnn_value_get_tensor (value);
  gsize n_items;
  GnnValue **items;

  if (tensor != NULL)
    return gnn_tensor_priv_is_meta (gnn_tensor_priv (tensor));
  items = gnn_value_get_items (value, &n_items);
  for (gsize i = 0; i < n_items; i++)
    if (value_has_meta (items[i]))
      return TRUE;
  return FALSE;
}

/* The forward guard: "Linear: parameter 'weight' has no storage (meta)". */
gboolean
gnn_module_check_storage (GnnModule  *self,
                          GnnTensor  *input,
                          GnnValue   *args,
                          GnnValue   *kwargs,
                          GError    **error)
{
  GnnModulePrivate *priv = gnn_module_priv (self);

  if ((input != NULL && gnn_tensor_priv_is_meta (gnn_tensor_priv (input))) ||
      (input == NULL && args != NULL && value_has_meta (args)) ||
      (kwargs != NULL && value_has_meta (kwargs)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: input tensor has no storage (meta)", gnn_module_get_name (self));
      return FALSE;
    }
  for (int k = GNN_MAP_PARAMETERS; k <= GNN_MAP_BUFFERS; k++)
    {
      GPtrArray *entries = gnn_ordered_map_entries (&priv->maps[k]);

      for (guint i = 0, n = gnn_entries_len (entries); i < n; i++)
        {
          GnnMapEntry *entry = gnn_entries_get (entries, i);

          if (entry->value != NULL &&
              gnn_tensor_priv_is_meta (gnn_tensor_priv (GNN_TENSOR (entry->value))))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "%s: %s '%s' has no storage (meta); call to_empty, "
                           "reset_parameters or load a state dict with assign first",
                           gnn_module_get_name (self),
                           k == GNN_MAP_PARAMETERS ? "parameter" : "buffer", entry->name);
              return FALSE;
            }
        }
    }
  return TRUE;
}
