/* gnn-random-erasing.c: a random rectangle erased
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <math.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnRandomErasing:
 *
 * torchvision's `transforms.RandomErasing(p=0.5, scale=(0.02, 0.33),
 * ratio=(0.3, 3.3), value=0, inplace=False)` on a tensor image: with
 * probability p, a rectangle of a random area (a fraction of the image's
 * in the scale range) and aspect ratio (log-uniform in the ratio range),
 * up to ten tries, is replaced by [property@Gnn.RandomErasing:value] (one
 * value or one per channel) or, with
 * [property@Gnn.RandomErasing:value-random] (torchvision's
 * `value='random'`), by normally distributed values
 * ([func@Gnn.vision_erase]; see [class@Gnn.Transform] for the generator).
 *
 * Since: 0.1
 */
struct _GnnRandomErasing
{
  GnnTransform  parent_instance;
  double        p;
  double        scale_min, scale_max;
  double        ratio_min, ratio_max;
  GVariant     *value;
  gboolean      value_random;
  gboolean      inplace;
};

enum { PROP_0, PROP_P, PROP_SCALE_MIN, PROP_SCALE_MAX, PROP_RATIO_MIN, PROP_RATIO_MAX,
       PROP_VALUE, PROP_VALUE_RANDOM, PROP_INPLACE, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnRandomErasing, gnn_random_erasing, GNN_TYPE_TRANSFORM)

static gboolean
gnn_random_erasing_validate (GnnTransform  *transform,
                             GError       **error)
{
  GnnRandomErasing *self = GNN_RANDOM_ERASING (transform);

  if (self->scale_min < 0 || self->scale_max > 1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Scale should be between 0 and 1");
      return FALSE;
    }
  if (!(self->ratio_min > 0 && self->ratio_max > 0) || !isfinite (self->ratio_max))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "RandomErasing: ratio must be positive");
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
erase_values (GnnRandomErasing  *self,
              GnnGenerator      *g,
              gint64             c,
              gint64             h,
              gint64             w,
              GError           **error)
{
  gsize n;
  const double *value = gnn_vision_variant_doubles (self->value, &n);
  const gint64 shape[3] = { c, h, w }, one[3] = { 1, 1, 1 };
  GnnTensor *v;

  if (self->value_random)
    {
      v = gnn_tensor_empty (shape, 3, GNN_DTYPE_F32, error);
      if (v != NULL && !gnn_tensor_normal_ (v, 0.0, 1.0, g, error))
        g_clear_object (&v);
      return v;
    }
  if (n <= 1)
    return gnn_tensor_full (one, 3, n == 1 ? value[0] : 0.0, GNN_DTYPE_F32, error);
  {
    const gint64 cs[3] = { (gint64) n, 1, 1 };
    g_autofree float *f = g_new (float, n);

    for (gsize i = 0; i < n; i++)
      f[i] = (float) value[i];
    return gnn_tensor_new_from_floats (f, n, cs, 3, error);
  }
}

static GnnTensor *
gnn_random_erasing_apply (GnnTransform  *transform,
                          GnnTensor     *input,
                          GError       **error)
{
  GnnRandomErasing *self = GNN_RANDOM_ERASING (transform);
  g_autoptr(GnnTensor) v = NULL;
  GnnGenerator *g;
  gint64 c, ih, iw;
  gsize n;
  double area, lr0, lr1;

  if (!gnn_vision_require_tensor (input, "RandomErasing", error) ||
      !gnn_vision_dimensions (input, &c, &ih, &iw, "RandomErasing", error))
    return NULL;
  gnn_vision_variant_doubles (self->value, &n);
  if (!self->value_random && n > 1 && (gint64) n != c)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "If value is a sequence, it should have either a single value or %"
                   G_GINT64_FORMAT " (number of input channels)", c);
      return NULL;
    }
  g = gnn_vision_generator_acquire ();
  if (gnn_generator_next_double (g) >= self->p)
    {
      gnn_vision_generator_release (g);
      return g_object_ref (input);
    }
  area = (double) ih * (double) iw;
  lr0 = log (self->ratio_min);
  lr1 = log (self->ratio_max);
  for (int attempt = 0; attempt < 10; attempt++)
    {
      double erase_area = area * gnn_vision_uniform (g, self->scale_min, self->scale_max);
      double aspect = exp (gnn_vision_uniform (g, lr0, lr1));
      double hd = nearbyint (sqrt (erase_area * aspect));
      double wd = nearbyint (sqrt (erase_area / aspect));
      gint64 h, w, i, j;

      /* torchvision's `h < img_h and w < img_w`; a NaN or a negative
       * size (from a fuzzed scale or ratio) is no fit either */
      if (!(hd >= 0 && wd >= 0 && hd < (double) ih && wd < (double) iw))
        continue;
      h = (gint64) hd;
      w = (gint64) wd;
      v = erase_values (self, g, c, h, w, error);
      if (v == NULL)
        {
          gnn_vision_generator_release (g);
          return NULL;
        }
      i = gnn_vision_randint (g, 0, ih - h + 1);
      j = gnn_vision_randint (g, 0, iw - w + 1);
      gnn_vision_generator_release (g);
      return gnn_vision_erase (input, i, j, h, w, v, self->inplace, error);
    }
  gnn_vision_generator_release (g);
  return g_object_ref (input);
}

static void
gnn_random_erasing_class_init (GnnRandomErasingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_random_erasing_apply;
  transform_class->validate = gnn_random_erasing_validate;

  /**
   * GnnRandomErasing:p:
   *
   * The probability of erasing.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_P, "p", 0.0, 1.0, 0.5,
                             G_STRUCT_OFFSET (GnnRandomErasing, p));
  /**
   * GnnRandomErasing:scale-min:
   *
   * The smallest fraction of the image's area erased.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_SCALE_MIN, "scale-min", 0.0, G_MAXDOUBLE, 0.02,
                             G_STRUCT_OFFSET (GnnRandomErasing, scale_min));
  /**
   * GnnRandomErasing:scale-max:
   *
   * The largest fraction of the image's area erased.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_SCALE_MAX, "scale-max", 0.0, G_MAXDOUBLE, 0.33,
                             G_STRUCT_OFFSET (GnnRandomErasing, scale_max));
  /**
   * GnnRandomErasing:ratio-min:
   *
   * The smallest aspect ratio of the rectangle.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_RATIO_MIN, "ratio-min", 0.0, G_MAXDOUBLE, 0.3,
                             G_STRUCT_OFFSET (GnnRandomErasing, ratio_min));
  /**
   * GnnRandomErasing:ratio-max:
   *
   * The largest aspect ratio of the rectangle.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_RATIO_MAX, "ratio-max", 0.0, G_MAXDOUBLE, 3.3,
                             G_STRUCT_OFFSET (GnnRandomErasing, ratio_max));
  /**
   * GnnRandomErasing:value:
   *
   * The erasing value (an `ad` variant: one value, or one per channel;
   * none: 0).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_VALUE,
    g_param_spec_variant ("value", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomErasing, value));
  /**
   * GnnRandomErasing:value-random:
   *
   * Whether the rectangle gets standard normal values instead
   * (torchvision's `value='random'`).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_VALUE_RANDOM,
    g_param_spec_boolean ("value-random", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomErasing, value_random));
  /**
   * GnnRandomErasing:inplace:
   *
   * Whether the input tensor is erased in place.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INPLACE,
    g_param_spec_boolean ("inplace", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomErasing, inplace));
}

static void
gnn_random_erasing_init (GnnRandomErasing *self)
{
  self->p = 0.5;
  self->scale_min = 0.02;
  self->scale_max = 0.33;
  self->ratio_min = 0.3;
  self->ratio_max = 3.3;
}

/**
 * gnn_random_erasing_new:
 * @p: the probability of erasing
 * @scale_min: the smallest fraction of the area
 * @scale_max: the largest fraction of the area
 * @ratio_min: the smallest aspect ratio
 * @ratio_max: the largest aspect ratio
 * @value: (array length=n_value) (nullable): the erasing value (one, or
 *   one per channel; none: 0)
 * @n_value: the number of values
 * @inplace: whether the input is erased in place
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.RandomErasing(p, (scale_min,
 * scale_max), (ratio_min, ratio_max), value, inplace)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRandomErasing *
gnn_random_erasing_new (double         p,
                        double         scale_min,
                        double         scale_max,
                        double         ratio_min,
                        double         ratio_max,
                        const double  *value,
                        gsize          n_value,
                        gboolean       inplace,
                        GError       **error)
{
  return g_initable_new (GNN_TYPE_RANDOM_ERASING, NULL, error, "p", p,
                         "scale-min", scale_min, "scale-max", scale_max,
                         "ratio-min", ratio_min, "ratio-max", ratio_max,
                         "value", gnn_vision_doubles_variant (value, n_value),
                         "inplace", inplace, NULL);
}
