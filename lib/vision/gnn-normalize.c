/* gnn-normalize.c: per-channel normalization
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnNormalize:
 *
 * torchvision's `transforms.Normalize(mean, std, inplace=False)`: `(x -
 * mean[c]) / std[c]` on a float tensor image ([func@Gnn.vision_normalize]).
 *
 * Since: 0.1
 */
struct _GnnNormalize
{
  GnnTransform  parent_instance;
  GVariant     *mean;
  GVariant     *std;
  gboolean      inplace;
};

enum { PROP_0, PROP_MEAN, PROP_STD, PROP_INPLACE, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnNormalize, gnn_normalize, GNN_TYPE_TRANSFORM)

static gboolean
gnn_normalize_validate (GnnTransform  *transform,
                        GError       **error)
{
  GnnNormalize *self = GNN_NORMALIZE (transform);
  gsize nm, ns;

  gnn_vision_variant_doubles (self->mean, &nm);
  gnn_vision_variant_doubles (self->std, &ns);
  if (nm == 0 || ns == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Normalize: mean and std must each hold at least one value");
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
gnn_normalize_apply (GnnTransform  *transform,
                     GnnTensor     *input,
                     GError       **error)
{
  GnnNormalize *self = GNN_NORMALIZE (transform);
  gsize nm, ns;
  const double *mean = gnn_vision_variant_doubles (self->mean, &nm);
  const double *std = gnn_vision_variant_doubles (self->std, &ns);

  return gnn_vision_normalize (input, mean, nm, std, ns, self->inplace, error);
}

void
gnn_normalize_get_values (GnnNormalize  *self,
                          const double **mean,
                          gsize         *n_mean,
                          const double **std,
                          gsize         *n_std)
{
  *mean = gnn_vision_variant_doubles (self->mean, n_mean);
  *std = gnn_vision_variant_doubles (self->std, n_std);
}

static void
gnn_normalize_class_init (GnnNormalizeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_normalize_apply;
  transform_class->validate = gnn_normalize_validate;

  /**
   * GnnNormalize:mean:
   *
   * The mean of each channel (an `ad` variant: one value, or one per
   * channel).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_MEAN,
    g_param_spec_variant ("mean", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnNormalize, mean));
  /**
   * GnnNormalize:std:
   *
   * The standard deviation of each channel (an `ad` variant: one value, or
   * one per channel).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_STD,
    g_param_spec_variant ("std", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnNormalize, std));
  /**
   * GnnNormalize:inplace:
   *
   * Whether the input tensor is overwritten with the result.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INPLACE,
    g_param_spec_boolean ("inplace", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnNormalize, inplace));
}

static void
gnn_normalize_init (GnnNormalize *self)
{
}

/**
 * gnn_normalize_new:
 * @mean: (array length=n_mean): the mean of each channel (or one for all)
 * @n_mean: the number of means
 * @std: (array length=n_std): the standard deviation of each channel (or
 *   one for all)
 * @n_std: the number of standard deviations
 * @inplace: whether the input is overwritten
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.Normalize(mean, std, inplace)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnNormalize *
gnn_normalize_new (const double  *mean,
                   gsize          n_mean,
                   const double  *std,
                   gsize          n_std,
                   gboolean       inplace,
                   GError       **error)
{
  return g_initable_new (GNN_TYPE_NORMALIZE, NULL, error,
                         "mean", gnn_vision_doubles_variant (mean, n_mean),
                         "std", gnn_vision_doubles_variant (std, n_std),
                         "inplace", inplace, NULL);
}
