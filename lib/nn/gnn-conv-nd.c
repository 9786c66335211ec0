/* gnn-conv-nd.c: the base of the convolution layers (torch.nn's _ConvNd)
 *
 * One implementation for Conv1d/2d/3d and ConvTranspose1d/2d/3d: the
 * subclasses only declare their number of spatial dimensions, whether they
 * are transposed, and (in their class_init, through
 * gnn_conv_nd_class_setup()) their properties, which this class reads and
 * writes. A property's id encodes what it sets: (kind << 2 | axis) + 1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "nn/gnn-conv-nd-private.h"
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnConvNd:
 *
 * The abstract base of the convolution layers, torch's `_ConvNd`:
 * [class@Gnn.Conv1d], [class@Gnn.Conv2d], [class@Gnn.Conv3d],
 * [class@Gnn.ConvTranspose1d], [class@Gnn.ConvTranspose2d] and
 * [class@Gnn.ConvTranspose3d].
 *
 * A layer's parameters are `weight` — `[out_channels, in_channels / groups,
 * *kernel_size]`, or `[in_channels, out_channels / groups, *kernel_size]`
 * for a transposed convolution — and, unless `has-bias` is %FALSE, `bias`
 * (`[out_channels]`). They are initialized like PyTorch's: the weight by
 * Kaiming-uniform with `a = sqrt(5)`, the bias from U(−1/sqrt(fan_in),
 * 1/sqrt(fan_in)) with `fan_in = weight.size(1) × prod(kernel_size)`,
 * drawing from the `generator` property (or the library's default
 * generator).
 *
 * Since: 0.1
 */

typedef enum
{
  KIND_IN_CHANNELS,
  KIND_OUT_CHANNELS,
  KIND_KERNEL,
  KIND_STRIDE,
  KIND_PADDING,
  KIND_DILATION,
  KIND_OUTPUT_PADDING,
  KIND_GROUPS,
  KIND_HAS_BIAS,
  KIND_PADDING_MODE,
  KIND_PADDING_SAME,
  KIND_GENERATOR,
} Kind;

#define PROP_ID(kind, axis) ((((guint) (kind)) << 2 | (guint) (axis)) + 1)
#define PROP_KIND(id) ((Kind) (((id) - 1) >> 2))
#define PROP_AXIS(id) (((id) - 1) & 3)

typedef struct
{
  gint64          in_channels, out_channels, groups;
  gint64          kernel[3], stride[3], padding[3], dilation[3], output_padding[3];
  gboolean        has_bias, padding_same;
  GnnPaddingMode  padding_mode;
  GnnGenerator   *generator;
} GnnConvNdPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnConvNd, gnn_conv_nd, GNN_TYPE_MODULE,
                                  G_ADD_PRIVATE (GnnConvNd)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define PRIV(self) ((GnnConvNdPrivate *) gnn_conv_nd_get_instance_private (GNN_CONV_ND (self)))
#define NSP(self) (GNN_CONV_ND_GET_CLASS (self)->n_spatial)
#define TRANSPOSED(self) (GNN_CONV_ND_GET_CLASS (self)->transposed)

/* The torch class name ("Conv1d", "ConvTranspose2d") for messages. */
static const char *
layer_name (gpointer self)
{
  return G_OBJECT_TYPE_NAME (self) + 3;
}

static gint64 *
axis_field (GnnConvNdPrivate *priv,
            Kind              kind)
{
  switch (kind)
    {
    case KIND_KERNEL: return priv->kernel;
    case KIND_STRIDE: return priv->stride;
    case KIND_PADDING: return priv->padding;
    case KIND_DILATION: return priv->dilation;
    case KIND_OUTPUT_PADDING: return priv->output_padding;
    default: return NULL;
    }
}

/* The configuration errors PyTorch's constructors raise. */
static gboolean
check_config (GnnConvNd  *self,
              GError    **error)
{
  GnnConvNdPrivate *priv = PRIV (self);

  if (priv->groups <= 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "groups must be a positive integer");
      return FALSE;
    }
  if (priv->in_channels % priv->groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "in_channels must be divisible by groups (in_channels=%" G_GINT64_FORMAT
                   ", groups=%" G_GINT64_FORMAT ")", priv->in_channels, priv->groups);
      return FALSE;
    }
  if (priv->out_channels % priv->groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "out_channels must be divisible by groups (out_channels=%" G_GINT64_FORMAT
                   ", groups=%" G_GINT64_FORMAT ")", priv->out_channels, priv->groups);
      return FALSE;
    }
  if (TRANSPOSED (self) && priv->padding_mode != GNN_PADDING_MODE_CONSTANT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Only \"zeros\" padding mode is supported for %s", layer_name (self));
      return FALSE;
    }
  if (priv->padding_same)
    for (guint i = 0; i < NSP (self); i++)
      if (priv->stride[i] != 1)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "padding='same' is not supported for strided convolutions");
          return FALSE;
        }
  return TRUE;
}

/* Allocates and initializes the parameters; on failure (a size whose bytes
 * overflow, out of memory) nothing is registered. */
static gboolean
reset_parameters (GnnConvNd     *self,
                  GnnGenerator  *generator,
                  GError       **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();   /* writes into parameters */
  GnnConvNdPrivate *priv = PRIV (self);
  guint nsp = NSP (self);
  gint64 shape[5];
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnParameter) wp = NULL;
  g_autoptr(GnnParameter) bp = NULL;
  gint64 fan_in;

  shape[0] = TRANSPOSED (self) ? priv->in_channels : priv->out_channels;
  shape[1] = (TRANSPOSED (self) ? priv->out_channels : priv->in_channels) / priv->groups;
  memcpy (shape + 2, priv->kernel, sizeof (gint64) * nsp);
  w = gnn_tensor_empty (shape, nsp + 2, GNN_DTYPE_F32, error);
  if (w == NULL || !gnn_tensor_kaiming_uniform_ (w, sqrt (5.0), generator, error))
    return FALSE;
  /* w exists, so the product of its sizes does not overflow */
  fan_in = shape[1];
  for (guint i = 0; i < nsp; i++)
    fan_in *= priv->kernel[i];
  wp = gnn_parameter_new (w, TRUE);
  if (priv->has_bias)
    {
      gint64 out = priv->out_channels;
      g_autoptr(GnnTensor) b = gnn_tensor_empty (&out, 1, GNN_DTYPE_F32, error);
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
gnn_conv_nd_reset_parameters (GnnModule  *module,
                              GError    **error)
{
  gboolean ok;

  if (!gnn_nn_check_constructed (module, error))
    return FALSE;
  ok = reset_parameters (GNN_CONV_ND (module), gnn_nn_default_generator_lock (), error);
  gnn_nn_default_generator_unlock ();
  return ok;
}

static void
gnn_conv_nd_constructed (GObject *object)
{
  GnnConvNd *self = GNN_CONV_ND (object);
  GnnConvNdPrivate *priv = PRIV (self);
  GError *error = NULL;
  gboolean ok;

  G_OBJECT_CLASS (gnn_conv_nd_parent_class)->constructed (object);

  ok = check_config (self, &error);
  if (ok)
    {
      GnnGenerator *gen = priv->generator != NULL ? priv->generator : gnn_nn_default_generator_lock ();

      ok = reset_parameters (self, gen, &error);
      if (priv->generator == NULL)
        gnn_nn_default_generator_unlock ();
      if (!ok)
        g_prefix_error (&error, "%s: ", layer_name (self));
    }
  if (!ok)
    {
      /* Empty slots, and the error for GInitable and forward. */
      gnn_module_register_parameter (GNN_MODULE (self), "weight", NULL, NULL);
      gnn_module_register_parameter (GNN_MODULE (self), "bias", NULL, NULL);
      gnn_nn_set_construct_error (object, error);
    }
  g_clear_object (&priv->generator);
}

/* The padding of each side of each axis, torch's _reversed_padding_repeated_twice
 * (for 'same': the total d (k − 1) split, the extra one on the right). */
static void
padding_pairs (GnnConvNd *self,
               gint64    *left,
               gint64    *right)
{
  GnnConvNdPrivate *priv = PRIV (self);

  for (guint i = 0; i < NSP (self); i++)
    if (priv->padding_same)
      {
        gint64 total = priv->dilation[i] * (priv->kernel[i] - 1);

        left[i] = total / 2;
        right[i] = total - left[i];
      }
    else
      left[i] = right[i] = priv->padding[i];
}

/* The forward, a transposed layer's with @output_padding in place of its
 * own when not NULL. */
static GnnTensor *
conv_forward (GnnModule     *module,
              GnnTensor     *input,
              const gint64  *output_padding,
              GError       **error)
{
  GnnConvNd *self = GNN_CONV_ND (module);
  GnnConvNdPrivate *priv = PRIV (self);
  guint nsp = NSP (self);
  GnnTensor *weight;
  GObject *bias;
  GnnTensor *b;
  gint64 left[3], right[3], pad[6];
  gboolean explicit_pad;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  weight = gnn_nn_weight (module, "weight", error);
  if (weight == NULL)
    return NULL;
  bias = gnn_module_get_child (module, "bias", NULL);
  b = bias != NULL && GNN_IS_TENSOR (bias) ? GNN_TENSOR (bias) : NULL;
  if (TRANSPOSED (self))
    return gnn_tensor_convolution (input, weight, b, priv->stride, nsp,
                                   priv->padding, nsp, priv->dilation, nsp, TRUE,
                                   output_padding != NULL ? output_padding : priv->output_padding,
                                   nsp, priv->groups, error);

  padding_pairs (self, left, right);
  /* a padding mode other than zeros, or uneven 'same' padding: padded first */
  explicit_pad = priv->padding_mode != GNN_PADDING_MODE_CONSTANT;
  for (guint i = 0; i < nsp; i++)
    {
      explicit_pad = explicit_pad || left[i] != right[i];
      pad[2 * (nsp - 1 - i)] = left[i];
      pad[2 * (nsp - 1 - i) + 1] = right[i];
    }
  if (explicit_pad)
    {
      static const gint64 zeros[3] = { 0, 0, 0 };
      g_autoptr(GnnTensor) padded = gnn_tensor_pad (input, pad, 2 * nsp, priv->padding_mode, 0.0, error);

      if (padded == NULL)
        return NULL;
      return gnn_tensor_convolution (padded, weight, b, priv->stride, nsp, zeros, nsp,
                                     priv->dilation, nsp, FALSE, NULL, 0, priv->groups, error);
    }
  return gnn_tensor_convolution (input, weight, b, priv->stride, nsp, left, nsp,
                                 priv->dilation, nsp, FALSE, NULL, 0, priv->groups, error);
}

static GnnTensor *
gnn_conv_nd_forward (GnnModule  *module,
                     GnnTensor  *input,
                     GError    **error)
{
  return conv_forward (module, input, NULL, error);
}

/* "[1, 2]", or "(1, 2)" / "(1,)" as a tuple: Python's repr of @n ints. */
static void
append_ints (GString *s, const gint64 *v, gsize n, gboolean tuple)
{
  g_string_append_c (s, tuple ? '(' : '[');
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", v[i]);
  g_string_append (s, tuple ? (n == 1 ? ",)" : ")") : "]");
}

/* torch's _ConvTransposeNd._output_padding: the output padding that gives
 * the spatial @output_size (a list or tuple of ints, optionally with the
 * batch and channel sizes first), torch's checks and messages. An input of
 * the wrong rank keeps the layer's own, for the convolution to refuse. */
static gboolean
output_padding_for (GnnConvNd     *self,
                    GnnTensor     *input,
                    GnnValue      *output_size,
                    gint64        *output_padding,
                    GError       **error)
{
  GnnConvNdPrivate *priv = PRIV (self);
  guint nsp = NSP (self), ndim, lead;
  const gint64 *shape = gnn_tensor_get_shape (input, &ndim);
  GnnValueKind kind = gnn_value_get_kind (output_size);
  gint64 size[5], lo[3], hi[3];
  gsize n, first;
  gboolean fits = TRUE;

  memcpy (output_padding, priv->output_padding, sizeof (gint64) * nsp);
  if (kind != GNN_VALUE_TUPLE && kind != GNN_VALUE_LIST)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "object of type '%s' has no len()",
                   gnn_value_get_type_name (output_size));
      return FALSE;
    }
  if (ndim != nsp + 1 && ndim != nsp + 2)
    return TRUE;
  lead = ndim == nsp + 2 ? 2 : 1;
  n = gnn_value_get_length (output_size);
  if (n != nsp && n != lead + nsp)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ConvTranspose%uD: for %uD input, output_size must have %u or %u elements (got %"
                   G_GSIZE_FORMAT ")", nsp, ndim, nsp, lead + nsp, n);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      GnnValue *item = gnn_value_get_item (output_size, i);

      if (gnn_value_get_kind (item) != GNN_VALUE_INT)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "output_size must be a list of ints, got %s",
                       gnn_value_get_type_name (item));
          return FALSE;
        }
      size[i] = gnn_value_get_int (item);
    }
  first = n - nsp;
  for (guint d = 0; d < nsp; d++)
    {
      lo[d] = (shape[d + lead] - 1) * priv->stride[d] - 2 * priv->padding[d] +
              priv->dilation[d] * (priv->kernel[d] - 1) + 1;
      hi[d] = lo[d] + priv->stride[d] - 1;
      fits = fits && size[first + d] >= lo[d] && size[first + d] <= hi[d];
      output_padding[d] = size[first + d] - lo[d];
    }
  if (!fits)
    {
      GString *s = g_string_new ("requested an output size of ");

      append_ints (s, size + first, nsp, kind == GNN_VALUE_TUPLE);
      g_string_append (s, ", but valid sizes range from ");
      append_ints (s, lo, nsp, FALSE);
      g_string_append (s, " to ");
      append_ints (s, hi, nsp, FALSE);
      /* torch prints input.size()[2:], unbatched inputs too */
      g_string_append (s, " (for an input of torch.Size(");
      append_ints (s, shape + MIN (2, ndim), ndim - MIN (2, ndim), FALSE);
      g_string_append (s, "))");
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  return TRUE;
}

/* A transposed layer's call: torch's forward(input, output_size=None). */
static GnnValue *
conv_transpose_forward_args (GnnModule  *module,
                             GnnValue   *args,
                             GnnValue   *kwargs,
                             GError    **error)
{
  g_autofree char *function = g_strconcat (gnn_module_get_name (module), ".forward", NULL);
  GnnTensor *input, *output;
  GnnValue *output_size = NULL;
  gint64 output_padding[3];

  if (!gnn_args_parse (args, kwargs, function, error, "input", GNN_ARG_TENSOR, &input,
                       "output_size", GNN_ARG_OPTIONAL_VALUE, &output_size, NULL))
    return NULL;
  if (output_size != NULL &&
      !output_padding_for (GNN_CONV_ND (module), input, output_size, output_padding, error))
    return NULL;
  output = conv_forward (module, input, output_size != NULL ? output_padding : NULL, error);
  return output != NULL ? gnn_value_take_tensor (output) : NULL;
}

/* "(3,)" or "(3, 3)": a Python tuple of @n ints. */
static void
append_tuple (GString      *s,
              const char   *name,
              const gint64 *v,
              guint         n)
{
  g_string_append_printf (s, ", %s=(", name);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", v[i]);
  g_string_append (s, n == 1 ? ",)" : ")");
}

static gboolean
all_equal (const gint64 *v,
           guint         n,
           gint64        value)
{
  for (guint i = 0; i < n; i++)
    if (v[i] != value)
      return FALSE;
  return TRUE;
}

static char *
gnn_conv_nd_extra_repr (GnnModule *module)
{
  static const char *const modes[] = { "zeros", "reflect", "replicate", "circular" };
  GnnConvNdPrivate *priv = PRIV (module);
  guint nsp = NSP (module);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT, priv->in_channels,
                          priv->out_channels);
  append_tuple (s, "kernel_size", priv->kernel, nsp);
  append_tuple (s, "stride", priv->stride, nsp);
  if (priv->padding_same)
    g_string_append (s, ", padding=same");
  else if (!all_equal (priv->padding, nsp, 0))
    append_tuple (s, "padding", priv->padding, nsp);
  if (!all_equal (priv->dilation, nsp, 1))
    append_tuple (s, "dilation", priv->dilation, nsp);
  if (TRANSPOSED (module) && !all_equal (priv->output_padding, nsp, 0))
    append_tuple (s, "output_padding", priv->output_padding, nsp);
  if (priv->groups != 1)
    g_string_append_printf (s, ", groups=%" G_GINT64_FORMAT, priv->groups);
  if (gnn_module_get_child (module, "bias", NULL) == NULL)
    g_string_append (s, ", bias=False");
  if (priv->padding_mode != GNN_PADDING_MODE_CONSTANT && priv->padding_mode < G_N_ELEMENTS (modes))
    g_string_append_printf (s, ", padding_mode=%s", modes[priv->padding_mode]);
  return g_string_free (s, FALSE);
}

static void
gnn_conv_nd_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  GnnConvNdPrivate *priv = PRIV (object);
  Kind kind = PROP_KIND (prop_id);
  gint64 *field = axis_field (priv, kind);

  if (field != NULL)
    {
      g_value_set_int64 (value, field[PROP_AXIS (prop_id)]);
      return;
    }
  switch (kind)
    {
    case KIND_IN_CHANNELS:
      g_value_set_int64 (value, priv->in_channels);
      break;
    case KIND_OUT_CHANNELS:
      g_value_set_int64 (value, priv->out_channels);
      break;
    case KIND_GROUPS:
      g_value_set_int64 (value, priv->groups);
      break;
    case KIND_HAS_BIAS:
      g_value_set_boolean (value, priv->has_bias);
      break;
    case KIND_PADDING_MODE:
      g_value_set_enum (value, priv->padding_mode);
      break;
    case KIND_PADDING_SAME:
      g_value_set_boolean (value, priv->padding_same);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_conv_nd_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  GnnConvNdPrivate *priv = PRIV (object);
  Kind kind = PROP_KIND (prop_id);
  gint64 *field = axis_field (priv, kind);

  if (field != NULL)
    {
      field[PROP_AXIS (prop_id)] = g_value_get_int64 (value);
      return;
    }
  switch (kind)
    {
    case KIND_IN_CHANNELS:
      priv->in_channels = g_value_get_int64 (value);
      break;
    case KIND_OUT_CHANNELS:
      priv->out_channels = g_value_get_int64 (value);
      break;
    case KIND_GROUPS:
      priv->groups = g_value_get_int64 (value);
      break;
    case KIND_HAS_BIAS:
      priv->has_bias = g_value_get_boolean (value);
      break;
    case KIND_PADDING_MODE:
      priv->padding_mode = g_value_get_enum (value);
      break;
    case KIND_PADDING_SAME:
      priv->padding_same = g_value_get_boolean (value);
      break;
    case KIND_GENERATOR:
      g_set_object (&priv->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_conv_nd_dispose (GObject *object)
{
  g_clear_object (&PRIV (object)->generator);

  G_OBJECT_CLASS (gnn_conv_nd_parent_class)->dispose (object);
}

static void
gnn_conv_nd_class_init (GnnConvNdClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_conv_nd_constructed;
  object_class->dispose = gnn_conv_nd_dispose;
  module_class->forward = gnn_conv_nd_forward;
  module_class->extra_repr = gnn_conv_nd_extra_repr;
  module_class->reset_parameters = gnn_conv_nd_reset_parameters;
}

static void
gnn_conv_nd_init (GnnConvNd *self)
{
  GnnConvNdPrivate *priv = PRIV (self);

  priv->in_channels = priv->out_channels = priv->groups = 1;
  for (guint i = 0; i < 3; i++)
    {
      priv->kernel[i] = priv->stride[i] = priv->dilation[i] = 1;
      priv->padding[i] = priv->output_padding[i] = 0;
    }
  priv->has_bias = TRUE;
  priv->padding_mode = GNN_PADDING_MODE_CONSTANT;
}

/* The property name of @base on @axis of @nsp: "kernel-size" / "stride"
 * for one axis, "kernel-h" for several (interned: static strings). */
static const char *
axis_property_name (const char *base,
                    guint       nsp,
                    guint       axis)
{
  static const char *const suffixes[3][3] = { { "" }, { "-h", "-w" }, { "-d", "-h", "-w" } };
  g_autofree char *name = NULL;

  if (nsp == 1)
    name = g_strcmp0 (base, "kernel") == 0 ? g_strdup ("kernel-size") : g_strdup (base);
  else
    name = g_strconcat (base, suffixes[nsp - 1][axis], NULL);
  return g_intern_string (name);
}

void
gnn_conv_nd_class_setup (GnnConvNdClass *klass,
                         guint           n_spatial,
                         gboolean        transposed)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const struct { Kind kind; const char *name; gint64 minimum, default_value; } axes[] = {
    { KIND_KERNEL, "kernel", 1, 1 }, { KIND_STRIDE, "stride", 1, 1 },
    { KIND_PADDING, "padding", 0, 0 }, { KIND_OUTPUT_PADDING, "output-padding", 0, 0 },
    { KIND_DILATION, "dilation", 1, 1 },
  };

  g_return_if_fail (n_spatial >= 1 && n_spatial <= 3);
  klass->n_spatial = n_spatial;
  klass->transposed = transposed;
  /* set by the subclass, so that it wins over the base's forward */
  if (transposed)
    GNN_MODULE_CLASS (klass)->forward_args = conv_transpose_forward_args;
  /* GObject does not inherit these: each subclass routes to the base's */
  object_class->get_property = gnn_conv_nd_get_property;
  object_class->set_property = gnn_conv_nd_set_property;

  g_object_class_install_property (object_class, PROP_ID (KIND_IN_CHANNELS, 0),
                                   gnn_nn_int_property ("in-channels", 1, 1));
  g_object_class_install_property (object_class, PROP_ID (KIND_OUT_CHANNELS, 0),
                                   gnn_nn_int_property ("out-channels", 1, 1));
  for (guint k = 0; k < G_N_ELEMENTS (axes); k++)
    {
      if (axes[k].kind == KIND_OUTPUT_PADDING && !transposed)
        continue;
      for (guint axis = 0; axis < n_spatial; axis++)
        g_object_class_install_property (object_class, PROP_ID (axes[k].kind, axis),
                                         gnn_nn_int_property (axis_property_name (axes[k].name, n_spatial, axis),
                                                              axes[k].minimum, axes[k].default_value));
    }
  /* any int: a bad value is the construction's error, with torch's message */
  g_object_class_install_property (object_class, PROP_ID (KIND_GROUPS, 0),
                                   gnn_nn_int_property ("groups", -G_MAXINT32, 1));
  g_object_class_install_property (object_class, PROP_ID (KIND_HAS_BIAS, 0),
                                   gnn_nn_bool_property ("has-bias", TRUE));
  if (!transposed)
    {
      g_object_class_install_property (object_class, PROP_ID (KIND_PADDING_MODE, 0),
                                       g_param_spec_enum ("padding-mode", NULL, NULL, GNN_TYPE_PADDING_MODE,
                                                          GNN_PADDING_MODE_CONSTANT,
                                                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                          G_PARAM_STATIC_STRINGS));
      g_object_class_install_property (object_class, PROP_ID (KIND_PADDING_SAME, 0),
                                       gnn_nn_bool_property ("padding-same", FALSE));
    }
  g_object_class_install_property (object_class, PROP_ID (KIND_GENERATOR, 0),
                                   g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                                                        G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY |
                                                        G_PARAM_STATIC_STRINGS));
}

/* Appends one int64 construct property. */
static void
add_int (const char **names,
         GValue      *values,
         guint       *n,
         const char  *name,
         gint64       value)
{
  names[*n] = name;
  g_value_init (&values[*n], G_TYPE_INT64);
  g_value_set_int64 (&values[(*n)++], value);
}

gpointer
gnn_conv_nd_new (GType                type,
                 const GnnConvNdArgs *args,
                 GError             **error)
{
  static const struct { const char *torch, *prop; gint64 minimum; gsize offset; } axes[] = {
    { "kernel_size", "kernel", 1, G_STRUCT_OFFSET (GnnConvNdArgs, kernel_size) },
    { "stride", "stride", 1, G_STRUCT_OFFSET (GnnConvNdArgs, stride) },
    { "padding", "padding", 0, G_STRUCT_OFFSET (GnnConvNdArgs, padding) },
    { "output_padding", "output-padding", 0, G_STRUCT_OFFSET (GnnConvNdArgs, output_padding) },
    { "dilation", "dilation", 1, G_STRUCT_OFFSET (GnnConvNdArgs, dilation) },
  };
  GnnConvNdClass *klass = g_type_class_ref (type);
  guint nsp = klass->n_spatial, n = 0, n_checks = 0;
  gboolean transposed = klass->transposed;
  const char *layer = g_type_name (type) + 3, *names[24];
  GValue values[24] = { G_VALUE_INIT };
  GnnIntArg checks[20];
  GObject *object = NULL;

  g_type_class_unref (klass);
  checks[n_checks++] = (GnnIntArg) { "in_channels", args->in_channels, 1 };
  checks[n_checks++] = (GnnIntArg) { "out_channels", args->out_channels, 1 };
  add_int (names, values, &n, "in-channels", args->in_channels);
  add_int (names, values, &n, "out-channels", args->out_channels);
  for (guint k = 0; k < G_N_ELEMENTS (axes); k++)
    {
      const gint64 *v = G_STRUCT_MEMBER (const gint64 *, args, axes[k].offset);

      if (v == NULL || (axes[k].offset == G_STRUCT_OFFSET (GnnConvNdArgs, output_padding) && !transposed))
        continue;
      for (guint axis = 0; axis < nsp; axis++)
        {
          checks[n_checks++] = (GnnIntArg) { axes[k].torch, v[axis], axes[k].minimum };
          add_int (names, values, &n, axis_property_name (axes[k].prop, nsp, axis), v[axis]);
        }
    }
  /* checked before they become properties, whose own range checks only warn */
  if (!gnn_nn_check_int_args (layer, checks, n_checks, error))
    goto out;
  if (args->groups <= 0 || args->groups > G_MAXINT32)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "groups must be a positive integer");
      goto out;
    }
  add_int (names, values, &n, "groups", args->groups);
  names[n] = "has-bias";
  g_value_init (&values[n], G_TYPE_BOOLEAN);
  g_value_set_boolean (&values[n++], args->bias);
  names[n] = "generator";
  g_value_init (&values[n], GNN_TYPE_GENERATOR);
  g_value_set_object (&values[n++], args->generator);
  object = g_object_new_with_properties (type, n, names, values);
  if (!g_initable_init (G_INITABLE (object), NULL, error))
    g_clear_object (&object);
out:
  for (guint i = 0; i < n; i++)
    g_value_unset (&values[i]);
  return object;
}

/**
 * gnn_conv_nd_get_n_spatial:
 * @self: a convolution layer
 *
 * The number of spatial dimensions the layer convolves over: 1 for
 * [class@Gnn.Conv1d], 2 for [class@Gnn.Conv2d], …
 *
 * Returns: 1, 2 or 3
 *
 * Since: 0.1
 */
guint
gnn_conv_nd_get_n_spatial (GnnConvNd *self)
{
  g_return_val_if_fail (GNN_IS_CONV_ND (self), 0);
  return NSP (self);
}

/**
 * gnn_conv_nd_get_transposed:
 * @self: a convolution layer
 *
 * Whether the layer is a transposed convolution (torch's `transposed`
 * attribute).
 *
 * Returns: %TRUE for the ConvTranspose layers
 *
 * Since: 0.1
 */
gboolean
gnn_conv_nd_get_transposed (GnnConvNd *self)
{
  g_return_val_if_fail (GNN_IS_CONV_ND (self), FALSE);
  return TRANSPOSED (self);
}
