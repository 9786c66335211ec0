/* gnn-center-crop.c: the centred crop
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnCenterCrop:
 *
 * torchvision's `transforms.CenterCrop(size)` ([func@Gnn.vision_center_crop]):
 * the centred rectangle of the size, the input padded with zeros first
 * where it is smaller.
 *
 * Since: 0.1
 */
struct _GnnCenterCrop
{
  GnnTransform  parent_instance;
  GVariant     *size;
};

enum { PROP_0, PROP_SIZE, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnCenterCrop, gnn_center_crop, GNN_TYPE_TRANSFORM)

static gboolean
gnn_center_crop_validate (GnnTransform  *transform,
                          GError       **error)
{
  gsize n;
  const gint64 *size = gnn_vision_variant_int64s (GNN_CENTER_CROP (transform)->size, &n);
  gint64 h, w;

  return gnn_vision_crop_size (size, n, &h, &w, "CenterCrop", error);
}

static GnnTensor *
gnn_center_crop_apply (GnnTransform  *transform,
                       GnnTensor     *input,
                       GError       **error)
{
  gsize n;
  const gint64 *size = gnn_vision_variant_int64s (GNN_CENTER_CROP (transform)->size, &n);

  return gnn_vision_center_crop (input, size, n, error);
}

static void
gnn_center_crop_class_init (GnnCenterCropClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_center_crop_apply;
  transform_class->validate = gnn_center_crop_validate;

  /**
   * GnnCenterCrop:size:
   *
   * The crop size (an `ax` variant): [h, w], or one value for a square.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_SIZE,
    g_param_spec_variant ("size", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnCenterCrop, size));
}

static void
gnn_center_crop_init (GnnCenterCrop *self)
{
}

/**
 * gnn_center_crop_new:
 * @size: (array length=n_size): [h, w], or one value for a square
 * @n_size: 1 or 2
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.CenterCrop(size)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnCenterCrop *
gnn_center_crop_new (const gint64  *size,
                     gsize          n_size,
                     GError       **error)
{
  return g_initable_new (GNN_TYPE_CENTER_CROP, NULL, error,
                         "size", gnn_vision_int64s_variant (size, n_size), NULL);
}
