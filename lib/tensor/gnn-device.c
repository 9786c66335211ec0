/* gnn-device.c: the default device (CPU or meta) and memory-less tensors
 *
 * A meta tensor has a storage header with a byte size but no memory
 * (GnnStorage.meta, data NULL). Views of it share that header, so they are
 * meta too. Every public operation that reads or writes elements checks
 * its operands with gnn_check_storage() and fails with "tensor has no
 * storage (meta)"; shape queries, views and repr work.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/* Per thread, like PyTorch's `with torch.device(...)` context. */
static _Thread_local GnnDevice default_device = GNN_DEVICE_CPU;

/**
 * gnn_get_default_device:
 *
 * Gets the calling thread's default device (see
 * [func@Gnn.set_default_device]).
 *
 * Returns: the default device
 *
 * Since: 0.1
 */
GnnDevice
gnn_get_default_device (void)
{
  return default_device;
}

/**
 * gnn_set_default_device:
 * @device: the new default device
 *
 * Sets the device of the tensors that the tensor factories
 * ([func@Gnn.Tensor.empty], [func@Gnn.Tensor.zeros], [func@Gnn.Tensor.ones],
 * [func@Gnn.Tensor.full]) and module constructors create on the calling
 * thread, like PyTorch's `with torch.device("meta"):` (PyTorch 2.x). With
 * %GNN_DEVICE_META a module is built without allocating its parameters and
 * without drawing random numbers; give it memory with
 * [method@Gnn.Module.to_empty], [method@Gnn.Module.reset_parameters] or by
 * loading a state dict with %GNN_LOAD_STATE_ASSIGN.
 *
 * Results of operations on CPU tensors stay on the CPU.
 *
 * Returns: the previous default device, to restore a scope
 *
 * Since: 0.1
 */
GnnDevice
gnn_set_default_device (GnnDevice device)
{
  GnnDevice previous = default_device;

  g_return_val_if_fail (device == GNN_DEVICE_CPU || device == GNN_DEVICE_META, previous);
  default_device = device;
  return previous;
}

/**
 * gnn_device_get_name:
 * @device: a device
 *
 * Gets PyTorch's name of @device: `"cpu"` or `"meta"`.
 *
 * Returns: (transfer none): the name
 *
 * Since: 0.1
 */
const char *
gnn_device_get_name (GnnDevice device)
{
  switch (device)
    {
    case GNN_DEVICE_CPU: return "cpu";
    case GNN_DEVICE_META: return "meta";
    default: return NULL;
    }
}

/**
 * gnn_tensor_get_device:
 * @self: a #GnnTensor
 *
 * Gets where @self lives: %GNN_DEVICE_META for a tensor without memory.
 *
 * Returns: the device
 *
 * Since: 0.1
 */
GnnDevice
gnn_tensor_get_device (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), GNN_DEVICE_CPU);
  return gnn_tensor_priv (self)->storage->meta ? GNN_DEVICE_META : GNN_DEVICE_CPU;
}

/**
 * gnn_tensor_is_meta:
 * @self: a #GnnTensor
 *
 * Whether @self has no memory (PyTorch's `is_meta`).
 *
 * Returns: %TRUE for a meta tensor
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_is_meta (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->storage->meta;
}

gboolean
gnn_check_storage (const char *op,
                   GnnTensor  *t,
                   GError    **error)
{
  if (G_LIKELY (!gnn_tensor_priv (t)->storage->meta))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s: tensor has no storage (meta)", op);
  return FALSE;
}

GnnTensor *
gnn_tensor_new_meta (GType         type,
                     GnnDType      dtype,
                     const gint64 *shape,
                     guint         ndim)
{
  GnnTensor *self = gnn_tensor_object_new (type);
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gint64 numel = 1;

  for (guint d = 0; d < ndim; d++)
    numel *= shape[d];
  p->storage = gnn_storage_new_meta ((gsize) numel * gnn_dtype_get_size (dtype));
  p->dtype = dtype;
  p->ndim = ndim;
  p->numel = numel;
  p->offset = 0;
  if (ndim > 0)
    memcpy (p->shape, shape, sizeof (gint64) * ndim);
  gnn_contiguous_strides (shape, ndim, p->strides);
  return self;
}

gboolean
gnn_tensor_materialize (GnnTensor *t,
                        GError   **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gsize nbytes = (gsize) p->numel * gnn_dtype_get_size (p->dtype);
  GnnStorage *storage;

  if (!p->storage->meta)
    return TRUE;
  storage = gnn_storage_new (nbytes, FALSE);
  if (storage == NULL)
    {
      gnn_set_alloc_error (error, nbytes, p->shape, p->ndim);
      return FALSE;
    }
  gnn_storage_unref (p->storage);
  p->storage = storage;
  p->offset = 0;
  gnn_contiguous_strides (p->shape, p->ndim, p->strides);
  return TRUE;
}

void
gnn_tensor_assign_storage (GnnTensor *t,
                           GnnTensor *src)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  GnnTensorPrivate *s = gnn_tensor_priv (src);
  GnnStorage *old = p->storage;

  p->storage = gnn_storage_ref (s->storage);
  gnn_storage_unref (old);
  p->dtype = s->dtype;
  p->ndim = s->ndim;
  p->numel = s->numel;
  p->offset = s->offset;
  memcpy (p->shape, s->shape, sizeof p->shape);
  memcpy (p->strides, s->strides, sizeof p->strides);
}
