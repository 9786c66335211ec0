/* gnn-resize.c: resizing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "vision/gnn-vision-private.h"

/**
 * GnnResize:
 *
 * torchvision's `transforms.Resize(size, interpolation=BILINEAR,
 * max_size=None, antialias=None)` ([func@Gnn.vision_resize]): images
 * resampled as PIL resamples them, tensors as torch's `interpolate`.
 *
 * Since: 0.1
 */
struct _GnnResize
{
  GnnTransform  parent_instance;
  GVariant     *size;
  gint          interpolation;
  gint64        max_size;
  gboolean      antialias;
};

enum { PROP_0, PROP_SIZE, PROP_INTERPOLATION, PROP_MAX_SIZE, PROP_ANTIALIAS, N_PROPS };

G_DEFINE_FINAL_TYPE (GnnResize, gnn_resize, GNN_TYPE_TRANSFORM)

static gboolean
gnn_resize_validate (GnnTransform  *transform,
                     GError       **error)
{
  GnnResize *self = GNN_RESIZE (transform);
  gsize n;
  const gint64 *size = gnn_vision_variant_int64s (self->size, &n);
  gint64 h, w;

  /* a square input: checks the size and max_size as resizing will */
  return gnn_vision_resized_size (1, 1, size, n, self->max_size, &h, &w, error);
}

static GnnTensor *
gnn_resize_apply (GnnTransform  *transform,
                  GnnTensor     *input,
                  GError       **error)
{
  GnnResize *self = GNN_RESIZE (transform);
  gsize n;
  const gint64 *size = gnn_vision_variant_int64s (self->size, &n);

  return gnn_vision_resize (input, size, n, self->interpolation, self->max_size, self->antialias,
                            error);
}

static void
gnn_resize_class_init (GnnResizeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnTransformClass *transform_class = GNN_TRANSFORM_CLASS (klass);

  transform_class->apply = gnn_resize_apply;
  transform_class->validate = gnn_resize_validate;

  /**
   * GnnResize:size:
   *
   * The output size (an `ax` variant): [h, w], or one value, the size of
   * the smaller edge (the other keeps the aspect ratio).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_SIZE,
    g_param_spec_variant ("size", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnResize, size));
  /**
   * GnnResize:interpolation:
   *
   * How the input is sampled.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INTERPOLATION,
    g_param_spec_enum ("interpolation", NULL, NULL, GNN_TYPE_INTERPOLATION_MODE,
                       GNN_INTERPOLATION_MODE_BILINEAR,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnResize, interpolation));
  /**
   * GnnResize:max-size:
   *
   * With one size value: the largest the longer edge may become (-1: no
   * limit, torchvision's None).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_MAX_SIZE,
    g_param_spec_int64 ("max-size", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnResize, max_size));
  /**
   * GnnResize:antialias:
   *
   * For tensors: whether reducing filters as PIL does (torchvision's
   * `antialias=True`; its default for tensors is no filter). Images are
   * always filtered, as PIL resizes them.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_ANTIALIAS,
    g_param_spec_boolean ("antialias", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnResize, antialias));
}

static void
gnn_resize_init (GnnResize *self)
{
  self->interpolation = GNN_INTERPOLATION_MODE_BILINEAR;
  self->max_size = -1;
}

/**
 * gnn_resize_new:
 * @size: (array length=n_size): [h, w], or the size of the smaller edge
 * @n_size: 1 or 2
 * @interpolation: how the input is sampled
 * @max_size: the limit of the longer edge, or -1
 * @antialias: for tensors, whether to filter when reducing
 * @error: return location for a #GError
 *
 * Creates the transform, like `transforms.Resize(size, interpolation,
 * max_size, antialias)`.
 *
 * Returns: (transfer full): the transform, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnResize *
gnn_resize_new (const gint64          *size,
                gsize                  n_size,
                GnnInterpolationMode   interpolation,
                gint64                 max_size,
                gboolean               antialias,
                GError               **error)
{
  return g_initable_new (GNN_TYPE_RESIZE, NULL, error,
                         "size", gnn_vision_int64s_variant (size, n_size),
                         "interpolation", interpolation, "max-size", max_size,
                         "antialias", antialias, NULL);
}
