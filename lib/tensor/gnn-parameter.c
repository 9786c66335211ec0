/* gnn-parameter.c: a tensor that a module trains
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/**
 * GnnParameter:
 *
 * A [class@Gnn.Tensor] that modules register as trainable, like
 * `torch.nn.Parameter`: [property@Gnn.Tensor:requires-grad] is %TRUE by
 * default and the accumulated gradient lives in [property@Gnn.Tensor:grad].
 *
 * Since: 0.1
 */
struct _GnnParameter
{
  GnnTensor parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnParameter, gnn_parameter, GNN_TYPE_TENSOR)

static void
gnn_parameter_class_init (GnnParameterClass *klass)
{
}

static void
gnn_parameter_init (GnnParameter *self)
{
  gnn_tensor_priv (GNN_TENSOR (self))->requires_grad = TRUE;
}

/**
 * gnn_parameter_new:
 * @data: the tensor whose storage the parameter shares
 * @requires_grad: whether the parameter is trained
 *
 * Creates a parameter that shares the storage and geometry of @data, like
 * `torch.nn.Parameter(data, requires_grad)`.
 *
 * Returns: (transfer full): a new parameter
 *
 * Since: 0.1
 */
GnnParameter *
gnn_parameter_new (GnnTensor *data,
                   gboolean   requires_grad)
{
  GnnParameter *self;
  GnnTensorPrivate *dp, *pp;

  g_return_val_if_fail (GNN_IS_TENSOR (data), NULL);
  dp = gnn_tensor_priv (data);
  self = GNN_PARAMETER (gnn_tensor_object_new (GNN_TYPE_PARAMETER));
  pp = gnn_tensor_priv (GNN_TENSOR (self));
  pp->storage = gnn_storage_ref (dp->storage);
  pp->dtype = dp->dtype;
  pp->ndim = dp->ndim;
  pp->numel = dp->numel;
  pp->offset = dp->offset;
  memcpy (pp->shape, dp->shape, sizeof pp->shape);
  memcpy (pp->strides, dp->strides, sizeof pp->strides);
  pp->requires_grad = !!requires_grad;
  return self;
}

GnnParameter *
gnn_parameter_new_empty (GnnDType      dtype,
                         const gint64 *shape,
                         guint         ndim,
                         GError      **error)
{
  GnnParameter *self;
  GnnTensorPrivate *pp;
  gint64 numel;

  if (!gnn_shape_validate (shape, ndim, dtype, &numel, error))
    return NULL;
  if (gnn_get_default_device () == GNN_DEVICE_META)
    return GNN_PARAMETER (gnn_tensor_new_meta (GNN_TYPE_PARAMETER, dtype, shape, ndim));
  self = GNN_PARAMETER (gnn_tensor_object_new (GNN_TYPE_PARAMETER));
  pp = gnn_tensor_priv (GNN_TENSOR (self));
  pp->storage = gnn_storage_new ((gsize) numel * gnn_dtype_get_size (dtype), FALSE);
  if (pp->storage == NULL)
    {
      gnn_set_alloc_error (error, (gsize) numel * gnn_dtype_get_size (dtype), shape, ndim);
      g_object_unref (self);
      return NULL;
    }
  pp->dtype = dtype;
  pp->ndim = ndim;
  pp->numel = numel;
  memcpy (pp->shape, shape, sizeof (gint64) * ndim);
  gnn_contiguous_strides (shape, ndim, pp->strides);
  return self;
}
