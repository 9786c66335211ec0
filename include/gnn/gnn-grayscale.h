/* gnn-grayscale.h: conversion to grey (torchvision.transforms.Grayscale)
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

#define GNN_TYPE_GRAYSCALE (gnn_grayscale_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGrayscale, gnn_grayscale, GNN, GRAYSCALE, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnGrayscale *gnn_grayscale_new (guint    num_output_channels,
                                 GError **error);

G_END_DECLS
