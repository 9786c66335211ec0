/* gnn-random-resized-crop.c: a random crop resized
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <math.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnRandomResizedCrop:
 *
 * torchvision's `transforms.RandomResizedCrop(size, scale=(0.08, 1.0),
 * ratio=(3/4, 4/3), interpolation=BILINEAR, antialias=None)`: a crop of a
 * random area (a fraction of the input's in the scale range) and aspect
 * ratio (log-uniform in the ratio range), up to ten tries and then the
 * central crop, as torchvision draws it (see [class@Gnn.Transform] for the
 * generator), resized to the size ([func@Gnn.vision_resized_crop]).
 *
 * Since: 0.1
 */
struct _GnnRandomResizedCrop
{
  GnnTransform  parent_instance;
  GVariant     *size;
  double        scale_min, scale_max;
  double        ratio_min, ratio_max;
  gint          interpolation;
  gboolean      antialias;
};

enum { PROP_0, PROP_SIZE, PROP_SCALE_MIN, PROP_SCALE_MAX, PROP_RATIO_MIN, PROP_RATIO_MAX,
       PROP_INTERPOLATION, PROP_ANTIALIAS, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnRandomResizedCrop, gnn_random_resized_crop, GNN_TYPE_TRANSFORM)

static gboolean
gnn_random_resized_crop_validate (GnnTransform  *transform,
                                  GError       **error)
{
  GnnRandomResizedCrop *self = GNN_RANDOM_RESIZED_CROP (transform);
  gsize n;
  const gint64 *size = gnn_vision_variant_int64s (self->size, &n);
  gint64 h, w;

  if (!gnn_vision_crop_size (size, n, &h, &w, "RandomResizedCrop", error))
    return FALSE;
  if (!(self->ratio_min > 0 && self->ratio_max > 0 && isfinite (self->ratio_min) &&
        isfinite (self->ratio_max) && isfinite (self->scale_min) && isfinite (self->scale_max)))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "RandomResizedCrop: scale must be finite and ratio positive");
      return FALSE;
    }
  return TRUE;
}

/* RandomResizedCrop.get_params */
static void
crop_params (GnnRandomResizedCrop *self,
             gint64                height,
             gint64                width,
             gint64               *i,
             gint64               *j,
             gint64               *h,
             gint64               *w)
{
  GnnGenerator *g = gnn_vision_generator_acquire ();
  double area = (double) height * (double) width;
  double lr0 = log (self->ratio_min), lr1 = log (self->ratio_max), in_ratio;

  for (int attempt = 0; attempt < 10; attempt++)
    {
      double target = area * gnn_vision_uniform (g, self->scale_min, self->scale_max);
      double aspect = exp (gnn_vision_uniform (g, lr0, lr1));

      *w = (gint64) nearbyint (sqrt (target * aspect));
      *h = (gint64) nearbyint (sqrt (target / aspect));
      if (*w > 0 && *w <= width && *h > 0 && *h <= height)
        {
          *i = gnn_vision_randint (g, 0, height - *h + 1);
          *j = gnn_vision_randint (g, 0, width - *w + 1);
          gnn_vision_generator_release (g);
          return;
        }
    }
  gnn_vision_generator_release (g);
  in_ratio = (double) width / (double) height;
  if (in_ratio < MIN (self->ratio_min, self->ratio_max))
    {
      *w = width;
      *h = (gint64) nearbyint ((double) *w / MIN (self->ratio_min, self->ratio_max));
    }
  else if (in_ratio > MAX (self->ratio_min, self->ratio_max))
    {
      *h = height;
      *w = (gint64) nearbyint ((double) *h * MAX (self->ratio_min, self->ratio_max));
    }
  else
    {
      *w = width;
      *h = height;
    }
  /* Python's floor division */
  *i = (height - *h) >= 0 ? (height - *h) / 2 : -((*h - height + 1) / 2);
  *j = (width - *w) >= 0 ? (width - *w) / 2 : -((*w - width + 1) / 2);
}

static GnnTensor *
gnn_random_resized_crop_apply (GnnTransform  *transform,
                               GnnTensor     *input,
                               GError       **error)
{
  GnnRandomResizedCrop *self = GNN_RANDOM_RESIZED_CROP (transform);
  gsize n;
  const gint64 *size = gnn_vision_variant_int64s (self->size, &n);
  gint64 c, height, width, i, j, h, w, out[2];

  if (!gnn_vision_dimensions (input, &c, &height, &width, "RandomResizedCrop", error))
    return NULL;
  if (height <= 0 || width <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "RandomResizedCrop: the input is empty (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   ")", height, width);
      return NULL;
    }
  crop_params (self, height, width, &i, &j, &h, &w);
  gnn_vision_crop_size (size, n, &out[0], &out[1], "RandomResizedCrop", NULL);
  return gnn_vision_resized_crop (input, i, j, h, w, out, 2, self->interpolation,
                                  self->antialias, error);
}

static void
gnn_random_resized_crop_class_init (GnnRandomResizedCropClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_random_resized_crop_apply;
  transform_class->validate = gnn_random_resized_crop_validate;

  /**
   * GnnRandomResizedCrop:size:
   *
   * The output size (an `ax` variant): [h, w], or one value for a square.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_SIZE,
    g_param_spec_variant ("size", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomResizedCrop, size));
  /**
   * GnnRandomResizedCrop:scale-min:
   *
   * The smallest fraction of the input's area the crop covers.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_SCALE_MIN, "scale-min", 0.0, G_MAXDOUBLE, 0.08,
                             G_STRUCT_OFFSET (GnnRandomResizedCrop, scale_min));
  /**
   * GnnRandomResizedCrop:scale-max:
   *
   * The largest fraction of the input's area the crop covers.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_SCALE_MAX, "scale-max", 0.0, G_MAXDOUBLE, 1.0,
                             G_STRUCT_OFFSET (GnnRandomResizedCrop, scale_max));
  /**
   * GnnRandomResizedCrop:ratio-min:
   *
   * The smallest aspect ratio (width / height) of the crop.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_RATIO_MIN, "ratio-min", 0.0, G_MAXDOUBLE, 3.0 / 4.0,
                             G_STRUCT_OFFSET (GnnRandomResizedCrop, ratio_min));
  /**
   * GnnRandomResizedCrop:ratio-max:
   *
   * The largest aspect ratio (width / height) of the crop.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_RATIO_MAX, "ratio-max", 0.0, G_MAXDOUBLE, 4.0 / 3.0,
                             G_STRUCT_OFFSET (GnnRandomResizedCrop, ratio_max));
  /**
   * GnnRandomResizedCrop:interpolation:
   *
   * How the crop is resampled.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INTERPOLATION,
    g_param_spec_enum ("interpolation", NULL, NULL, GNN_TYPE_INTERPOLATION_MODE,
                       GNN_INTERPOLATION_MODE_BILINEAR,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomResizedCrop, interpolation));
  /**
   * GnnRandomResizedCrop:antialias:
   *
   * For tensors, whether reducing filters as PIL does (see
   * [property@Gnn.Resize:antialias]).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_ANTIALIAS,
    g_param_spec_boolean ("antialias", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomResizedCrop, antialias));
}

static void
gnn_random_resized_crop_init (GnnRandomResizedCrop *self)
{
  self->scale_min = 0.08;
  self->scale_max = 1.0;
  self->ratio_min = 3.0 / 4.0;
  self->ratio_max = 4.0 / 3.0;
  self->interpolation = GNN_INTERPOLATION_MODE_BILINEAR;
}

/**
 * gnn_random_resized_crop_new:
 * @size: (array length=n_size): [h, w], or one value for a square
 * @n_size: 1 or 2
 * @scale_min: the smallest fraction of the area
 * @scale_max: the largest fraction of the area
 * @ratio_min: the smallest aspect ratio
 * @ratio_max: the largest aspect ratio
 * @interpolation: how the crop is resampled
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.RandomResizedCrop(size,
 * (scale_min, scale_max), (ratio_min, ratio_max), interpolation)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRandomResizedCrop *
gnn_random_resized_crop_new (const gint64          *size,
                             gsize                  n_size,
                             double                 scale_min,
                             double                 scale_max,
                             double                 ratio_min,
                             double                 ratio_max,
                             GnnInterpolationMode   interpolation,
                             GError               **error)
{
  return g_initable_new (GNN_TYPE_RANDOM_RESIZED_CROP, NULL, error,
                         "size", gnn_vision_int64s_variant (size, n_size),
                         "scale-min", scale_min, "scale-max", scale_max,
                         "ratio-min", ratio_min, "ratio-max", ratio_max,
                         "interpolation", interpolation, NULL);
}
