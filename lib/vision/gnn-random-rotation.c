/* gnn-random-rotation.c: a rotation by a random angle
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <math.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnRandomRotation:
 *
 * torchvision's `transforms.RandomRotation(degrees, interpolation=NEAREST,
 * expand=False, center=None, fill=0)`: [func@Gnn.vision_rotate] by an angle
 * drawn uniformly between [property@Gnn.RandomRotation:degrees-min] and
 * [property@Gnn.RandomRotation:degrees-max] (see [class@Gnn.Transform] for
 * the generator). torchvision's `degrees=d` is the range (-d, d).
 *
 * Since: 0.1
 */
struct _GnnRandomRotation
{
  GnnTransform  parent_instance;
  double        degrees_min, degrees_max;
  gint          interpolation;
  gboolean      expand;
  GVariant     *center;
  GVariant     *fill;
};

enum { PROP_0, PROP_DEGREES_MIN, PROP_DEGREES_MAX, PROP_INTERPOLATION, PROP_EXPAND, PROP_CENTER,
       PROP_FILL, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnRandomRotation, gnn_random_rotation, GNN_TYPE_TRANSFORM)

static gboolean
gnn_random_rotation_validate (GnnTransform  *transform,
                              GError       **error)
{
  GnnRandomRotation *self = GNN_RANDOM_ROTATION (transform);
  gsize nc;

  gnn_vision_variant_doubles (self->center, &nc);
  if (nc != 0 && nc != 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "center should be a sequence of length 2");
      return FALSE;
    }
  if (!(self->degrees_min <= self->degrees_max) || !isfinite (self->degrees_min) ||
      !isfinite (self->degrees_max))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "RandomRotation: degrees (%g, %g) must be finite, the first not above the "
                   "second", self->degrees_min, self->degrees_max);
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
gnn_random_rotation_apply (GnnTransform  *transform,
                           GnnTensor     *input,
                           GError       **error)
{
  GnnRandomRotation *self = GNN_RANDOM_ROTATION (transform);
  gsize nc, nf;
  const double *center = gnn_vision_variant_doubles (self->center, &nc);
  const double *fill = gnn_vision_variant_doubles (self->fill, &nf);
  const double zero = 0;
  GnnGenerator *g = gnn_vision_generator_acquire ();
  double angle = gnn_vision_uniform (g, self->degrees_min, self->degrees_max);

  gnn_vision_generator_release (g);
  /* torchvision always passes a fill (0 by default) */
  return gnn_vision_rotate (input, angle, self->interpolation, self->expand, center, nc,
                            nf > 0 ? fill : &zero, nf > 0 ? nf : 1, error);
}

static void
gnn_random_rotation_class_init (GnnRandomRotationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_random_rotation_apply;
  transform_class->validate = gnn_random_rotation_validate;

  /**
   * GnnRandomRotation:degrees-min:
   *
   * The smallest angle, in degrees.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_DEGREES_MIN, "degrees-min", -G_MAXDOUBLE,
                             G_MAXDOUBLE, 0.0, G_STRUCT_OFFSET (GnnRandomRotation, degrees_min));
  /**
   * GnnRandomRotation:degrees-max:
   *
   * The largest angle, in degrees.
   *
   * Since: 0.1
   */
  gnn_vision_install_double (object_class, PROP_DEGREES_MAX, "degrees-max", -G_MAXDOUBLE,
                             G_MAXDOUBLE, 0.0, G_STRUCT_OFFSET (GnnRandomRotation, degrees_max));
  /**
   * GnnRandomRotation:interpolation:
   *
   * How the input is sampled.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INTERPOLATION,
    g_param_spec_enum ("interpolation", NULL, NULL, GNN_TYPE_INTERPOLATION_MODE,
                       GNN_INTERPOLATION_MODE_NEAREST,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomRotation, interpolation));
  /**
   * GnnRandomRotation:expand:
   *
   * Whether the output grows to hold the whole rotated input.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_EXPAND,
    g_param_spec_boolean ("expand", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomRotation, expand));
  /**
   * GnnRandomRotation:center:
   *
   * The centre of rotation (an `ad` variant: x, y in pixels; none: the
   * image centre).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_CENTER,
    g_param_spec_variant ("center", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomRotation, center));
  /**
   * GnnRandomRotation:fill:
   *
   * The value outside the rotated input (an `ad` variant: one value or one
   * per channel; none: 0).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_FILL,
    g_param_spec_variant ("fill", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnRandomRotation, fill));
}

static void
gnn_random_rotation_init (GnnRandomRotation *self)
{
  self->interpolation = GNN_INTERPOLATION_MODE_NEAREST;
}

/**
 * gnn_random_rotation_new:
 * @degrees_min: the smallest angle
 * @degrees_max: the largest angle
 * @interpolation: how the input is sampled
 * @expand: whether the output holds the whole rotated input
 * @center: (array length=n_center) (nullable): the centre (x, y), or none
 * @n_center: 0 or 2
 * @fill: (array length=n_fill) (nullable): the value outside
 * @n_fill: the number of fill values
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.RandomRotation((degrees_min,
 * degrees_max), interpolation, expand, center, fill)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRandomRotation *
gnn_random_rotation_new (double                 degrees_min,
                         double                 degrees_max,
                         GnnInterpolationMode   interpolation,
                         gboolean               expand,
                         const double          *center,
                         gsize                  n_center,
                         const double          *fill,
                         gsize                  n_fill,
                         GError               **error)
{
  return g_initable_new (GNN_TYPE_RANDOM_ROTATION, NULL, error,
                         "degrees-min", degrees_min, "degrees-max", degrees_max,
                         "interpolation", interpolation, "expand", expand,
                         "center", gnn_vision_doubles_variant (center, n_center),
                         "fill", gnn_vision_doubles_variant (fill, n_fill), NULL);
}
