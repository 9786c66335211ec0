/* gnn-grayscale.c: conversion to grey
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnGrayscale:
 *
 * torchvision's `transforms.Grayscale(num_output_channels=1)`
 * ([func@Gnn.vision_rgb_to_grayscale]).
 *
 * Since: 0.1
 */
struct _GnnGrayscale
{
  GnnTransform parent_instance;
  guint        num_output_channels;
};

enum { PROP_0, PROP_NUM_OUTPUT_CHANNELS, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnGrayscale, gnn_grayscale, GNN_TYPE_TRANSFORM)

static gboolean
gnn_grayscale_validate (GnnTransform  *transform,
                        GError       **error)
{
  guint n = GNN_GRAYSCALE (transform)->num_output_channels;

  if (n != 1 && n != 3)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "num_output_channels should be either 1 or 3");
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
gnn_grayscale_apply (GnnTransform  *transform,
                     GnnTensor     *input,
                     GError       **error)
{
  return gnn_vision_rgb_to_grayscale (input, GNN_GRAYSCALE (transform)->num_output_channels,
                                      error);
}

static void
gnn_grayscale_class_init (GnnGrayscaleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_grayscale_apply;
  transform_class->validate = gnn_grayscale_validate;

  /**
   * GnnGrayscale:num-output-channels:
   *
   * 1 (a grey image) or 3 (three equal channels).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_OUTPUT_CHANNELS,
    g_param_spec_uint ("num-output-channels", NULL, NULL, 1, 3, 1,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnGrayscale, num_output_channels));
}

static void
gnn_grayscale_init (GnnGrayscale *self)
{
  self->num_output_channels = 1;
}

/**
 * gnn_grayscale_new:
 * @num_output_channels: 1 or 3
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.Grayscale(num_output_channels)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGrayscale *
gnn_grayscale_new (guint    num_output_channels,
                   GError **error)
{
  if (num_output_channels != 1 && num_output_channels != 3)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "num_output_channels should be either 1 or 3");
      return NULL;
    }
  return g_initable_new (GNN_TYPE_GRAYSCALE, NULL, error,
                         "num-output-channels", num_output_channels, NULL);
}
