/* gnn-module-io.c: saving and loading modules as safetensors files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "io/gnn-io-private.h"

/**
 * gnn_module_save:
 * @self: a module
 * @path: (type filename): the file to write
 * @metadata: (nullable) (element-type utf8 utf8): extra `__metadata__` strings
 * @error: return location for a #GError
 *
 * Saves the module's [method@Gnn.Module.state_dict] as a safetensors file
 * (see [method@Gnn.StateDict.save]).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_module_save (GnnModule   *self,
                 const char  *path,
                 GHashTable  *metadata,
                 GError     **error)
{
  g_autoptr(GnnStateDict) state_dict = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  state_dict = gnn_module_state_dict (self);
  return gnn_state_dict_save (state_dict, path, metadata, error);
}

/**
 * gnn_module_load:
 * @self: a module
 * @path: (type filename): a safetensors file, or a `.pt`/`.pth` file of
 *   `torch.save` (see [func@Gnn.StateDict.load_torch])
 * @error: return location for a #GError
 *
 * Loads a safetensors file — or PyTorch's own file of a state dict, told
 * apart by its first bytes — into the module's parameters and buffers:
 * [func@Gnn.StateDict.load] (or [func@Gnn.StateDict.load_torch]) followed
 * by a strict
 * [method@Gnn.Module.load_state_dict], which is atomic (nothing changes when
 * a key is missing or unexpected or a shape differs). The values are copied
 * into the module's tensors, so the file is unmapped when this returns.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_module_load (GnnModule   *self,
                 const char  *path,
                 GError     **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return gnn_module_load_with_flags (self, path, GNN_LOAD_FLAGS_NONE, error);
}

/**
 * gnn_module_load_with_flags:
 * @self: a module
 * @path: (type filename): a safetensors file, or a `.pt`/`.pth` file of
 *   `torch.save`
 * @flags: #GnnLoadFlags
 * @error: return location for a #GError
 *
 * [method@Gnn.Module.load] with options. With %GNN_LOAD_FLAGS_ASSIGN the
 * file's tensors become the module's parameters and buffers
 * ([method@Gnn.Module.load_state_dict_with_flags] with
 * %GNN_LOAD_STATE_ASSIGN): without %GNN_LOAD_FLAGS_COPY nothing is copied
 * and the module reads the memory-mapped file (pages are read on first use;
 * writes to a parameter stay private to the process). Together with a
 * module built under %GNN_DEVICE_META this builds and loads a model without
 * allocating or initializing its parameters. Loading is strict and atomic.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_module_load_with_flags (GnnModule     *self,
                            const char    *path,
                            GnnLoadFlags   flags,
                            GError       **error)
{
  g_autoptr(GnnStateDict) state_dict = NULL;
  GnnLoadStateFlags state_flags = GNN_LOAD_STATE_STRICT;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  state_dict = gnn_io_load_file (path, gnn_io_load_any_from_bytes, flags & GNN_LOAD_FLAGS_COPY,
                                 error);
  if (state_dict == NULL)
    return FALSE;
  if ((flags & GNN_LOAD_FLAGS_ASSIGN) != 0)
    state_flags |= GNN_LOAD_STATE_ASSIGN;
  return gnn_module_load_state_dict_with_flags (self, state_dict, state_flags, NULL, NULL, error);
}
