/* gnn-squeeze-net.c: torchvision's SqueezeNet
 * (torchvision.models.squeezenet1_0 / squeezenet1_1)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnSqueezeNet:
 *
 * torchvision's `SqueezeNet(version="1_0", num_classes=1000, dropout=0.5)`:
 * `features`, a [class@Gnn.Sequential] of a strided convolution, ReLU,
 * [class@Gnn.Fire] blocks and 3×3 stride-2 max poolings with `ceil_mode`;
 * `classifier`, dropout, a 1×1 convolution to
 * [property@Gnn.SqueezeNet:num-classes] channels, ReLU and a 1×1
 * [class@Gnn.AdaptiveAvgPool2d]; the output flattened.
 *
 * Children, parameters and buffers have torchvision's names in its order,
 * so the state dict of `torchvision.models.squeezenet1_1()` loads into it
 * and the outputs agree. The weights start as torchvision's do:
 * convolutions Kaiming-uniform, the final one normal(0, 0.01), biases 0.
 *
 * Since: 0.1
 */
struct _GnnSqueezeNet
{
  GnnModule  parent_instance;

  char      *version;
  gint64     num_classes;
  double     dropout;
};

enum {
  PROP_0,
  PROP_VERSION,
  PROP_NUM_CLASSES,
  PROP_DROPOUT,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnSqueezeNet, gnn_squeeze_net, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_squeeze_net_forward (GnnModule  *module,
                         GnnTensor  *input,
                         GError    **error)
{
  static const char *const path[] = { "features", "classifier", "flatten" };

  return gnn_vision_model_run (module, "SqueezeNet", path, G_N_ELEMENTS (path), input, error);
}

/* A feature layer: 0 is a ceil-mode max pooling, else a Fire block's
 * (inplanes, squeeze, expand) with both expansions equal. */
typedef struct { gint64 inplanes, squeeze, expand; } Layer;

static const Layer v1_0[] = {
  { 0 }, { 96, 16, 64 }, { 128, 16, 64 }, { 128, 32, 128 }, { 0 }, { 256, 32, 128 },
  { 256, 48, 192 }, { 384, 48, 192 }, { 384, 64, 256 }, { 0 }, { 512, 64, 256 },
};
static const Layer v1_1[] = {
  { 0 }, { 64, 16, 64 }, { 128, 16, 64 }, { 0 }, { 128, 32, 128 }, { 256, 32, 128 }, { 0 },
  { 256, 48, 192 }, { 384, 48, 192 }, { 384, 64, 256 }, { 512, 64, 256 },
};

static GnnModule *
make_features (GnnSqueezeNet  *self,
               GError        **error)
{
  g_autoptr(GnnSequential) features = gnn_sequential_new (NULL, 0);
  GnnModule *f = GNN_MODULE (features);
  gboolean one_zero = g_str_equal (self->version, "1_0");
  const Layer *layers = one_zero ? v1_0 : v1_1;
  gsize n = one_zero ? G_N_ELEMENTS (v1_0) : G_N_ELEMENTS (v1_1);

  if (!gnn_vision_model_append (f, one_zero ?
                                gnn_vision_model_conv (3, 96, 7, 2, 0, 1, TRUE, error) :
                                gnn_vision_model_conv (3, 64, 3, 2, 0, 1, TRUE, error), error) ||
      !gnn_vision_model_append (f, gnn_relu_new (TRUE), error))
    return NULL;
  for (gsize i = 0; i < n; i++)
    if (!gnn_vision_model_append (f, layers[i].inplanes == 0 ?
                                  (gpointer) gnn_max_pool2d_new (3, 2, 0, 1, TRUE, error) :
                                  (gpointer) gnn_fire_new (layers[i].inplanes, layers[i].squeeze,
                                                           layers[i].expand, layers[i].expand,
                                                           error), error))
      return NULL;
  return GNN_MODULE (g_steal_pointer (&features));
}

static gboolean
create_children (GnnSqueezeNet  *self,
                 GError        **error)
{
  GnnModule *module = GNN_MODULE (self);
  g_autoptr(GnnSequential) classifier = gnn_sequential_new (NULL, 0);
  GnnModule *c = GNN_MODULE (classifier);
  GnnGenerator *generator;
  gboolean ok;

  if (self->version == NULL ||
      (!g_str_equal (self->version, "1_0") && !g_str_equal (self->version, "1_1")))
    {
      /* torchvision's message */
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Unsupported SqueezeNet version %s: 1_0 or 1_1 expected",
                   self->version != NULL ? self->version : "None");
      return FALSE;
    }
  if (!gnn_vision_model_check_classes (self->num_classes, error) ||
      !gnn_vision_model_add (module, "features", make_features (self, error), error) ||
      !gnn_vision_model_append (c, gnn_dropout_new (self->dropout, FALSE, NULL, error), error) ||
      !gnn_vision_model_append (c, gnn_vision_model_conv (512, self->num_classes, 1, 1, 0, 1,
                                                          TRUE, error), error) ||
      !gnn_vision_model_append (c, gnn_relu_new (TRUE), error) ||
      !gnn_vision_model_append (c, gnn_adaptive_avg_pool2d_new (1, 1, error), error) ||
      !gnn_module_register_module (module, "classifier", c, error) ||
      !gnn_vision_model_init (module, GNN_VISION_CONV_INIT_KAIMING_UNIFORM, 0.0, error))
    return FALSE;
  /* final_conv, the last convolution, is redrawn: normal(0, 0.01) */
  generator = gnn_nn_default_generator_lock ();
  {
    g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();

    GnnModule *final_conv = GNN_MODULE (gnn_module_get_child (c, "1", NULL));

    ok = gnn_init_normal_ (GNN_TENSOR (gnn_module_get_parameter (final_conv, "weight", NULL)),
                           0.0, 0.01, generator, error);
  }
  gnn_nn_default_generator_unlock ();
  return ok;
}

static void
gnn_squeeze_net_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_squeeze_net_parent_class)->constructed (object);
  if (!create_children (GNN_SQUEEZE_NET (object), &error))
    gnn_vision_model_construct_failed (object, "SqueezeNet", error);
}

static char *
gnn_squeeze_net_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_squeeze_net_finalize (GObject *object)
{
  gnn_vision_props_clear (object);
  G_OBJECT_CLASS (gnn_squeeze_net_parent_class)->finalize (object);
}

static void
gnn_squeeze_net_class_init (GnnSqueezeNetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_squeeze_net_constructed;
  object_class->finalize = gnn_squeeze_net_finalize;
  module_class->forward = gnn_squeeze_net_forward;
  module_class->extra_repr = gnn_squeeze_net_extra_repr;

  /**
   * GnnSqueezeNet:version:
   *
   * `"1_0"` (SqueezeNet 1.0) or `"1_1"` (SqueezeNet 1.1, 2.4× cheaper).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_VERSION,
    g_param_spec_string ("version", NULL, NULL, "1_0", flags),
    G_STRUCT_OFFSET (GnnSqueezeNet, version));
  /**
   * GnnSqueezeNet:num-classes:
   *
   * The classifier's outputs.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_CLASSES,
    g_param_spec_int64 ("num-classes", NULL, NULL, G_MININT32, G_MAXINT32, 1000, flags),
    G_STRUCT_OFFSET (GnnSqueezeNet, num_classes));
  /**
   * GnnSqueezeNet:dropout:
   *
   * The probability of the classifier's dropout layer.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DROPOUT,
    g_param_spec_double ("dropout", NULL, NULL, 0.0, 1.0, 0.5, flags),
    G_STRUCT_OFFSET (GnnSqueezeNet, dropout));
}

static void
gnn_squeeze_net_init (GnnSqueezeNet *self)
{
}

/**
 * gnn_squeeze_net_new:
 * @version: `"1_0"` or `"1_1"`
 * @num_classes: the classifier's outputs
 * @dropout: the probability of the classifier's dropout layer
 * @error: return location for a #GError
 *
 * Creates torchvision's `SqueezeNet(version, num_classes, dropout)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnSqueezeNet *
gnn_squeeze_net_new (const char  *version,
                     gint64       num_classes,
                     double       dropout,
                     GError     **error)
{
  return gnn_nn_initable_new (GNN_TYPE_SQUEEZE_NET, error, "version", version,
                              "num-classes", num_classes, "dropout", dropout, NULL);
}

/**
 * gnn_vision_squeezenet1_0:
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.squeezenet1_0(weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnSqueezeNet *
gnn_vision_squeezenet1_0 (gint64    num_classes,
                          GError  **error)
{
  return gnn_squeeze_net_new ("1_0", num_classes, 0.5, error);
}

/**
 * gnn_vision_squeezenet1_1:
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.squeezenet1_1(weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnSqueezeNet *
gnn_vision_squeezenet1_1 (gint64    num_classes,
                          GError  **error)
{
  return gnn_squeeze_net_new ("1_1", num_classes, 0.5, error);
}
