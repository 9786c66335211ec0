/* gnn-pool2d.c: 2-d pooling layers (torch.nn.MaxPool2d, torch.nn.AvgPool2d)
 * sharing one configuration, property table and construction check
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
 *
 * Since: 0.1
 */

/**
 * GnnAvgPool2d:
 *
 * 2-d average pooling over `[N, C, H, W]` or `[C, H, W]` inputs,
 * `torch.nn.AvgPool2d`, computed by [method@Gnn.Tensor.avg_pool2d]. It has no
 * parameters; the configuration is held in construct-only properties.
 *
 * Since: 0.1
 */

enum
{
  PROP_0,
  PROP_KERNEL_H,
  PROP_KERNEL_W,
  PROP_STRIDE_H,
  PROP_STRIDE_W,
  PROP_PADDING_H,
  PROP_PADDING_W,
  PROP_DILATION_H,     /* max only */
  PROP_DILATION_W,     /* max only */
  PROP_CEIL_MODE,
  PROP_COUNT_INCLUDE_PAD,  /* avg only */
  PROP_DIVISOR_OVERRIDE,   /* avg only */
  PROP_RETURN_INDICES,     /* max only */
  N_PROPS
};

/* The configuration of both layers; the avg-only fields stay at their
 * defaults in a max pool, and dilation stays 1 in an avg pool. */
typedef struct
{
  gint64   cfg[8];   /* kernel, stride, padding, dilation (h, w): prop id - 1 */
  gboolean ceil_mode;
  gboolean count_include_pad;
  gint64   divisor_override;
  gboolean return_indices;
} Pool2d;

#define CFG(pool, prop) ((pool)->cfg[(prop) - 1])

struct _GnnMaxPool2d
{
  GnnModule parent_instance;
  Pool2d    pool;
};

struct _GnnAvgPool2d
{
  GnnModule parent_instance;
  Pool2d    pool;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnMaxPool2d, gnn_max_pool2d, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))
G_DEFINE_FINAL_TYPE_WITH_CODE (GnnAvgPool2d, gnn_avg_pool2d, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static Pool2d *
pool_of (gpointer object)
{
  if (GNN_IS_AVG_POOL2D (object))
    return &GNN_AVG_POOL2D (object)->pool;
  return &GNN_MAX_POOL2D (object)->pool;
}

static GnnTensor *
max_forward (GnnModule   *module,
             GnnTensor   *input,
             GnnTensor  **indices,
             GError     **error)
{
  Pool2d *p = pool_of (module);

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  if (indices != NULL)
    return gnn_tensor_max_pool2d_with_indices (input, CFG (p, PROP_KERNEL_H), CFG (p, PROP_KERNEL_W),
                                               CFG (p, PROP_STRIDE_H), CFG (p, PROP_STRIDE_W),
                                               CFG (p, PROP_PADDING_H), CFG (p, PROP_PADDING_W),
                                               CFG (p, PROP_DILATION_H), CFG (p, PROP_DILATION_W),
                                               p->ceil_mode, indices, error);
  return gnn_tensor_max_pool2d (input, CFG (p, PROP_KERNEL_H), CFG (p, PROP_KERNEL_W),
                                CFG (p, PROP_STRIDE_H), CFG (p, PROP_STRIDE_W),
                                CFG (p, PROP_PADDING_H), CFG (p, PROP_PADDING_W),
                                CFG (p, PROP_DILATION_H), CFG (p, PROP_DILATION_W),
                                p->ceil_mode, error);
}

static GnnTensor *
pool_forward (GnnModule  *module,
              GnnTensor  *input,
              GError    **error)
{
  Pool2d *p = pool_of (module);

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  if (GNN_IS_AVG_POOL2D (module))
    return gnn_tensor_avg_pool2d (input, CFG (p, PROP_KERNEL_H), CFG (p, PROP_KERNEL_W),
                                  CFG (p, PROP_STRIDE_H), CFG (p, PROP_STRIDE_W),
                                  CFG (p, PROP_PADDING_H), CFG (p, PROP_PADDING_W),
                                  p->ceil_mode, p->count_include_pad, p->divisor_override, error);
  return gnn_nn_forward_without_indices (module, input, p->return_indices, max_forward, error);
}

/* torch's `(output, indices)` with return_indices. */
static GnnValue *
max_forward_args (GnnModule  *module,
                  GnnValue   *args,
                  GnnValue   *kwargs,
                  GError    **error)
{
  return gnn_nn_forward_with_indices (module, args, kwargs, pool_of (module)->return_indices, max_forward,
                                      error);
}

static char *
pool_extra_repr (GnnModule *module)
{
  Pool2d *p = pool_of (module);
  GString *s = g_string_new (NULL);
  gboolean avg = GNN_IS_AVG_POOL2D (module);

  gnn_nn_append_pair (s, "kernel_size", CFG (p, PROP_KERNEL_H), CFG (p, PROP_KERNEL_W), TRUE);
  gnn_nn_append_pair (s, "stride", CFG (p, PROP_STRIDE_H), CFG (p, PROP_STRIDE_W), TRUE);
  gnn_nn_append_pair (s, "padding", CFG (p, PROP_PADDING_H), CFG (p, PROP_PADDING_W), TRUE);
  if (!avg)
    {
      gnn_nn_append_pair (s, "dilation", CFG (p, PROP_DILATION_H), CFG (p, PROP_DILATION_W), TRUE);
      g_string_append_printf (s, ", ceil_mode=%s", gnn_nn_bool_str (p->ceil_mode));
    }
  return g_string_free (s, FALSE);
}

/* The properties are only bounded one by one; their combination is checked
 * here, once, for g_object_new() and the constructors alike. */
static void
pool_constructed (GObject *object)
{
  Pool2d *p = pool_of (object);
  GError *error = NULL;
  gpointer parent_class = GNN_IS_AVG_POOL2D (object) ? gnn_avg_pool2d_parent_class
                                                     : gnn_max_pool2d_parent_class;

  G_OBJECT_CLASS (parent_class)->constructed (object);
  if (!gnn_nn_check_pool_args (GNN_IS_AVG_POOL2D (object) ? "AvgPool2d" : "MaxPool2d",
                               CFG (p, PROP_KERNEL_H), CFG (p, PROP_KERNEL_W),
                               CFG (p, PROP_STRIDE_H), CFG (p, PROP_STRIDE_W),
                               CFG (p, PROP_PADDING_H), CFG (p, PROP_PADDING_W),
                               CFG (p, PROP_DILATION_H), CFG (p, PROP_DILATION_W), &error))
    gnn_nn_set_construct_error (object, error);
  gnn_nn_pool_default_stride (&CFG (p, PROP_STRIDE_H), &CFG (p, PROP_STRIDE_W),
                              CFG (p, PROP_KERNEL_H), CFG (p, PROP_KERNEL_W));
}

static void
pool_get_property (GObject    *object,
                   guint       prop_id,
                   GValue     *value,
                   GParamSpec *pspec)
{
  Pool2d *p = pool_of (object);

  if (prop_id >= PROP_KERNEL_H && prop_id <= PROP_DILATION_W)
    g_value_set_int64 (value, CFG (p, prop_id));
  else if (prop_id == PROP_CEIL_MODE)
    g_value_set_boolean (value, p->ceil_mode);
  else if (prop_id == PROP_COUNT_INCLUDE_PAD)
    g_value_set_boolean (value, p->count_include_pad);
  else if (prop_id == PROP_DIVISOR_OVERRIDE)
    g_value_set_int64 (value, p->divisor_override);
  else if (prop_id == PROP_RETURN_INDICES)
    g_value_set_boolean (value, p->return_indices);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
pool_set_property (GObject      *object,
                   guint         prop_id,
                   const GValue *value,
                   GParamSpec   *pspec)
{
  Pool2d *p = pool_of (object);

  if (prop_id >= PROP_KERNEL_H && prop_id <= PROP_DILATION_W)
    CFG (p, prop_id) = g_value_get_int64 (value);
  else if (prop_id == PROP_CEIL_MODE)
    p->ceil_mode = g_value_get_boolean (value);
  else if (prop_id == PROP_COUNT_INCLUDE_PAD)
    p->count_include_pad = g_value_get_boolean (value);
  else if (prop_id == PROP_DIVISOR_OVERRIDE)
    p->divisor_override = g_value_get_int64 (value);
  else if (prop_id == PROP_RETURN_INDICES)
    p->return_indices = g_value_get_boolean (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* Installs the properties both layers have, plus dilation (max) or
 * count-include-pad and divisor-override (avg). */
static void
pool_class_init (GObjectClass *object_class,
                 gboolean      avg)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (object_class);
  static const GnnPairSpec pairs[] = {
    { "kernel", 1, 1 }, { "stride", 0, 0 }, { "padding", 0, 0 }, { "dilation", 1, 1 },
  };
  GParamSpec *properties[N_PROPS] = { NULL, };

  object_class->constructed = pool_constructed;
  object_class->get_property = pool_get_property;
  object_class->set_property = pool_set_property;
  module_class->forward = pool_forward;
  module_class->extra_repr = pool_extra_repr;

  gnn_nn_pair_properties (properties, PROP_KERNEL_H, pairs, G_N_ELEMENTS (pairs) - (avg ? 1 : 0));
  properties[PROP_CEIL_MODE] = gnn_nn_bool_property ("ceil-mode", FALSE);
  if (avg)
    {
      properties[PROP_COUNT_INCLUDE_PAD] = gnn_nn_bool_property ("count-include-pad", TRUE);
      properties[PROP_DIVISOR_OVERRIDE] =
        g_param_spec_int64 ("divisor-override", NULL, NULL, G_MININT32, G_MAXINT32, 0,
                            G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
    }
  else
    {
      properties[PROP_RETURN_INDICES] = gnn_nn_bool_property ("return-indices", FALSE);
      module_class->forward_args = max_forward_args;
    }
  for (guint id = 1; id < N_PROPS; id++)
    if (properties[id] != NULL)
      g_object_class_install_property (object_class, id, properties[id]);
}

static void
pool_init (Pool2d *p)
{
  CFG (p, PROP_KERNEL_H) = CFG (p, PROP_KERNEL_W) = 1;
  CFG (p, PROP_DILATION_H) = CFG (p, PROP_DILATION_W) = 1;
  p->count_include_pad = TRUE;
}

static void
gnn_max_pool2d_class_init (GnnMaxPool2dClass *klass)
{
  /**
   * GnnMaxPool2d:kernel-h:
   *
   * The window height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:kernel-w:
   *
   * The window width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:stride-h:
   *
   * The vertical stride (`stride[0]`); 0 for both strides at construction
   * means the kernel size (PyTorch's `stride=None`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:stride-w:
   *
   * The horizontal stride (`stride[1]`); see [property@Gnn.MaxPool2d:stride-h].
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:padding-h:
   *
   * The implicit -inf padding on the top and bottom (`padding[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:padding-w:
   *
   * The implicit -inf padding on the left and right (`padding[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:dilation-h:
   *
   * The vertical spacing between window taps (`dilation[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:dilation-w:
   *
   * The horizontal spacing between window taps (`dilation[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:ceil-mode:
   *
   * Whether the output size is rounded up instead of down (`ceil_mode`).
   *
   * Since: 0.1
   */
  /**
   * GnnMaxPool2d:return-indices:
   *
   * Whether a call returns torch's `(output, indices)`, the indices as
   * [method@Gnn.Tensor.max_unpool] takes them (`return_indices`); the
   * one-tensor [method@Gnn.Module.call] then fails.
   *
   * Since: 0.1
   */
  pool_class_init (G_OBJECT_CLASS (klass), FALSE);
}

static void
gnn_avg_pool2d_class_init (GnnAvgPool2dClass *klass)
{
  /**
   * GnnAvgPool2d:kernel-h:
   *
   * The window height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool2d:kernel-w:
   *
   * The window width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool2d:stride-h:
   *
   * The vertical stride (`stride[0]`); 0 for both strides at construction
   * means the kernel size (PyTorch's `stride=None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool2d:stride-w:
   *
   * The horizontal stride (`stride[1]`); see [property@Gnn.AvgPool2d:stride-h].
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool2d:padding-h:
   *
   * The implicit zero padding on the top and bottom (`padding[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool2d:padding-w:
   *
   * The implicit zero padding on the left and right (`padding[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool2d:ceil-mode:
   *
   * Whether the output size is rounded up instead of down (`ceil_mode`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool2d:count-include-pad:
   *
   * Whether the zero padding counts in the divisor (`count_include_pad`).
   *
   * Since: 0.1
   */
  /**
   * GnnAvgPool2d:divisor-override:
   *
   * A fixed divisor, or 0 to divide by the window size (PyTorch's
   * `divisor_override=None`).
   *
   * Since: 0.1
   */
  pool_class_init (G_OBJECT_CLASS (klass), TRUE);
}

static void
gnn_max_pool2d_init (GnnMaxPool2d *self)
{
  pool_init (&self->pool);
}

static void
gnn_avg_pool2d_init (GnnAvgPool2d *self)
{
  pool_init (&self->pool);
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
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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
  /* Checked before they become properties, whose own range check would
   * only warn. */
  if (!gnn_nn_check_pool_args ("MaxPool2d", kernel_h, kernel_w, stride_h, stride_w,
                               padding_h, padding_w, dilation_h, dilation_w, error))
    return NULL;
  return gnn_nn_initable_new (GNN_TYPE_MAX_POOL2D, error,
                              "kernel-h", kernel_h, "kernel-w", kernel_w,
                              "stride-h", stride_h, "stride-w", stride_w,
                              "padding-h", padding_h, "padding-w", padding_w,
                              "dilation-h", dilation_h, "dilation-w", dilation_w,
                              "ceil-mode", ceil_mode, NULL);
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
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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
  return gnn_nn_initable_new (GNN_TYPE_AVG_POOL2D, error,
                              "kernel-h", kernel_h, "kernel-w", kernel_w,
                              "stride-h", stride_h, "stride-w", stride_w,
                              "padding-h", padding_h, "padding-w", padding_w,
                              "ceil-mode", ceil_mode, "count-include-pad", count_include_pad,
                              "divisor-override", divisor_override, NULL);
}
