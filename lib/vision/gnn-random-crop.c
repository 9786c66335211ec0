/* gnn-random-crop.c: a crop at a random place
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnRandomCrop:
 *
 * torchvision's `transforms.RandomCrop(size, padding=None,
 * pad_if_needed=False, fill=0, padding_mode='constant')`: the input padded
 * by [property@Gnn.RandomCrop:padding] (if any), then, with
 * [property@Gnn.RandomCrop:pad-if-needed], widened and heightened to the
 * crop size (as torchvision pads: by the missing width on both the left
 * and the right), then cropped at a random place (see
 * [class@Gnn.Transform] for the generator).
 *
 * Since: 0.1
 */
struct _GnnRandomCrop
{
  GnnTransform  parent_instance;
  GVariant     *size;
  GVariant     *padding;
  gboolean      pad_if_needed;
  GVariant     *fill;
  gint          padding_mode;
};

enum { PROP_0, PROP_SIZE, PROP_PADDING, PROP_PAD_IF_NEEDED, PROP_FILL, PROP_PADDING_MODE, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnRandomCrop, gnn_random_crop, GNN_TYPE_TRANSFORM)

static gboolean
gnn_random_crop_validate (GnnTransform  *transform,
                          GError       **error)
{
  GnnRandomCrop *self = GNN_RANDOM_CROP (transform);
  gsize n, np;
  const gint64 *size = gnn_vision_variant_int64s (self->size, &n);
  gint64 h, w;

  if (!gnn_vision_crop_size (size, n, &h, &w, "RandomCrop", error))
    return FALSE;
  gnn_vision_variant_int64s (self->padding, &np);
  if (np != 0 && np != 1 && np != 2 && np != 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Padding must be an int or a 1, 2, or 4 element tuple, not a %" G_GSIZE_FORMAT
                   " element tuple", np);
      return FALSE;
    }
  return TRUE;
}

/* @img padded by @l/@t on both sides of the width/height (torchvision's
 * [size - width, 0] and [0, size - height]) */
static GnnTensor *
pad_both (GnnRandomCrop  *self,
          GnnTensor      *img,
          gint64          lr,
          gint64          tb,
          GError        **error)
{
  const gint64 padding[2] = { lr, tb };
  gsize nf;
  const double *fill = gnn_vision_variant_doubles (self->fill, &nf);

  return gnn_vision_pad (img, padding, 2, fill, nf, self->padding_mode, error);
}

static GnnTensor *
gnn_random_crop_apply (GnnTransform  *transform,
                       GnnTensor     *input,
                       GError       **error)
{
  GnnRandomCrop *self = GNN_RANDOM_CROP (transform);
  g_autoptr(GnnTensor) img = g_object_ref (input);
  gsize n, np, nf;
  const gint64 *size = gnn_vision_variant_int64s (self->size, &n);
  const gint64 *padding = gnn_vision_variant_int64s (self->padding, &np);
  const double *fill = gnn_vision_variant_doubles (self->fill, &nf);
  GnnGenerator *g;
  gint64 th, tw, c, h, w, i, j;

  gnn_vision_crop_size (size, n, &th, &tw, "RandomCrop", NULL);
  if (np > 0)
    {
      GnnTensor *padded = gnn_vision_pad (img, padding, np, fill, nf, self->padding_mode, error);

      if (padded == NULL)
        return NULL;
      g_object_unref (img);
      img = padded;
    }
  if (!gnn_vision_dimensions (img, &c, &h, &w, "RandomCrop", error))
    return NULL;
  if (self->pad_if_needed && w < tw)
    {
      GnnTensor *padded = pad_both (self, img, tw - w, 0, error);

      if (padded == NULL)
        return NULL;
      g_object_unref (img);
      img = padded;
    }
  if (self->pad_if_needed && h < th)
    {
      GnnTensor *padded = pad_both (self, img, 0, th - h, error);

      if (padded == NULL)
        return NULL;
      g_object_unref (img);
      img = padded;
    }
  gnn_vision_dimensions (img, &c, &h, &w, "RandomCrop", NULL);
  if (h + 1 < th || w + 1 < tw)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Required crop size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") is larger "
                   "than input image size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                   th, tw, h, w);
      return NULL;
    }
  if (h == th && w == tw)
    return gnn_vision_crop (img, 0, 0, h, w, error);
  if (h - th + 1 <= 0 || w - tw + 1 <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "random_ expects 'from' to be less than 'to', but got from=0 >= to=%"
                   G_GINT64_FORMAT, MIN (h - th + 1, w - tw + 1));
      return NULL;
    }
  g = gnn_vision_generator_acquire ();
  i = gnn_vision_randint (g, 0, h - th + 1);
  j = gnn_vision_randint (g, 0, w - tw + 1);
  gnn_vision_generator_release (g);
  return gnn_vision_crop (img, i, j, th, tw, error);
}

static void
gnn_random_crop_class_init (GnnRandomCropClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_random_crop_apply;
  transform_class->validate = gnn_random_crop_validate;

  /**
   * GnnRandomCrop:size:
   *
   * The crop size (an `ax` variant): [h, w], or one value for a square.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_SIZE,
    g_param_spec_variant ("size", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomCrop, size));
  /**
   * GnnRandomCrop:padding:
   *
   * The padding applied first (an `ax` variant of 1, 2 or 4 values as
   * [class@Gnn.Pad] takes them; none: no padding).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_PADDING,
    g_param_spec_variant ("padding", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomCrop, padding));
  /**
   * GnnRandomCrop:pad-if-needed:
   *
   * Whether an input smaller than the crop is padded to its size.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_PAD_IF_NEEDED,
    g_param_spec_boolean ("pad-if-needed", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomCrop, pad_if_needed));
  /**
   * GnnRandomCrop:fill:
   *
   * The constant fill of the padding (an `ad` variant; none: 0).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_FILL,
    g_param_spec_variant ("fill", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomCrop, fill));
  /**
   * GnnRandomCrop:padding-mode:
   *
   * How the padding is filled.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_PADDING_MODE,
    g_param_spec_enum ("padding-mode", NULL, NULL, GNN_TYPE_VISION_PADDING_MODE,
                       GNN_VISION_PADDING_MODE_CONSTANT,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomCrop, padding_mode));
}

static void
gnn_random_crop_init (GnnRandomCrop *self)
{
}

/**
 * gnn_random_crop_new:
 * @size: (array length=n_size): [h, w], or one value for a square
 * @n_size: 1 or 2
 * @padding: (array length=n_padding) (nullable): the padding applied
 *   first: 1, 2 or 4 values, or none
 * @n_padding: the number of padding values
 * @pad_if_needed: whether a smaller input is padded to the crop size
 * @fill: (array length=n_fill) (nullable): the constant fill
 * @n_fill: the number of fill values
 * @padding_mode: how the padding is filled
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.RandomCrop(size, padding,
 * pad_if_needed, fill, padding_mode)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRandomCrop *
gnn_random_crop_new (const gint64          *size,
                     gsize                  n_size,
                     const gint64          *padding,
                     gsize                  n_padding,
                     gboolean               pad_if_needed,
                     const double          *fill,
                     gsize                  n_fill,
                     GnnVisionPaddingMode   padding_mode,
                     GError               **error)
{
  return g_initable_new (GNN_TYPE_RANDOM_CROP, NULL, error,
                         "size", gnn_vision_int64s_variant (size, n_size),
                         "padding", gnn_vision_int64s_variant (padding, n_padding),
                         "pad-if-needed", pad_if_needed,
                         "fill", gnn_vision_doubles_variant (fill, n_fill),
                         "padding-mode", padding_mode, NULL);
}
