/* gnn-avg-pool2d.c: 2-d average pooling layer (torch.nn.AvgPool2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnAvgPool2d:
 *
 * 2-d average pooling over `[N, C, H, W]` or `[C, H, W]` inputs,
 * `torch.nn.AvgPool2d`, computed by [method@Gnn.Tensor.avg_pool2d]. It has no
 * parameters; the configuration is held in construct-only properties.
 */
struct _GnnAvgPool2d
{
  GnnModule parent_instance;
  gint64    cfg[6];   /* indexed by prop id - 1 */
  gboolean  ceil_mode;
  gboolean  count_include_pad;
  gint64    divisor_override;
};

G_DEFINE_FINAL_TYPE (GnnAvgPool2d, gnn_avg_pool2d, GNN_TYPE_MODULE)

enum
{
  PROP_0,
  PROP_KERNEL_H,
  PROP_KERNEL_W,
  PROP_STRIDE_H,
  PROP_STRIDE_W,
  PROP_PADDING_H,
  PROP_PADDING_W,
  PROP_CEIL_MODE,
  PROP_COUNT_INCLUDE_PAD,
  PROP_DIVISOR_OVERRIDE,
  N_PROPS
};

#define CFG(self, prop) ((self)->cfg[(prop) - 1])

static GParamSpec *properties[N_PROPS];

static GnnTensor *
gnn_avg_pool2d_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  GnnAvgPool2d *self = GNN_AVG_POOL2D (module);

  return gnn_tensor_avg_pool2d (input, CFG (self, PROP_KERNEL_H), CFG (self, PROP_KERNEL_W),
                                CFG (self, PROP_STRIDE_H), CFG (self, PROP_STRIDE_W),
                                CFG (self, PROP_PADDING_H), CFG (self, PROP_PADDING_W),
                                self->ceil_mode, self->count_include_pad,
                                self->divisor_override, error);
}

static char *
gnn_avg_pool2d_extra_repr (GnnModule *module)
{
  GnnAvgPool2d *self = GNN_AVG_POOL2D (module);
  GString *s = g_string_new (NULL);

  gnn_nn_append_pair (s, "kernel_size", CFG (self, PROP_KERNEL_H), CFG (self, PROP_KERNEL_W), TRUE);
  gnn_nn_append_pair (s, "stride", CFG (self, PROP_STRIDE_H), CFG (self, PROP_STRIDE_W), TRUE);
  gnn_nn_append_pair (s, "padding", CFG (self, PROP_PADDING_H), CFG (self, PROP_PADDING_W), TRUE);
  return g_string_free (s, FALSE);
}

static void
gnn_avg_pool2d_constructed (GObject *object)
{
  GnnAvgPool2d *self = GNN_AVG_POOL2D (object);

  G_OBJECT_CLASS (gnn_avg_pool2d_parent_class)->constructed (object);

  gnn_nn_pool_default_stride (&CFG (self, PROP_STRIDE_H), &CFG (self, PROP_STRIDE_W),
                              CFG (self, PROP_KERNEL_H), CFG (self, PROP_KERNEL_W));
}

static void
gnn_avg_pool2d_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GnnAvgPool2d *self = GNN_AVG_POOL2D (object);

  if (prop_id >= PROP_KERNEL_H && prop_id <= PROP_PADDING_W)
    g_value_set_int64 (value, CFG (self, prop_id));
  else if (prop_id == PROP_CEIL_MODE)
    g_value_set_boolean (value, self->ceil_mode);
  else if (prop_id == PROP_COUNT_INCLUDE_PAD)
    g_value_set_boolean (value, self->count_include_pad);
  else if (prop_id == PROP_DIVISOR_OVERRIDE)
    g_value_set_int64 (value, self->divisor_override);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_avg_pool2d_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GnnAvgPool2d *self = GNN_AVG_POOL2D (object);

  if (prop_id >= PROP_KERNEL_H && prop_id <= PROP_PADDING_W)
    CFG (self, prop_id) = g_value_get_int64 (value);
  else if (prop_id == PROP_CEIL_MODE)
    self->ceil_mode = g_value_get_boolean (value);
  else if (prop_id == PROP_COUNT_INCLUDE_PAD)
    self->count_include_pad = g_value_get_boolean (value);
  else if (prop_id == PROP_DIVISOR_OVERRIDE)
    self->divisor_override = g_value_get_int64 (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_avg_pool2d_class_init (GnnAvgPool2dClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  static const GnnPairSpec pairs[] = {
    { "kernel", 1, 1 }, { "stride", 0, 0 }, { "padding", 0, 0 },
  };

  object_class->constructed = gnn_avg_pool2d_constructed;
  object_class->get_property = gnn_avg_pool2d_get_property;
  object_class->set_property = gnn_avg_pool2d_set_property;
  module_class->forward = gnn_avg_pool2d_forward;
  module_class->extra_repr = gnn_avg_pool2d_extra_repr;

  /**
   * GnnAvgPool2d:kernel-h:
   *
   * The window height (`kernel_size[0]`).
   */
  /**
   * GnnAvgPool2d:kernel-w:
   *
   * The window width (`kernel_size[1]`).
   */
  /**
   * GnnAvgPool2d:stride-h:
   *
   * The vertical stride (`stride[0]`); 0 for both strides at construction
   * means the kernel size (PyTorch's `stride=None`).
   */
  /**
   * GnnAvgPool2d:stride-w:
   *
   * The horizontal stride (`stride[1]`); see [property@Gnn.AvgPool2d:stride-h].
   */
  /**
   * GnnAvgPool2d:padding-h:
   *
   * The implicit zero padding on the top and bottom (`padding[0]`).
   */
  /**
   * GnnAvgPool2d:padding-w:
   *
   * The implicit zero padding on the left and right (`padding[1]`).
   */
  gnn_nn_pair_properties (properties, PROP_KERNEL_H, pairs, G_N_ELEMENTS (pairs));
  /**
   * GnnAvgPool2d:ceil-mode:
   *
   * Whether the output size is rounded up instead of down (`ceil_mode`).
   */
  properties[PROP_CEIL_MODE] = gnn_nn_bool_property ("ceil-mode", FALSE);
  /**
   * GnnAvgPool2d:count-include-pad:
   *
   * Whether the zero padding counts in the divisor (`count_include_pad`).
   */
  properties[PROP_COUNT_INCLUDE_PAD] = gnn_nn_bool_property ("count-include-pad", TRUE);
  /**
   * GnnAvgPool2d:divisor-override:
   *
   * A fixed divisor, or 0 to divide by the window size (PyTorch's
   * `divisor_override=None`).
   */
  properties[PROP_DIVISOR_OVERRIDE] =
    g_param_spec_int64 ("divisor-override", NULL, NULL, G_MININT32, G_MAXINT32, 0,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_avg_pool2d_init (GnnAvgPool2d *self)
{
  CFG (self, PROP_KERNEL_H) = CFG (self, PROP_KERNEL_W) = 1;
  self->count_include_pad = TRUE;
}

/**
 * gnn_avg_pool2d_new:
 * @kernel_size: the (square) window size (> 0)
 * @stride: the stride on both axes, or 0 for @kernel_size (PyTorch's
 *   `stride=None`)
 * @padding: the implicit zero padding on both axes (at most half the window)
 * @ceil_mode: whether to round the output size up (default %FALSE)
 * @count_include_pad: whether the padding counts in the divisor (default
 *   %TRUE)
 * @divisor_override: a fixed divisor, or 0 for the window size (PyTorch's
 *   `None`)
 * @error: return location for a #GError
 *
 * Creates an average pooling layer, `torch.nn.AvgPool2d(kernel_size,
 * stride, padding, ceil_mode, count_include_pad, divisor_override)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) if a size is out of range
 */
GnnAvgPool2d *
gnn_avg_pool2d_new (gint64    kernel_size,
                    gint64    stride,
                    gint64    padding,
                    gboolean  ceil_mode,
                    gboolean  count_include_pad,
                    gint64    divisor_override,
                    GError  **error)
{
  return gnn_avg_pool2d_new_full (kernel_size, kernel_size, stride, stride, padding, padding,
                                  ceil_mode, count_include_pad, divisor_override, error);
}

/**
 * gnn_avg_pool2d_new_full:
 * @kernel_h: the window height (> 0)
 * @kernel_w: the window width (> 0)
 * @stride_h: the vertical stride, or 0 (with @stride_w 0) for @kernel_h
 * @stride_w: the horizontal stride, or 0 (with @stride_h 0) for @kernel_w
 * @padding_h: the implicit zero padding on the top and bottom
 * @padding_w: the implicit zero padding on the left and right
 * @ceil_mode: whether to round the output size up
 * @count_include_pad: whether the padding counts in the divisor
 * @divisor_override: a fixed divisor, or 0 for the window size
 * @error: return location for a #GError
 *
 * Creates an average pooling layer with per-axis settings.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) if a size is out of range
 */
GnnAvgPool2d *
gnn_avg_pool2d_new_full (gint64    kernel_h,
                         gint64    kernel_w,
                         gint64    stride_h,
                         gint64    stride_w,
                         gint64    padding_h,
                         gint64    padding_w,
                         gboolean  ceil_mode,
                         gboolean  count_include_pad,
                         gint64    divisor_override,
                         GError  **error)
{
  if (!gnn_nn_check_pool_args ("AvgPool2d", kernel_h, kernel_w, stride_h, stride_w,
                               padding_h, padding_w, 1, 1, error))
    return NULL;
  if (divisor_override < G_MININT32 || divisor_override > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "AvgPool2d: divisor_override %" G_GINT64_FORMAT " is out of range", divisor_override);
      return NULL;
    }
  return g_object_new (GNN_TYPE_AVG_POOL2D,
                       "kernel-h", kernel_h, "kernel-w", kernel_w,
                       "stride-h", stride_h, "stride-w", stride_w,
                       "padding-h", padding_h, "padding-w", padding_w,
                       "ceil-mode", ceil_mode, "count-include-pad", count_include_pad,
                       "divisor-override", divisor_override, NULL);
}
