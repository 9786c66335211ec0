/* gnn-convert-image-dtype.c: conversion of a tensor image's dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"

/**
 * GnnConvertImageDtype:
 *
 * torchvision's `transforms.ConvertImageDtype(dtype)`
 * ([func@Gnn.vision_convert_image_dtype]): values rescaled between the
 * ranges of the two dtypes.
 *
 * Since: 0.1
 */
struct _GnnConvertImageDtype
{
  GnnTransform parent_instance;
  gint         dtype;
};

enum { PROP_0, PROP_DTYPE, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnConvertImageDtype, gnn_convert_image_dtype, GNN_TYPE_TRANSFORM)

static GnnTensor *
gnn_convert_image_dtype_apply (GnnTransform  *transform,
                               GnnTensor     *input,
                               GError       **error)
{
  return gnn_vision_convert_image_dtype (input, GNN_CONVERT_IMAGE_DTYPE (transform)->dtype, error);
}

static void
gnn_convert_image_dtype_class_init (GnnConvertImageDtypeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  GNN_TRANSFORM_CLASS (klass)->apply = gnn_convert_image_dtype_apply;

  /**
   * GnnConvertImageDtype:dtype:
   *
   * The dtype of the result.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DTYPE,
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnConvertImageDtype, dtype));
}

static void
gnn_convert_image_dtype_init (GnnConvertImageDtype *self)
{
  self->dtype = GNN_DTYPE_F32;
}

/**
 * gnn_convert_image_dtype_new:
 * @dtype: the dtype of the result
 *
 * Creates the transform, like `transforms.ConvertImageDtype(dtype)`.
 *
 * Returns: (transfer full): the transform
 *
 * Since: 0.1
 */
GnnConvertImageDtype *
gnn_convert_image_dtype_new (GnnDType dtype)
{
  return g_object_new (GNN_TYPE_CONVERT_IMAGE_DTYPE, "dtype", dtype, NULL);
}
