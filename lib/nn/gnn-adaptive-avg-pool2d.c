/* gnn-adaptive-avg-pool2d.c: average pooling to a fixed output size
 * (torch.nn.AdaptiveAvgPool2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"

/**
 * GnnAdaptiveAvgPool2d:
 *
 * Averages each plane of a `(N, C, H, W)` or `(C, H, W)` input down to
 * [property@Gnn.AdaptiveAvgPool2d:output-h] ×
 * [property@Gnn.AdaptiveAvgPool2d:output-w], like
 * `torch.nn.AdaptiveAvgPool2d(output_size)`: output cell `i` of a side of
 * length `L` averages `[floor(i·L/out), ceil((i+1)·L/out))`.
 *
 * This is the piece torchvision's classifiers use (their heads pool to
 * 1×1, or to the size the features already have): a 1×1 output is the mean
 * over the last two dimensions, as torch computes it, and a side that
 * divides evenly is an average pooling of stride `L/out` (the same
 * windows); other sizes are refused with an error naming them.
 *
 * Since: 0.1
 */
struct _GnnAdaptiveAvgPool2d
{
  GnnModule parent_instance;
  gint64    output_h;
  gint64    output_w;
};

enum {
  PROP_0,
  PROP_OUTPUT_H,
  PROP_OUTPUT_W,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnAdaptiveAvgPool2d, gnn_adaptive_avg_pool2d, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static gboolean
check_output_size (gint64    output_h,
                   gint64    output_w,
                   GError  **error)
{
  if (output_h >= 1 && output_w >= 1 && output_h <= G_MAXINT32 && output_w <= G_MAXINT32)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "adaptive_avg_pool2d(): output_size must be between 1 and 2^31 - 1, got (%"
               G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", output_h, output_w);
  return FALSE;
}

/**
 * gnn_tensor_adaptive_avg_pool2d:
 * @input: a `(N, C, H, W)` or `(C, H, W)` tensor
 * @output_h: the output's height
 * @output_w: the output's width
 * @error: return location for a #GError
 *
 * `torch.nn.functional.adaptive_avg_pool2d(input, (output_h, output_w))`
 * for the sizes [class@Gnn.AdaptiveAvgPool2d] supports: a 1×1 output, or
 * sides that divide the input's evenly. Differentiable.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_avg_pool2d (GnnTensor  *input,
                                gint64      output_h,
                                gint64      output_w,
                                GError    **error)
{
  static const gint last_two[] = { -2, -1 };
  guint ndim;
  const gint64 *shape;
  gint64 h, w;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);

  ndim = gnn_tensor_get_ndim (input);
  shape = gnn_tensor_get_shape (input, NULL);
  if (ndim != 3 && ndim != 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got a %uD tensor", ndim);
      return NULL;
    }
  if (!check_output_size (output_h, output_w, error))
    return NULL;
  h = shape[ndim - 2];
  w = shape[ndim - 1];
  if (h < 1 || w < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                   "dimensions, but input has sizes [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]",
                   h, w);
      return NULL;
    }
  if (output_h == 1 && output_w == 1)   /* torch's own shortcut */
    return gnn_tensor_mean (input, last_two, 2, TRUE, error);
  if (h % output_h != 0 || w % output_w != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "adaptive_avg_pool2d(): an input of %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   " pooled to %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " (uneven windows) is not "
                   "supported yet", h, w, output_h, output_w);
      return NULL;
    }
  return gnn_tensor_avg_pool2d (input, h / output_h, w / output_w, h / output_h, w / output_w,
                                0, 0, FALSE, TRUE, 0, error);
}

static GnnTensor *
gnn_adaptive_avg_pool2d_forward (GnnModule  *module,
                                 GnnTensor  *input,
                                 GError    **error)
{
  GnnAdaptiveAvgPool2d *self = GNN_ADAPTIVE_AVG_POOL2D (module);

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  return gnn_tensor_adaptive_avg_pool2d (input, self->output_h, self->output_w, error);
}

static char *
gnn_adaptive_avg_pool2d_extra_repr (GnnModule *module)
{
  GnnAdaptiveAvgPool2d *self = GNN_ADAPTIVE_AVG_POOL2D (module);

  /* torch prints the size as given; torchvision's models give pairs */
  return g_strdup_printf ("output_size=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                          self->output_h, self->output_w);
}

static void
gnn_adaptive_avg_pool2d_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GnnAdaptiveAvgPool2d *self = GNN_ADAPTIVE_AVG_POOL2D (object);

  switch (prop_id)
    {
    case PROP_OUTPUT_H:
      g_value_set_int64 (value, self->output_h);
      break;
    case PROP_OUTPUT_W:
      g_value_set_int64 (value, self->output_w);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_adaptive_avg_pool2d_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GnnAdaptiveAvgPool2d *self = GNN_ADAPTIVE_AVG_POOL2D (object);

  switch (prop_id)
    {
    case PROP_OUTPUT_H:
      self->output_h = g_value_get_int64 (value);
      break;
    case PROP_OUTPUT_W:
      self->output_w = g_value_get_int64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_adaptive_avg_pool2d_constructed (GObject *object)
{
  GnnAdaptiveAvgPool2d *self = GNN_ADAPTIVE_AVG_POOL2D (object);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_adaptive_avg_pool2d_parent_class)->constructed (object);
  if (!check_output_size (self->output_h, self->output_w, &error))
    {
      g_prefix_error (&error, "AdaptiveAvgPool2d: ");
      gnn_nn_set_construct_error (object, error);
    }
}

static void
gnn_adaptive_avg_pool2d_class_init (GnnAdaptiveAvgPool2dClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_adaptive_avg_pool2d_constructed;
  object_class->get_property = gnn_adaptive_avg_pool2d_get_property;
  object_class->set_property = gnn_adaptive_avg_pool2d_set_property;
  module_class->forward = gnn_adaptive_avg_pool2d_forward;
  module_class->extra_repr = gnn_adaptive_avg_pool2d_extra_repr;

  /**
   * GnnAdaptiveAvgPool2d:output-h:
   *
   * The output's height.
   *
   * Since: 0.1
   */
  properties[PROP_OUTPUT_H] =
    g_param_spec_int64 ("output-h", NULL, NULL, G_MININT32, G_MAXINT32, 1, flags);
  /**
   * GnnAdaptiveAvgPool2d:output-w:
   *
   * The output's width.
   *
   * Since: 0.1
   */
  properties[PROP_OUTPUT_W] =
    g_param_spec_int64 ("output-w", NULL, NULL, G_MININT32, G_MAXINT32, 1, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_adaptive_avg_pool2d_init (GnnAdaptiveAvgPool2d *self)
{
  self->output_h = self->output_w = 1;
}

/**
 * gnn_adaptive_avg_pool2d_new:
 * @output_h: the output's height
 * @output_w: the output's width
 * @error: return location for a #GError
 *
 * Creates `torch.nn.AdaptiveAvgPool2d((output_h, output_w))`.
 *
 * Returns: (transfer full): the layer, or %NULL when a size is out of range
 *
 * Since: 0.1
 */
GnnAdaptiveAvgPool2d *
gnn_adaptive_avg_pool2d_new (gint64    output_h,
                             gint64    output_w,
                             GError  **error)
{
  if (!check_output_size (output_h, output_w, error))
    return NULL;
  return gnn_nn_initable_new (GNN_TYPE_ADAPTIVE_AVG_POOL2D, error, "output-h", output_h,
                              "output-w", output_w, NULL);
}
