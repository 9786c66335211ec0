/* gnn-basic-block.c: ResNet's basic residual block
 * (torchvision.models.resnet.BasicBlock)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-residual-private.h"

/**
 * GnnBasicBlock:
 *
 * The residual block of ResNet-18 and ResNet-34, like torchvision's
 * `BasicBlock(inplanes, planes, stride, downsample)`: two 3×3 convolutions
 * with batch normalization, the input added back before the last ReLU.
 *
 * ```
 * out = relu(bn1(conv1(x)))
 * out = bn2(conv2(out)) + (downsample(x) if downsample else x)
 * return relu(out)
 * ```
 *
 * Its children have torchvision's names — `conv1`, `bn1`, `relu`,
 * `conv2`, `bn2` and, with [property@Gnn.BasicBlock:has-downsample], `downsample`
 * (a [class@Gnn.Sequential] of a strided 1×1 convolution and a batch norm) —
 * so the state dict of a torchvision ResNet loads into a network built of
 * these blocks. The block is built entirely from its properties (the
 * reflection contract), so model files rebuild it.
 *
 * Since: 0.1
 */
struct _GnnBasicBlock
{
  GnnModule parent_instance;

  gint64    inplanes;
  gint64    planes;
  gint64    stride;
  gboolean  downsample;
};

enum {
  PROP_0,
  PROP_INPLANES,
  PROP_PLANES,
  PROP_STRIDE,
  PROP_DOWNSAMPLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnBasicBlock, gnn_basic_block, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_basic_block_forward (GnnModule  *module,
                         GnnTensor  *input,
                         GError    **error)
{
  static const char *const main_path[] = { "conv1", "bn1", "relu", "conv2", "bn2" };

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  return gnn_residual_forward (module, "BasicBlock", main_path, G_N_ELEMENTS (main_path), input,
                               error);
}

static char *
gnn_basic_block_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static gboolean
create_children (GnnBasicBlock  *self,
                 GError        **error)
{
  GnnModule *module = GNN_MODULE (self);
  g_autoptr(GnnReLU) relu = gnn_relu_new (TRUE);

  if (!gnn_residual_add_conv_bn (module, "conv1", "bn1", self->inplanes, self->planes, 3,
                                 self->stride, error) ||
      !gnn_module_register_module (module, "relu", GNN_MODULE (relu), error))
    return FALSE;
  /* conv2 and bn2 go after relu, in torchvision's order */
  if (!gnn_residual_add_conv_bn (module, "conv2", "bn2", self->planes, self->planes, 3, 1, error))
    return FALSE;
  if (self->downsample &&
      !gnn_residual_add_downsample (module, self->inplanes, self->planes, self->stride, error))
    return FALSE;
  return TRUE;
}

static void
gnn_basic_block_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_basic_block_parent_class)->constructed (object);
  if (!create_children (GNN_BASIC_BLOCK (object), &error))
    {
      g_prefix_error (&error, "BasicBlock: ");
      gnn_nn_set_construct_error (object, error);
    }
}

static void
gnn_basic_block_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  GnnBasicBlock *self = GNN_BASIC_BLOCK (object);

  switch (prop_id)
    {
    case PROP_INPLANES:
      g_value_set_int64 (value, self->inplanes);
      break;
    case PROP_PLANES:
      g_value_set_int64 (value, self->planes);
      break;
    case PROP_STRIDE:
      g_value_set_int64 (value, self->stride);
      break;
    case PROP_DOWNSAMPLE:
      g_value_set_boolean (value, self->downsample);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_basic_block_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  GnnBasicBlock *self = GNN_BASIC_BLOCK (object);

  switch (prop_id)
    {
    case PROP_INPLANES:
      self->inplanes = g_value_get_int64 (value);
      break;
    case PROP_PLANES:
      self->planes = g_value_get_int64 (value);
      break;
    case PROP_STRIDE:
      self->stride = g_value_get_int64 (value);
      break;
    case PROP_DOWNSAMPLE:
      self->downsample = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_basic_block_class_init (GnnBasicBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_basic_block_constructed;
  object_class->get_property = gnn_basic_block_get_property;
  object_class->set_property = gnn_basic_block_set_property;
  module_class->forward = gnn_basic_block_forward;
  module_class->extra_repr = gnn_basic_block_extra_repr;

  /**
   * GnnBasicBlock:inplanes:
   *
   * The input's channels.
   *
   * Since: 0.1
   */
  properties[PROP_INPLANES] = g_param_spec_int64 ("inplanes", NULL, NULL, 1, G_MAXINT32, 64, flags);
  /**
   * GnnBasicBlock:planes:
   *
   * The output's channels.
   *
   * Since: 0.1
   */
  properties[PROP_PLANES] = g_param_spec_int64 ("planes", NULL, NULL, 1, G_MAXINT32, 64, flags);
  /**
   * GnnBasicBlock:stride:
   *
   * The stride of the first convolution (and of the downsampling one).
   *
   * Since: 0.1
   */
  properties[PROP_STRIDE] = g_param_spec_int64 ("stride", NULL, NULL, 1, G_MAXINT32, 1, flags);
  /**
   * GnnBasicBlock:has-downsample:
   *
   * Whether the identity goes through a strided 1×1 convolution and a batch
   * norm (torchvision's `downsample`, needed when the stride is not 1 or
   * the channels change).
   *
   * Since: 0.1
   */
  properties[PROP_DOWNSAMPLE] = g_param_spec_boolean ("has-downsample", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_basic_block_init (GnnBasicBlock *self)
{
}

/**
 * gnn_basic_block_new:
 * @inplanes: the input's channels
 * @planes: the output's channels
 * @stride: the stride of the first convolution
 * @downsample: whether the identity is downsampled (a 1×1 convolution of
 *   stride @stride and a batch norm)
 * @error: return location for a #GError
 *
 * Creates torchvision's `BasicBlock(inplanes, planes, stride, downsample)`.
 *
 * Returns: (transfer full): the block, or %NULL when its layers cannot be
 *   built (sizes out of range, out of memory)
 *
 * Since: 0.1
 */
GnnBasicBlock *
gnn_basic_block_new (gint64     inplanes,
                     gint64     planes,
                     gint64     stride,
                     gboolean   downsample,
                     GError   **error)
{
  if (inplanes < 1 || planes < 1 || stride < 1 || inplanes > G_MAXINT32 || planes > G_MAXINT32 ||
      stride > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "BasicBlock: inplanes, planes and stride must be between 1 and 2^31 - 1");
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_BASIC_BLOCK, error, "inplanes", inplanes, "planes", planes,
                              "stride", stride, "has-downsample", downsample, NULL);
}
