/* gnn-max-pool2d.c: 2-d max pooling layer (torch.nn.MaxPool2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnMaxPool2d:
 *
 * 2-d max pooling over `[N, C, H, W]` or `[C, H, W]` inputs,
 * `torch.nn.MaxPool2d`, computed by [method@Gnn.Tensor.max_pool2d]. It has no
 * parameters; the configuration is held in construct-only properties.
 */
struct _GnnMaxPool2d
{
  GnnModule parent_instance;
  gint64    cfg[8];   /* indexed by prop id - 1 */
  gboolean  ceil_mode;
};

G_DEFINE_FINAL_TYPE (GnnMaxPool2d, gnn_max_pool2d, GNN_TYPE_MODULE)

enum
{
  PROP_0,
  PROP_KERNEL_H,
  PROP_KERNEL_W,
  PROP_STRIDE_H,
  PROP_STRIDE_W,
  PROP_PADDING_H,
  PROP_PADDING_W,
  PROP_DILATION_H,
  PROP_DILATION_W,
  PROP_CEIL_MODE,
  N_PROPS
};

#define CFG(self, prop) ((self)->cfg[(prop) - 1])

static GParamSpec *properties[N_PROPS];

static GnnTensor *
gnn_max_pool2d_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  GnnMaxPool2d *self = GNN_MAX_POOL2D (module);

  return gnn_tensor_max_pool2d (input, CFG (self, PROP_KERNEL_H), CFG (self, PROP_KERNEL_W),
                                CFG (self, PROP_STRIDE_H), CFG (self, PROP_STRIDE_W),
                                CFG (self, PROP_PADDING_H), CFG (self, PROP_PADDING_W),
                                CFG (self, PROP_DILATION_H), CFG (self, PROP_DILATION_W),
                                self->ceil_mode, error);
}

static char *
gnn_max_pool2d_extra_repr (GnnModule *module)
{
  GnnMaxPool2d *self = GNN_MAX_POOL2D (module);
  GString *s = g_string_new (NULL);

  gnn_nn_append_pair (s, "kernel_size", CFG (self, PROP_KERNEL_H), CFG (self, PROP_KERNEL_W), TRUE);
  gnn_nn_append_pair (s, "stride", CFG (self, PROP_STRIDE_H), CFG (self, PROP_STRIDE_W), TRUE);
  gnn_nn_append_pair (s, "padding", CFG (self, PROP_PADDING_H), CFG (self, PROP_PADDING_W), TRUE);
  gnn_nn_append_pair (s, "dilation", CFG (self, PROP_DILATION_H), CFG (self, PROP_DILATION_W), TRUE);
  g_string_append_printf (s, ", ceil_mode=%s", gnn_nn_bool_str (self->ceil_mode));
  return g_string_free (s, FALSE);
}

static void
gnn_max_pool2d_constructed (GObject *object)
{
  GnnMaxPool2d *self = GNN_MAX_POOL2D (object);

  G_OBJECT_CLASS (gnn_max_pool2d_parent_class)->constructed (object);

  gnn_nn_pool_default_stride (&CFG (self, PROP_STRIDE_H), &CFG (self, PROP_STRIDE_W),
                              CFG (self, PROP_KERNEL_H), CFG (self, PROP_KERNEL_W));
}

static void
gnn_max_pool2d_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GnnMaxPool2d *self = GNN_MAX_POOL2D (object);

  if (prop_id >= PROP_KERNEL_H && prop_id <= PROP_DILATION_W)
    g_value_set_int64 (value, CFG (self, prop_id));
  else if (prop_id == PROP_CEIL_MODE)
    g_value_set_boolean (value, self->ceil_mode);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_max_pool2d_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GnnMaxPool2d *self = GNN_MAX_POOL2D (object);

  if (prop_id >= PROP_KERNEL_H && prop_id <= PROP_DILATION_W)
    CFG (self, prop_id) = g_value_get_int64 (value);
  else if (prop_id == PROP_CEIL_MODE)
    self->ceil_mode = g_value_get_boolean (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_max_pool2d_class_init (GnnMaxPool2dClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  static const GnnPairSpec pairs[] = {
    { "kernel", 1, 1 }, { "stride", 0, 0 }, { "padding", 0, 0 }, { "dilation", 1, 1 },
  };

  object_class->constructed = gnn_max_pool2d_constructed;
  object_class->get_property = gnn_max_pool2d_get_property;
  object_class->set_property = gnn_max_pool2d_set_property;
  module_class->forward = gnn_max_pool2d_forward;
  module_class->extra_repr = gnn_max_pool2d_extra_repr;

  /**
   * GnnMaxPool2d:kernel-h:
   *
   * The window height (`kernel_size[0]`).
   */
  /**
   * GnnMaxPool2d:kernel-w:
   *
   * The window width (`kernel_size[1]`).
   */
  /**
   * GnnMaxPool2d:stride-h:
   *
   * The vertical stride (`stride[0]`); 0 for both strides at construction
   * means the kernel size (PyTorch's `stride=None`).
   */
  /**
   * GnnMaxPool2d:stride-w:
   *
   * The horizontal stride (`stride[1]`); see [property@Gnn.MaxPool2d:stride-h].
   */
  /**
   * GnnMaxPool2d:padding-h:
   *
   * The implicit -inf padding on the top and bottom (`padding[0]`).
   */
  /**
   * GnnMaxPool2d:padding-w:
   *
   * The implicit -inf padding on the left and right (`padding[1]`).
   */
  /**
   * GnnMaxPool2d:dilation-h:
   *
   * The vertical spacing between window taps (`dilation[0]`).
   */
  /**
   * GnnMaxPool2d:dilation-w:
   *
   * The horizontal spacing between window taps (`dilation[1]`).
   */
  gnn_nn_pair_properties (properties, PROP_KERNEL_H, pairs, G_N_ELEMENTS (pairs));
  /**
   * GnnMaxPool2d:ceil-mode:
   *
   * Whether the output size is rounded up instead of down (`ceil_mode`).
   */
  properties[PROP_CEIL_MODE] = gnn_nn_bool_property ("ceil-mode", FALSE);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_max_pool2d_init (GnnMaxPool2d *self)
{
  CFG (self, PROP_KERNEL_H) = CFG (self, PROP_KERNEL_W) = 1;
  CFG (self, PROP_DILATION_H) = CFG (self, PROP_DILATION_W) = 1;
}

/**
 * gnn_max_pool2d_new:
 * @kernel_size: the (square) window size (> 0)
 * @stride: the stride on both axes, or 0 for @kernel_size (PyTorch's
 *   `stride=None`)
 * @padding: the implicit -inf padding on both axes (at most half the window)
 * @dilation: the spacing between window taps (> 0; PyTorch's default is 1)
 * @ceil_mode: whether to round the output size up (default %FALSE)
 * @error: return location for a #GError
 *
 * Creates a max pooling layer, `torch.nn.MaxPool2d(kernel_size, stride,
 * padding, dilation, ceil_mode=ceil_mode)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) if a size is out of range
 */
GnnMaxPool2d *
gnn_max_pool2d_new (gint64    kernel_size,
                    gint64    stride,
                    gint64    padding,
                    gint64    dilation,
                    gboolean  ceil_mode,
                    GError  **error)
{
  return gnn_max_pool2d_new_full (kernel_size, kernel_size, stride, stride, padding, padding,
                                  dilation, dilation, ceil_mode, error);
}

/**
 * gnn_max_pool2d_new_full:
 * @kernel_h: the window height (> 0)
 * @kernel_w: the window width (> 0)
 * @stride_h: the vertical stride, or 0 (with @stride_w 0) for @kernel_h
 * @stride_w: the horizontal stride, or 0 (with @stride_h 0) for @kernel_w
 * @padding_h: the implicit -inf padding on the top and bottom
 * @padding_w: the implicit -inf padding on the left and right
 * @dilation_h: the vertical spacing between window taps (> 0)
 * @dilation_w: the horizontal spacing between window taps (> 0)
 * @ceil_mode: whether to round the output size up
 * @error: return location for a #GError
 *
 * Creates a max pooling layer with per-axis settings.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) if a size is out of range
 */
GnnMaxPool2d *
gnn_max_pool2d_new_full (gint64    kernel_h,
                         gint64    kernel_w,
                         gint64    stride_h,
                         gint64    stride_w,
                         gint64    padding_h,
                         gint64    padding_w,
                         gint64    dilation_h,
                         gint64    dilation_w,
                         gboolean  ceil_mode,
                         GError  **error)
{
  if (!gnn_nn_check_pool_args ("MaxPool2d", kernel_h, kernel_w, stride_h, stride_w,
                               padding_h, padding_w, dilation_h, dilation_w, error))
    return NULL;
  return g_object_new (GNN_TYPE_MAX_POOL2D,
                       "kernel-h", kernel_h, "kernel-w", kernel_w,
                       "stride-h", stride_h, "stride-w", stride_w,
                       "padding-h", padding_h, "padding-w", padding_w,
                       "dilation-h", dilation_h, "dilation-w", dilation_w,
                       "ceil-mode", ceil_mode, NULL);
}
