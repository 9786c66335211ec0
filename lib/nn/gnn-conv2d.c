/* gnn-conv2d.c: 2-d convolution layer (torch.nn.Conv2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnConv2d:
 *
 * A 2-d convolution over `[N, C_in, H, W]` (or unbatched `[C_in, H, W]`)
 * inputs, `torch.nn.Conv2d`, computed by [method@Gnn.Tensor.conv2d].
 *
 * Its parameters are `weight` (`[out_channels, in_channels / groups,
 * kernel_h, kernel_w]`) and, unless [property@Gnn.Conv2d:has-bias] is
 * %FALSE, `bias` (`[out_channels]`). They are initialized like PyTorch's:
 * the weight by Kaiming-uniform with `a = sqrt(5)`, the bias from
 * U(−1/sqrt(fan_in), 1/sqrt(fan_in)) with `fan_in = in_channels / groups ×
 * kernel_h × kernel_w`, drawing from [property@Gnn.Conv2d:generator].
 *
 * The configuration is held in construct-only properties, so
 * `g_object_new (GNN_TYPE_CONV2D, "in-channels", 1, "out-channels", 8,
 * "kernel-h", 3, "kernel-w", 3, NULL)` builds the same layer as
 * [ctor@Gnn.Conv2d.new].
 *
 * Since: 0.1
 */
struct _GnnConv2d
{
  GnnModule     parent_instance;
  gint64        cfg[11];   /* indexed by prop id - 1, see the enum below */
  gboolean      has_bias;
  GnnGenerator *generator;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnConv2d, gnn_conv2d, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

enum
{
  PROP_0,
  PROP_IN_CHANNELS,
  PROP_OUT_CHANNELS,
  PROP_KERNEL_H,
  PROP_KERNEL_W,
  PROP_STRIDE_H,
  PROP_STRIDE_W,
  PROP_PADDING_H,
  PROP_PADDING_W,
  PROP_DILATION_H,
  PROP_DILATION_W,
  PROP_GROUPS,
  PROP_HAS_BIAS,
  PROP_GENERATOR,
  N_PROPS
};

#define CFG(self, prop) ((self)->cfg[(prop) - 1])

static GParamSpec *properties[N_PROPS];

/* The configuration errors PyTorch's constructor raises. */
static gboolean
check_config (gint64   in_channels,
              gint64   out_channels,
              gint64   groups,
              GError **error)
{
  if (groups <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "groups must be a positive integer (got %" G_GINT64_FORMAT ")", groups);
      return FALSE;
    }
  if (in_channels % groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "in_channels must be divisible by groups (in_channels=%" G_GINT64_FORMAT
                   ", groups=%" G_GINT64_FORMAT ")", in_channels, groups);
      return FALSE;
    }
  if (out_channels % groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "out_channels must be divisible by groups (out_channels=%" G_GINT64_FORMAT
                   ", groups=%" G_GINT64_FORMAT ")", out_channels, groups);
      return FALSE;
    }
  return TRUE;
}

/* Allocates and initializes the parameters; on failure (a size whose bytes
 * overflow, out of memory) nothing is registered. */
static gboolean
reset_parameters (GnnConv2d     *self,
                  GnnGenerator  *generator,
                  GError       **error)
{
  gint64 groups = CFG (self, PROP_GROUPS);
  gint64 shape[4] = { CFG (self, PROP_OUT_CHANNELS), CFG (self, PROP_IN_CHANNELS) / groups,
                      CFG (self, PROP_KERNEL_H), CFG (self, PROP_KERNEL_W) };
  g_autoptr(GnnTensor) w = gnn_tensor_empty (shape, 4, GNN_DTYPE_F32, error);
  g_autoptr(GnnParameter) wp = NULL;
  g_autoptr(GnnParameter) bp = NULL;
  gint64 fan_in;

  if (w == NULL || !gnn_tensor_kaiming_uniform_ (w, sqrt (5.0), generator, error))
    return FALSE;
  /* w exists, so the product of its sizes does not overflow. */
  fan_in = shape[1] * shape[2] * shape[3];
  wp = gnn_parameter_new (w, TRUE);
  if (self->has_bias)
    {
      g_autoptr(GnnTensor) b = gnn_tensor_empty (shape, 1, GNN_DTYPE_F32, error);
      double bound = fan_in > 0 ? 1.0 / sqrt ((double) fan_in) : 0.0;

      if (b == NULL || !gnn_tensor_uniform_ (b, -bound, bound, generator, error))
        return FALSE;
      bp = gnn_parameter_new (b, TRUE);
    }
  return gnn_module_register_parameter (GNN_MODULE (self), "weight", wp, error) &&
         gnn_module_register_parameter (GNN_MODULE (self), "bias", bp, error);
}

/* New parameters drawn from the default generator (on the default device). */
static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  gboolean ok;

  if (!gnn_nn_check_constructed (module, error))
    return FALSE;
  ok = reset_parameters (GNN_CONV2D (module), gnn_nn_default_generator_lock (), error);
  gnn_nn_default_generator_unlock ();
  return ok;
}

static void
gnn_conv2d_constructed (GObject *object)
{
  GnnConv2d *self = GNN_CONV2D (object);
  GError *error = NULL;
  gboolean ok;

  G_OBJECT_CLASS (gnn_conv2d_parent_class)->constructed (object);

  ok = check_config (CFG (self, PROP_IN_CHANNELS), CFG (self, PROP_OUT_CHANNELS),
                     CFG (self, PROP_GROUPS), &error);
  if (ok)
    {
      GnnGenerator *gen = self->generator != NULL ? self->generator
                                                  : gnn_nn_default_generator_lock ();

      ok = reset_parameters (self, gen, &error);
      if (self->generator == NULL)
        gnn_nn_default_generator_unlock ();
      if (!ok)
        g_prefix_error (&error, "Conv2d: ");
    }
  if (!ok)
    {
      /* Empty slots, and the error for GInitable and forward. */
      gnn_module_register_parameter (GNN_MODULE (self), "weight", NULL, NULL);
      gnn_module_register_parameter (GNN_MODULE (self), "bias", NULL, NULL);
      gnn_nn_set_construct_error (object, error);
    }
  g_clear_object (&self->generator);
}

static GnnTensor *
gnn_conv2d_forward (GnnModule  *module,
                    GnnTensor  *input,
                    GError    **error)
{
  GnnConv2d *self = GNN_CONV2D (module);
  GnnParameter *weight;
  GObject *bias;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  weight = gnn_module_get_parameter (module, "weight", error);
  if (weight == NULL)
    return NULL;
  bias = gnn_module_get_child (module, "bias", NULL);
  return gnn_tensor_conv2d (input, GNN_TENSOR (weight),
                            bias != NULL && GNN_IS_TENSOR (bias) ? GNN_TENSOR (bias) : NULL,
                            CFG (self, PROP_STRIDE_H), CFG (self, PROP_STRIDE_W),
                            CFG (self, PROP_PADDING_H), CFG (self, PROP_PADDING_W),
                            CFG (self, PROP_DILATION_H), CFG (self, PROP_DILATION_W),
                            CFG (self, PROP_GROUPS), error);
}

static char *
gnn_conv2d_extra_repr (GnnModule *module)
{
  GnnConv2d *self = GNN_CONV2D (module);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT,
                          CFG (self, PROP_IN_CHANNELS), CFG (self, PROP_OUT_CHANNELS));
  gnn_nn_append_pair (s, "kernel_size", CFG (self, PROP_KERNEL_H), CFG (self, PROP_KERNEL_W), FALSE);
  gnn_nn_append_pair (s, "stride", CFG (self, PROP_STRIDE_H), CFG (self, PROP_STRIDE_W), FALSE);
  if (CFG (self, PROP_PADDING_H) != 0 || CFG (self, PROP_PADDING_W) != 0)
    gnn_nn_append_pair (s, "padding", CFG (self, PROP_PADDING_H), CFG (self, PROP_PADDING_W), FALSE);
  if (CFG (self, PROP_DILATION_H) != 1 || CFG (self, PROP_DILATION_W) != 1)
    gnn_nn_append_pair (s, "dilation", CFG (self, PROP_DILATION_H), CFG (self, PROP_DILATION_W), FALSE);
  if (CFG (self, PROP_GROUPS) != 1)
    g_string_append_printf (s, ", groups=%" G_GINT64_FORMAT, CFG (self, PROP_GROUPS));
  if (!self->has_bias)
    g_string_append (s, ", bias=False");
  return g_string_free (s, FALSE);
}

static void
gnn_conv2d_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  GnnConv2d *self = GNN_CONV2D (object);

  if (prop_id >= PROP_IN_CHANNELS && prop_id <= PROP_GROUPS)
    {
      g_value_set_int64 (value, CFG (self, prop_id));
      return;
    }
  switch (prop_id)
    {
    case PROP_HAS_BIAS:
      g_value_set_boolean (value, self->has_bias);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_conv2d_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  GnnConv2d *self = GNN_CONV2D (object);

  if (prop_id >= PROP_IN_CHANNELS && prop_id <= PROP_GROUPS)
    {
      CFG (self, prop_id) = g_value_get_int64 (value);
      return;
    }
  switch (prop_id)
    {
    case PROP_HAS_BIAS:
      self->has_bias = g_value_get_boolean (value);
      break;
    case PROP_GENERATOR:
      g_set_object (&self->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_conv2d_dispose (GObject *object)
{
  g_clear_object (&GNN_CONV2D (object)->generator);

  G_OBJECT_CLASS (gnn_conv2d_parent_class)->dispose (object);
}

static void
gnn_conv2d_class_init (GnnConv2dClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  static const GnnPairSpec pairs[] = {
    { "kernel", 1, 1 }, { "stride", 1, 1 }, { "padding", 0, 0 }, { "dilation", 1, 1 },
  };

  object_class->constructed = gnn_conv2d_constructed;
  object_class->dispose = gnn_conv2d_dispose;
  object_class->get_property = gnn_conv2d_get_property;
  object_class->set_property = gnn_conv2d_set_property;
  module_class->forward = gnn_conv2d_forward;
  module_class->extra_repr = gnn_conv2d_extra_repr;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnConv2d:in-channels:
   *
   * The number of input channels (`in_channels`).
   *
   * Since: 0.1
   */
  properties[PROP_IN_CHANNELS] = gnn_nn_int_property ("in-channels", 1, 1);
  /**
   * GnnConv2d:out-channels:
   *
   * The number of output channels (`out_channels`).
   *
   * Since: 0.1
   */
  properties[PROP_OUT_CHANNELS] = gnn_nn_int_property ("out-channels", 1, 1);
  /**
   * GnnConv2d:kernel-h:
   *
   * The kernel height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:kernel-w:
   *
   * The kernel width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:stride-h:
   *
   * The vertical stride (`stride[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:stride-w:
   *
   * The horizontal stride (`stride[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:padding-h:
   *
   * The zero padding added on the top and bottom (`padding[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:padding-w:
   *
   * The zero padding added on the left and right (`padding[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:dilation-h:
   *
   * The vertical spacing between kernel taps (`dilation[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:dilation-w:
   *
   * The horizontal spacing between kernel taps (`dilation[1]`).
   *
   * Since: 0.1
   */
  gnn_nn_pair_properties (properties, PROP_KERNEL_H, pairs, G_N_ELEMENTS (pairs));
  /**
   * GnnConv2d:groups:
   *
   * The number of blocked connections from input to output channels; it
   * divides both channel counts (`groups`).
   *
   * Since: 0.1
   */
  properties[PROP_GROUPS] = gnn_nn_int_property ("groups", 1, 1);
  /**
   * GnnConv2d:has-bias:
   *
   * Whether the layer has a learnable `bias` (PyTorch's `bias=True`; the
   * property cannot be called "bias", which names the parameter).
   *
   * Since: 0.1
   */
  properties[PROP_HAS_BIAS] = gnn_nn_bool_property ("has-bias", TRUE);
  /**
   * GnnConv2d:generator:
   *
   * The generator the initial weights are drawn from, used during
   * construction only (so it is write-only); %NULL means the library's
   * default generator.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_conv2d_init (GnnConv2d *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->cfg); i++)
    self->cfg[i] = 1;
  CFG (self, PROP_PADDING_H) = CFG (self, PROP_PADDING_W) = 0;
  self->has_bias = TRUE;
}

/**
 * gnn_conv2d_new:
 * @in_channels: the number of input channels (> 0)
 * @out_channels: the number of output channels (> 0)
 * @kernel_size: the (square) kernel size (> 0)
 * @stride: the stride on both axes (> 0; PyTorch's default is 1)
 * @padding: the zero padding on both axes (>= 0; PyTorch's default is 0)
 * @bias: whether to add a learnable bias (PyTorch's default is %TRUE)
 * @error: return location for a #GError
 *
 * Creates a convolution layer, `torch.nn.Conv2d(in_channels, out_channels,
 * kernel_size, stride, padding, bias=bias)`, initialized from the library's
 * default generator. See [ctor@Gnn.Conv2d.new_full] for per-axis values,
 * dilation and groups.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) if a size is out of range
 *
 * Since: 0.1
 */
GnnConv2d *
gnn_conv2d_new (gint64    in_channels,
                gint64    out_channels,
                gint64    kernel_size,
                gint64    stride,
                gint64    padding,
                gboolean  bias,
                GError  **error)
{
  return gnn_conv2d_new_full (in_channels, out_channels, kernel_size, kernel_size,
                              stride, stride, padding, padding, 1, 1, 1, bias, NULL, error);
}

/**
 * gnn_conv2d_new_full:
 * @in_channels: the number of input channels (> 0)
 * @out_channels: the number of output channels (> 0)
 * @kernel_h: the kernel height (> 0)
 * @kernel_w: the kernel width (> 0)
 * @stride_h: the vertical stride (> 0)
 * @stride_w: the horizontal stride (> 0)
 * @padding_h: the zero padding on the top and bottom (>= 0)
 * @padding_w: the zero padding on the left and right (>= 0)
 * @dilation_h: the vertical spacing between kernel taps (> 0)
 * @dilation_w: the horizontal spacing between kernel taps (> 0)
 * @groups: the number of groups; divides @in_channels and @out_channels
 * @bias: whether to add a learnable bias
 * @generator: (nullable): the generator for the initial weights, or %NULL
 *   for the library's default one
 * @error: return location for a #GError
 *
 * Creates a convolution layer with every option of `torch.nn.Conv2d`
 * (padding_mode is always "zeros").
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, e.g. "in_channels must be divisible by
 *   groups")
 *
 * Since: 0.1
 */
GnnConv2d *
gnn_conv2d_new_full (gint64        in_channels,
                     gint64        out_channels,
                     gint64        kernel_h,
                     gint64        kernel_w,
                     gint64        stride_h,
                     gint64        stride_w,
                     gint64        padding_h,
                     gint64        padding_w,
                     gint64        dilation_h,
                     gint64        dilation_w,
                     gint64        groups,
                     gboolean      bias,
                     GnnGenerator *generator,
                     GError      **error)
{
  const GnnIntArg args[] = {
    { "in_channels", in_channels, 1 }, { "out_channels", out_channels, 1 },
    { "kernel_size", kernel_h, 1 }, { "kernel_size", kernel_w, 1 },
    { "stride", stride_h, 1 }, { "stride", stride_w, 1 },
    { "padding", padding_h, 0 }, { "padding", padding_w, 0 },
    { "dilation", dilation_h, 1 }, { "dilation", dilation_w, 1 },
  };

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);

  /* Checked before they become properties, whose own range check would
   * only warn; allocation is checked in constructed. */
  if (!gnn_nn_check_int_args ("Conv2d", args, G_N_ELEMENTS (args), error) ||
      !check_config (in_channels, out_channels, groups, error))
    return NULL;
  return gnn_nn_initable_new (GNN_TYPE_CONV2D, error,
                       "in-channels", in_channels, "out-channels", out_channels,
                       "kernel-h", kernel_h, "kernel-w", kernel_w,
                       "stride-h", stride_h, "stride-w", stride_w,
                       "padding-h", padding_h, "padding-w", padding_w,
                       "dilation-h", dilation_h, "dilation-w", dilation_w,
                       "groups", groups, "has-bias", bias, "generator", generator,
                       NULL);
}
