/* gnn-color-jitter.c: random brightness, contrast, saturation and hue
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <math.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnColorJitter:
 *
 * torchvision's `transforms.ColorJitter(brightness=0, contrast=0,
 * saturation=0, hue=0)`: the four adjustments in a random order, each by a
 * factor drawn uniformly from its range (see [class@Gnn.Transform] for the
 * generator). A range is a pair of properties (`brightness-min`,
 * `brightness-max`, ...); torchvision's `brightness=b` is the range
 * `(max(0, 1 - b), 1 + b)`, `hue=h` is `(-h, h)`; a range of (1, 1) (hue:
 * (0, 0)) leaves that adjustment out.
 *
 * Since: 0.1
 */
struct _GnnColorJitter
{
  GnnTransform parent_instance;
  double       range[4][2];   /* brightness, contrast, saturation, hue */
};

enum { PROP_0, PROP_BRIGHTNESS_MIN, PROP_BRIGHTNESS_MAX, PROP_CONTRAST_MIN, PROP_CONTRAST_MAX,
       PROP_SATURATION_MIN, PROP_SATURATION_MAX, PROP_HUE_MIN, PROP_HUE_MAX, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnColorJitter, gnn_color_jitter, GNN_TYPE_TRANSFORM)

static const char *const names[4] = { "brightness", "contrast", "saturation", "hue" };

static gboolean
gnn_color_jitter_validate (GnnTransform  *transform,
                           GError       **error)
{
  GnnColorJitter *self = GNN_COLOR_JITTER (transform);

  for (int k = 0; k < 4; k++)
    {
      double lo = self->range[k][0], hi = self->range[k][1];
      double bound_lo = k == 3 ? -0.5 : 0.0, bound_hi = k == 3 ? 0.5 : G_MAXDOUBLE;

      if (!(lo >= bound_lo && hi <= bound_hi && lo <= hi))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s values should be between (%g, %s), but got (%g, %g).", names[k],
                       bound_lo, k == 3 ? "0.5" : "inf", lo, hi);
          return FALSE;
        }
    }
  return TRUE;
}

static GnnTensor *
gnn_color_jitter_apply (GnnTransform  *transform,
                        GnnTensor     *input,
                        GError       **error)
{
  GnnColorJitter *self = GNN_COLOR_JITTER (transform);
  g_autoptr(GnnTensor) img = g_object_ref (input);
  GnnGenerator *g = gnn_vision_generator_acquire ();
  double factor[4];
  gboolean used[4];
  int order[4] = { 0, 1, 2, 3 };

  /* torchvision: fn_idx = randperm(4), then each used factor drawn */
  for (int k = 3; k > 0; k--)
    {
      int j = (int) gnn_vision_randint (g, 0, k + 1), t = order[k];

      order[k] = order[j];
      order[j] = t;
    }
  for (int k = 0; k < 4; k++)
    {
      double neutral = k == 3 ? 0.0 : 1.0;

      used[k] = !(self->range[k][0] == neutral && self->range[k][1] == neutral);
      factor[k] = used[k] ? gnn_vision_uniform (g, self->range[k][0], self->range[k][1]) : neutral;
    }
  gnn_vision_generator_release (g);
  for (int n = 0; n < 4; n++)
    {
      int k = order[n];
      GnnTensor *next;

      if (!used[k])
        continue;
      switch (k)
        {
        case 0: next = gnn_vision_adjust_brightness (img, factor[k], error); break;
        case 1: next = gnn_vision_adjust_contrast (img, factor[k], error); break;
        case 2: next = gnn_vision_adjust_saturation (img, factor[k], error); break;
        default: next = gnn_vision_adjust_hue (img, factor[k], error); break;
        }
      if (next == NULL)
        return NULL;
      g_object_unref (img);
      img = next;
    }
  return g_steal_pointer (&img);
}

static void
gnn_color_jitter_class_init (GnnColorJitterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_color_jitter_apply;
  transform_class->validate = gnn_color_jitter_validate;

  /**
   * GnnColorJitter:brightness-min:
   *
   * The smallest brightness factor.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_BRIGHTNESS_MIN, "brightness-min", -G_MAXDOUBLE,
                             G_MAXDOUBLE, 1.0, G_STRUCT_OFFSET (GnnColorJitter, range[0][0]));
  /**
   * GnnColorJitter:brightness-max:
   *
   * The largest brightness factor.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_BRIGHTNESS_MAX, "brightness-max", -G_MAXDOUBLE,
                             G_MAXDOUBLE, 1.0, G_STRUCT_OFFSET (GnnColorJitter, range[0][1]));
  /**
   * GnnColorJitter:contrast-min:
   *
   * The smallest contrast factor.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_CONTRAST_MIN, "contrast-min", -G_MAXDOUBLE,
                             G_MAXDOUBLE, 1.0, G_STRUCT_OFFSET (GnnColorJitter, range[1][0]));
  /**
   * GnnColorJitter:contrast-max:
   *
   * The largest contrast factor.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_CONTRAST_MAX, "contrast-max", -G_MAXDOUBLE,
                             G_MAXDOUBLE, 1.0, G_STRUCT_OFFSET (GnnColorJitter, range[1][1]));
  /**
   * GnnColorJitter:saturation-min:
   *
   * The smallest saturation factor.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_SATURATION_MIN, "saturation-min", -G_MAXDOUBLE,
                             G_MAXDOUBLE, 1.0, G_STRUCT_OFFSET (GnnColorJitter, range[2][0]));
  /**
   * GnnColorJitter:saturation-max:
   *
   * The largest saturation factor.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_SATURATION_MAX, "saturation-max", -G_MAXDOUBLE,
                             G_MAXDOUBLE, 1.0, G_STRUCT_OFFSET (GnnColorJitter, range[2][1]));
  /**
   * GnnColorJitter:hue-min:
   *
   * The smallest hue shift, at least -0.5.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_HUE_MIN, "hue-min", -G_MAXDOUBLE, G_MAXDOUBLE,
                             0.0, G_STRUCT_OFFSET (GnnColorJitter, range[3][0]));
  /**
   * GnnColorJitter:hue-max:
   *
   * The largest hue shift, at most 0.5.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_HUE_MAX, "hue-max", -G_MAXDOUBLE, G_MAXDOUBLE,
                             0.0, G_STRUCT_OFFSET (GnnColorJitter, range[3][1]));
}

static void
gnn_color_jitter_init (GnnColorJitter *self)
{
  for (int k = 0; k < 3; k++)
    self->range[k][0] = self->range[k][1] = 1.0;
}

/**
 * gnn_color_jitter_new:
 * @brightness: how far from 1 the brightness factor may go (0: unchanged)
 * @contrast: how far from 1 the contrast factor may go
 * @saturation: how far from 1 the saturation factor may go
 * @hue: how far from 0 the hue may shift, at most 0.5
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.ColorJitter(brightness,
 * contrast, saturation, hue)` with numbers (ranges are properties).
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnColorJitter *
gnn_color_jitter_new (double   brightness,
                      double   contrast,
                      double   saturation,
                      double   hue,
                      GError **error)
{
  const double values[4] = { brightness, contrast, saturation, hue };

  for (int k = 0; k < 4; k++)
    if (values[k] < 0 || !isfinite (values[k]))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "If %s is a single number, it must be non negative.", names[k]);
        return NULL;
      }
  return g_initable_new (GNN_TYPE_COLOR_JITTER, NULL, error,
                         "brightness-min", MAX (0.0, 1.0 - brightness), "brightness-max", 1.0 + brightness,
                         "contrast-min", MAX (0.0, 1.0 - contrast), "contrast-max", 1.0 + contrast,
                         "saturation-min", MAX (0.0, 1.0 - saturation),
                         "saturation-max", 1.0 + saturation,
                         "hue-min", -hue, "hue-max", hue, NULL);
}
