/* gnn-resnet.c: torchvision's ResNet (torchvision.models.resnet18/34/50)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "vision/gnn-residual-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnResNet:
 *
 * torchvision's `ResNet(block, layers, num_classes=1000,
 * zero_init_residual=False)`: a 7×7 stride-2 convolution, batch norm, ReLU
 * and 3×3 max pooling, then four stages (`layer1` … `layer4`, each a
 * [class@Gnn.Sequential] of [property@Gnn.ResNet:layers] blocks of 64, 128,
 * 256 and 512 planes, the last three starting with stride 2), a 1×1
 * [class@Gnn.AdaptiveAvgPool2d] and a [class@Gnn.Linear] classifier `fc`.
 *
 * Children, parameters and buffers have torchvision's names in its order,
 * so `torchvision.models.resnet18().state_dict()` (converted to safetensors,
 * or copied tensor by tensor) loads into [func@Gnn.vision_resnet18] and the
 * outputs agree. The weights start as torchvision's do: convolutions
 * Kaiming-normal (fan-out, ReLU gain), batch norms 1 and 0, and with
 * [property@Gnn.ResNet:zero-init-residual] the last batch norm of each
 * block 0, all drawn from the default generator.
 *
 * Since: 0.1
 */
struct _GnnResNet
{
  GnnModule      parent_instance;

  GnnResNetBlock block;
  GVariant      *layers;
  gint64         num_classes;
  gboolean       zero_init_residual;
};

enum {
  PROP_0,
  PROP_BLOCK,
  PROP_LAYERS,
  PROP_NUM_CLASSES,
  PROP_ZERO_INIT_RESIDUAL,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnResNet, gnn_res_net, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define N_STAGES 4

static GnnTensor *
gnn_res_net_forward (GnnModule  *module,
                     GnnTensor  *input,
                     GError    **error)
{
  static const char *const path[] = {
    "conv1", "bn1", "relu", "maxpool", "layer1", "layer2", "layer3", "layer4", "avgpool",
    "flatten", "fc"
  };

  return gnn_vision_model_run (module, "ResNet", path, G_N_ELEMENTS (path), input, error);
}

static GnnModule *
new_block (GnnResNetBlock   block,
           gint64           inplanes,
           gint64           planes,
           gint64           stride,
           gboolean         downsample,
           GError         **error)
{
  if (block == GNN_RES_NET_BLOCK_BOTTLENECK)
    return GNN_MODULE (gnn_bottleneck_new (inplanes, planes, stride, downsample, error));
  return GNN_MODULE (gnn_basic_block_new (inplanes, planes, stride, downsample, error));
}

/* torchvision's ResNet._make_layer */
static GnnModule *
make_stage (GnnResNetBlock   block,
            gint64          *inplanes,
            gint64           planes,
            gint64           blocks,
            gint64           stride,
            GError         **error)
{
  gint64 expansion = block == GNN_RES_NET_BLOCK_BOTTLENECK ? 4 : 1;
  g_autoptr(GnnSequential) stage = gnn_sequential_new (NULL, 0);

  for (gint64 i = 0; i < blocks; i++)
    {
      gboolean first = i == 0;
      gint64 s = first ? stride : 1;
      g_autoptr(GnnModule) b =
        new_block (block, *inplanes, planes, s,
                   first && (stride != 1 || *inplanes != planes * expansion), error);
      g_autofree char *name = g_strdup_printf ("%" G_GINT64_FORMAT, i);

      if (b == NULL || !gnn_module_register_module (GNN_MODULE (stage), name, b, error))
        return NULL;
      *inplanes = planes * expansion;
    }
  return GNN_MODULE (g_steal_pointer (&stage));
}

static gboolean
register_owned (GnnModule   *self,
                const char  *name,
                gpointer     child,
                GError     **error)
{
  g_autoptr(GnnModule) owned = child;

  return owned != NULL && gnn_module_register_module (self, name, owned, error);
}

/* torchvision's initialization loop over self.modules() */
static gboolean
init_weights (GnnResNet  *self,
              GError    **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();   /* writes into parameters */
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) modules = gnn_module_named_modules (GNN_MODULE (self), "", &names);
  GnnGenerator *generator = gnn_nn_default_generator_lock ();
  gboolean ok = TRUE;

  for (guint i = 0; ok && i < modules->len; i++)
    {
      GnnModule *m = g_ptr_array_index (modules, i);
      const char *last = strrchr (names[i], '.');

      if (GNN_IS_CONV2D (m))
        {
          GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL));
          const gint64 *shape = gnn_tensor_get_shape (w, NULL);
          double fan_out = (double) shape[0] * (double) shape[2] * (double) shape[3];

          ok = gnn_tensor_normal_ (w, 0.0, sqrt (2.0 / fan_out), generator, error);
        }
      else if (self->zero_init_residual && GNN_IS_BATCH_NORM2D (m) && last != NULL &&
               g_str_equal (last + 1, self->block == GNN_RES_NET_BLOCK_BOTTLENECK ? "bn3" : "bn2"))
        ok = gnn_nn_reset_fill (m, "weight", 0.0, error);
    }
  gnn_nn_default_generator_unlock ();
  return ok;
}

static gboolean
create_children (GnnResNet  *self,
                 GError    **error)
{
  GnnModule *module = GNN_MODULE (self);
  gsize n = 0;
  const gint64 *layers = gnn_vision_variant_int64s (self->layers, &n);
  gint64 inplanes = 64;

  if (self->num_classes < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "num_classes must be positive, got %" G_GINT64_FORMAT, self->num_classes);
      return FALSE;
    }
  if (n != N_STAGES)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "layers must hold 4 block counts, got %" G_GSIZE_FORMAT, n);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    if (layers[i] < 1 || layers[i] > 4096)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "layers[%" G_GSIZE_FORMAT "] must be between 1 and 4096, got %"
                     G_GINT64_FORMAT, i, layers[i]);
        return FALSE;
      }
  if (!gnn_residual_add_conv_bn (module, "conv1", "bn1", 3, 64, 7, 2, error) ||
      !register_owned (module, "relu", gnn_relu_new (TRUE), error) ||
      !register_owned (module, "maxpool", gnn_max_pool2d_new (3, 2, 1, 1, FALSE, error), error))
    return FALSE;
  for (gsize i = 0; i < N_STAGES; i++)
    {
      g_autofree char *name = g_strdup_printf ("layer%" G_GSIZE_FORMAT, i + 1);

      if (!register_owned (module, name,
                           make_stage (self->block, &inplanes, (gint64) 64 << i, layers[i],
                                       i == 0 ? 1 : 2, error), error))
        return FALSE;
    }
  return register_owned (module, "avgpool", gnn_adaptive_avg_pool2d_new (1, 1, error), error) &&
         register_owned (module, "fc",
                         gnn_linear_new (inplanes, self->num_classes, TRUE, NULL, error), error) &&
         init_weights (self, error);
}

static void
gnn_res_net_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_res_net_parent_class)->constructed (object);
  if (!create_children (GNN_RES_NET (object), &error))
    {
      g_prefix_error (&error, "ResNet: ");
      gnn_nn_set_construct_error (object, error);
    }
}

static char *
gnn_res_net_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_res_net_finalize (GObject *object)
{
  gnn_vision_props_clear (object);
  G_OBJECT_CLASS (gnn_res_net_parent_class)->finalize (object);
}

static void
gnn_res_net_class_init (GnnResNetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  static const gint64 resnet18[] = { 2, 2, 2, 2 };

  object_class->constructed = gnn_res_net_constructed;
  object_class->finalize = gnn_res_net_finalize;
  module_class->forward = gnn_res_net_forward;
  module_class->extra_repr = gnn_res_net_extra_repr;

  /**
   * GnnResNet:block:
   *
   * The residual block of every stage.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_BLOCK,
    g_param_spec_enum ("block", NULL, NULL, GNN_TYPE_RES_NET_BLOCK, GNN_RES_NET_BLOCK_BASIC,
                       flags),
    G_STRUCT_OFFSET (GnnResNet, block));
  /**
   * GnnResNet:layers:
   *
   * The number of blocks of each of the four stages (an `ax` variant):
   * `[2, 2, 2, 2]` is ResNet-18, `[3, 4, 6, 3]` ResNet-34 (basic blocks)
   * and ResNet-50 (bottlenecks).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_LAYERS,
    g_param_spec_variant ("layers", NULL, NULL, G_VARIANT_TYPE ("ax"),
                          gnn_vision_int64s_variant (resnet18, G_N_ELEMENTS (resnet18)), flags),
    G_STRUCT_OFFSET (GnnResNet, layers));
  /**
   * GnnResNet:num-classes:
   *
   * The classifier's outputs.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_CLASSES,
    g_param_spec_int64 ("num-classes", NULL, NULL, G_MININT32, G_MAXINT32, 1000, flags),
    G_STRUCT_OFFSET (GnnResNet, num_classes));
  /**
   * GnnResNet:zero-init-residual:
   *
   * Whether the last batch norm of each block starts at 0 (each block then
   * starts as the identity).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_ZERO_INIT_RESIDUAL,
    g_param_spec_boolean ("zero-init-residual", NULL, NULL, FALSE, flags),
    G_STRUCT_OFFSET (GnnResNet, zero_init_residual));
}

static void
gnn_res_net_init (GnnResNet *self)
{
}

/**
 * gnn_res_net_new:
 * @block: the residual block
 * @layers: (array length=n_layers): the blocks of each of the 4 stages
 * @n_layers: 4
 * @num_classes: the classifier's outputs
 * @error: return location for a #GError
 *
 * Creates torchvision's `ResNet(block, layers, num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnResNet *
gnn_res_net_new (GnnResNetBlock   block,
                 const gint64    *layers,
                 gsize            n_layers,
                 gint64           num_classes,
                 GError         **error)
{
  return gnn_nn_initable_new (GNN_TYPE_RES_NET, error, "block", block,
                              "layers", gnn_vision_int64s_variant (layers, n_layers),
                              "num-classes", num_classes, NULL);
}

/**
 * gnn_vision_resnet18:
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.resnet18(weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnResNet *
gnn_vision_resnet18 (gint64    num_classes,
                     GError  **error)
{
  static const gint64 layers[] = { 2, 2, 2, 2 };

  return gnn_res_net_new (GNN_RES_NET_BLOCK_BASIC, layers, N_STAGES, num_classes, error);
}

/**
 * gnn_vision_resnet34:
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.resnet34(weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnResNet *
gnn_vision_resnet34 (gint64    num_classes,
                     GError  **error)
{
  static const gint64 layers[] = { 3, 4, 6, 3 };

  return gnn_res_net_new (GNN_RES_NET_BLOCK_BASIC, layers, N_STAGES, num_classes, error);
}

/**
 * gnn_vision_resnet50:
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.resnet50(weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnResNet *
gnn_vision_resnet50 (gint64    num_classes,
                     GError  **error)
{
  static const gint64 layers[] = { 3, 4, 6, 3 };

  return gnn_res_net_new (GNN_RES_NET_BLOCK_BOTTLENECK, layers, N_STAGES, num_classes, error);
}
