/* gnn-convert-image-dtype.h: conversion of a tensor image's dtype (torchvision.transforms.ConvertImageDtype)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-transform.h>
#include <gnn/gnn-vision-functional.h>

G_BEGIN_DECLS

#define GNN_TYPE_CONVERT_IMAGE_DTYPE (gnn_convert_image_dtype_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConvertImageDtype, gnn_convert_image_dtype, GNN, CONVERT_IMAGE_DTYPE, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnConvertImageDtype *gnn_convert_image_dtype_new (GnnDType dtype);

G_END_DECLS
