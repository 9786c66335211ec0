/* gnn-upsample.c: resampling layer (torch.nn.Upsample)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-upsample-private.h"

/**
 * GnnUpsample:
 *
 * Resamples the spatial dimensions of `[N, C, *]` inputs (1 to 3 of them)
 * to a size or by a factor, `torch.nn.Upsample`, computed by
 * [method@Gnn.Tensor.interpolate]. Give either
 * [property@Gnn.Upsample:size] or [property@Gnn.Upsample:scale-factor]
 * (forward refuses otherwise, with torch's message); the layer has no
 * parameters.
 *
 * Since: 0.1
 */

typedef struct
{
  gint64             size[3];
  guint              n_size;
  double             scale[3];
  guint              n_scale;
  GnnInterpolateMode mode;
  gboolean           align_corners;
  gboolean           recompute_scale_factor;
} GnnUpsamplePrivate;

G_DEFINE_TYPE_WITH_PRIVATE (GnnUpsample, gnn_upsample, GNN_TYPE_MODULE)

#define PRIV(self) ((GnnUpsamplePrivate *) gnn_upsample_get_instance_private (GNN_UPSAMPLE (self)))

enum
{
  PROP_0,
  PROP_SIZE,
  PROP_SCALE_FACTOR,
  PROP_MODE,
  PROP_ALIGN_CORNERS,
  PROP_RECOMPUTE_SCALE_FACTOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *const mode_names[] = {
  "nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact",
};

static GnnTensor *
gnn_upsample_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  GnnUpsamplePrivate *priv = PRIV (module);

  return gnn_tensor_interpolate (input, priv->size, priv->n_size, priv->scale, priv->n_scale, priv->mode,
                                 priv->align_corners, priv->recompute_scale_factor, error);
}

static char *
gnn_upsample_extra_repr (GnnModule *module)
{
  GnnUpsamplePrivate *priv = PRIV (module);
  GString *s = g_string_new (priv->n_scale > 0 ? "scale_factor=" : "size=");
  guint n = priv->n_scale > 0 ? priv->n_scale : priv->n_size;

  /* torch prints what it was given: None, one value, or a tuple */
  if (n == 0)
    g_string_append (s, "None");
  if (n > 1)
    g_string_append_c (s, '(');
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      if (priv->n_scale > 0)
        {
          g_autofree char *v = gnn_nn_format_float (priv->scale[i]);

          g_string_append (s, v);
        }
      else
        g_string_append_printf (s, "%" G_GINT64_FORMAT, priv->size[i]);
    }
  if (n > 1)
    g_string_append_c (s, ')');
  g_string_append_printf (s, ", mode=%s",
                          (guint) priv->mode < G_N_ELEMENTS (mode_names) ? mode_names[priv->mode] : "?");
  return g_string_free (s, FALSE);
}

static void
gnn_upsample_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  GnnUpsamplePrivate *priv = PRIV (object);

  switch (prop_id)
    {
    case PROP_SIZE:
      g_value_take_variant (value, priv->n_size == 0 ? NULL
                            : g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, priv->size, priv->n_size,
                                                         sizeof (gint64)));
      break;
    case PROP_SCALE_FACTOR:
      g_value_take_variant (value, priv->n_scale == 0 ? NULL
                            : g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, priv->scale, priv->n_scale,
                                                         sizeof (double)));
      break;
    case PROP_MODE:
      g_value_set_enum (value, priv->mode);
      break;
    case PROP_ALIGN_CORNERS:
      g_value_set_boolean (value, priv->align_corners);
      break;
    case PROP_RECOMPUTE_SCALE_FACTOR:
      g_value_set_boolean (value, priv->recompute_scale_factor);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Copies up to 3 elements of the array @v into @dst; more than 3 is kept
 * as 4 (which forward then refuses, as torch does for a rank mismatch). */
static guint
take_array (GVariant *v,
            gpointer  dst,
            gsize     size)
{
  gsize n = 0;
  const guint8 *src = v != NULL ? g_variant_get_fixed_array (v, &n, size) : NULL;

  if (src != NULL && n > 0)
    memcpy (dst, src, size * MIN (n, 3));
  return (guint) MIN (n, 4);
}

static void
gnn_upsample_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  GnnUpsamplePrivate *priv = PRIV (object);

  switch (prop_id)
    {
    case PROP_SIZE:
      priv->n_size = take_array (g_value_get_variant (value), priv->size, sizeof (gint64));
      break;
    case PROP_SCALE_FACTOR:
      priv->n_scale = take_array (g_value_get_variant (value), priv->scale, sizeof (double));
      break;
    case PROP_MODE:
      priv->mode = g_value_get_enum (value);
      break;
    case PROP_ALIGN_CORNERS:
      priv->align_corners = g_value_get_boolean (value);
      break;
    case PROP_RECOMPUTE_SCALE_FACTOR:
      priv->recompute_scale_factor = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_upsample_class_init (GnnUpsampleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = gnn_upsample_get_property;
  object_class->set_property = gnn_upsample_set_property;
  module_class->forward = gnn_upsample_forward;
  module_class->extra_repr = gnn_upsample_extra_repr;

  /**
   * GnnUpsample:size:
   *
   * The output size of each spatial dimension, or one for all (`size`,
   * an `ax` variant); %NULL when the layer scales.
   *
   * Since: 0.1
   */
  properties[PROP_SIZE] = g_param_spec_variant ("size", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL, flags);
  /**
   * GnnUpsample:scale-factor:
   *
   * The multiplier of each spatial size, or one for all (`scale_factor`,
   * an `ad` variant); %NULL when the layer has a size.
   *
   * Since: 0.1
   */
  properties[PROP_SCALE_FACTOR] = g_param_spec_variant ("scale-factor", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                                                        flags);
  /**
   * GnnUpsample:mode:
   *
   * The interpolation (`mode`).
   *
   * Since: 0.1
   */
  properties[PROP_MODE] = g_param_spec_enum ("mode", NULL, NULL, GNN_TYPE_INTERPOLATE_MODE,
                                             GNN_INTERPOLATE_MODE_NEAREST, flags);
  /**
   * GnnUpsample:align-corners:
   *
   * For the linear and cubic modes, whether the corner pixels of input and
   * output are aligned (`align_corners`).
   *
   * Since: 0.1
   */
  properties[PROP_ALIGN_CORNERS] = g_param_spec_boolean ("align-corners", NULL, NULL, FALSE, flags);
  /**
   * GnnUpsample:recompute-scale-factor:
   *
   * With a scale factor, whether the coordinates follow the output size
   * instead of the factor (`recompute_scale_factor`).
   *
   * Since: 0.1
   */
  properties[PROP_RECOMPUTE_SCALE_FACTOR] = g_param_spec_boolean ("recompute-scale-factor", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_upsample_init (GnnUpsample *self)
{
}

/**
 * gnn_upsample_new:
 * @size: (array length=n_size) (nullable): the output size, one per
 *   spatial dimension or one for all
 * @n_size: the length of @size
 * @scale_factor: (array length=n_scale_factor) (nullable): the multiplier
 *   of each spatial size, one per dimension or one for all
 * @n_scale_factor: the length of @scale_factor
 * @mode: the interpolation
 * @align_corners: for the linear and cubic modes, whether corners align
 *
 * Creates a resampling layer, `torch.nn.Upsample (size, scale_factor,
 * mode, align_corners)`; give either @size or @scale_factor.
 *
 * Returns: (transfer full): the new layer
 *
 * Since: 0.1
 */
GnnUpsample *
gnn_upsample_new (const gint64       *size,
                  guint               n_size,
                  const double       *scale_factor,
                  guint               n_scale_factor,
                  GnnInterpolateMode  mode,
                  gboolean            align_corners)
{
  g_autoptr(GVariant) sv = NULL;
  g_autoptr(GVariant) fv = NULL;

  g_return_val_if_fail (size != NULL || n_size == 0, NULL);
  g_return_val_if_fail (scale_factor != NULL || n_scale_factor == 0, NULL);
  if (n_size > 0)
    sv = g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, size, n_size, sizeof (gint64)));
  if (n_scale_factor > 0)
    fv = g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, scale_factor, n_scale_factor,
                                                        sizeof (double)));
  return g_object_new (GNN_TYPE_UPSAMPLE, "size", sv, "scale-factor", fv, "mode", mode,
                       "align-corners", align_corners, NULL);
}

void
gnn_upsample_fix_mode (GnnUpsample        *self,
                       GnnInterpolateMode  mode,
                       gboolean            align_corners)
{
  PRIV (self)->mode = mode;
  PRIV (self)->align_corners = align_corners;
}
