/* gnn-pad.c: padding
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnPad:
 *
 * torchvision's `transforms.Pad(padding, fill=0, padding_mode='constant')`
 * ([func@Gnn.vision_pad]).
 *
 * Since: 0.1
 */
struct _GnnPad
{
  GnnTransform  parent_instance;
  GVariant     *padding;
  GVariant     *fill;
  gint          padding_mode;
};

enum { PROP_0, PROP_PADDING, PROP_FILL, PROP_PADDING_MODE, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnPad, gnn_pad, GNN_TYPE_TRANSFORM)

static gboolean
gnn_pad_validate (GnnTransform  *transform,
                  GError       **error)
{
  gsize n;

  gnn_vision_variant_int64s (GNN_PAD (transform)->padding, &n);
  if (n != 1 && n != 2 && n != 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Padding must be an int or a 1, 2, or 4 element tuple, not a %" G_GSIZE_FORMAT
                   " element tuple", n);
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
gnn_pad_apply (GnnTransform  *transform,
               GnnTensor     *input,
               GError       **error)
{
  GnnPad *self = GNN_PAD (transform);
  gsize np, nf;
  const gint64 *padding = gnn_vision_variant_int64s (self->padding, &np);
  const double *fill = gnn_vision_variant_doubles (self->fill, &nf);

  return gnn_vision_pad (input, padding, np, fill, nf, self->padding_mode, error);
}

static void
gnn_pad_class_init (GnnPadClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_pad_apply;
  transform_class->validate = gnn_pad_validate;

  /**
   * GnnPad:padding:
   *
   * The padding (an `ax` variant): one value for every side, two (left and
   * right, top and bottom) or four (left, top, right, bottom).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_PADDING,
    g_param_spec_variant ("padding", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnPad, padding));
  /**
   * GnnPad:fill:
   *
   * The constant fill (an `ad` variant: one value, or one per channel;
   * none: 0).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_FILL,
    g_param_spec_variant ("fill", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnPad, fill));
  /**
   * GnnPad:padding-mode:
   *
   * How the border is filled.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_PADDING_MODE,
    g_param_spec_enum ("padding-mode", NULL, NULL, GNN_TYPE_VISION_PADDING_MODE,
                       GNN_VISION_PADDING_MODE_CONSTANT,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnPad, padding_mode));
}

static void
gnn_pad_init (GnnPad *self)
{
}

/**
 * gnn_pad_new:
 * @padding: (array length=n_padding): 1, 2 or 4 values
 * @n_padding: the number of values
 * @fill: (array length=n_fill) (nullable): the constant fill
 * @n_fill: the number of fill values
 * @padding_mode: how the border is filled
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.Pad(padding, fill,
 * padding_mode)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnPad *
gnn_pad_new (const gint64          *padding,
             gsize                  n_padding,
             const double          *fill,
             gsize                  n_fill,
             GnnVisionPaddingMode   padding_mode,
             GError               **error)
{
  return g_initable_new (GNN_TYPE_PAD, NULL, error,
                         "padding", gnn_vision_int64s_variant (padding, n_padding),
                         "fill", gnn_vision_doubles_variant (fill, n_fill),
                         "padding-mode", padding_mode, NULL);
}
