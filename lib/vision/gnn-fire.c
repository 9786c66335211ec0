/* gnn-fire.c: SqueezeNet's Fire module (torchvision.models.squeezenet.Fire)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnFire:
 *
 * torchvision's `Fire(inplanes, squeeze_planes, expand1x1_planes,
 * expand3x3_planes)`, the block of [class@Gnn.SqueezeNet]: a 1×1
 * `squeeze` convolution and its ReLU, then the concatenation along the
 * channels of a 1×1 (`expand1x1`) and a 3×3 (`expand3x3`) convolution of
 * it, each followed by its ReLU. Children have torchvision's names.
 *
 * Since: 0.1
 */
struct _GnnFire
{
  GnnModule  parent_instance;

  gint64     inplanes;
  gint64     squeeze_planes;
  gint64     expand1x1_planes;
  gint64     expand3x3_planes;
};

enum {
  PROP_0,
  PROP_INPLANES,
  PROP_SQUEEZE_PLANES,
  PROP_EXPAND1X1_PLANES,
  PROP_EXPAND3X3_PLANES,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnFire, gnn_fire, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_fire_forward (GnnModule  *module,
                  GnnTensor  *input,
                  GError    **error)
{
  static const char *const squeeze[] = { "squeeze", "squeeze_activation" };
  static const char *const e1[] = { "expand1x1", "expand1x1_activation" };
  static const char *const e3[] = { "expand3x3", "expand3x3_activation" };
  g_autoptr(GnnTensor) x = gnn_vision_model_run (module, "Fire", squeeze, 2, input, error);
  g_autoptr(GnnTensor) a = x != NULL ? gnn_vision_model_run (module, "Fire", e1, 2, x, error) : NULL;
  g_autoptr(GnnTensor) b = a != NULL ? gnn_vision_model_run (module, "Fire", e3, 2, x, error) : NULL;
  GnnTensor *both[2] = { a, b };

  return b != NULL ? gnn_tensor_cat (both, 2, 1, error) : NULL;
}

static gboolean
create_children (GnnFire  *self,
                 GError  **error)
{
  GnnModule *m = GNN_MODULE (self);

  return gnn_vision_model_add (m, "squeeze", gnn_vision_model_conv (self->inplanes,
                               self->squeeze_planes, 1, 1, 0, 1, TRUE, error), error) &&
         gnn_vision_model_add (m, "squeeze_activation", gnn_relu_new (TRUE), error) &&
         gnn_vision_model_add (m, "expand1x1", gnn_vision_model_conv (self->squeeze_planes,
                               self->expand1x1_planes, 1, 1, 0, 1, TRUE, error), error) &&
         gnn_vision_model_add (m, "expand1x1_activation", gnn_relu_new (TRUE), error) &&
         gnn_vision_model_add (m, "expand3x3", gnn_vision_model_conv (self->squeeze_planes,
                               self->expand3x3_planes, 3, 1, 1, 1, TRUE, error), error) &&
         gnn_vision_model_add (m, "expand3x3_activation", gnn_relu_new (TRUE), error);
}

static void
gnn_fire_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_fire_parent_class)->constructed (object);
  if (!create_children (GNN_FIRE (object), &error))
    gnn_vision_model_construct_failed (object, "Fire", error);
}

static char *
gnn_fire_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_fire_class_init (GnnFireClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_fire_constructed;
  module_class->forward = gnn_fire_forward;
  module_class->extra_repr = gnn_fire_extra_repr;

  /**
   * GnnFire:inplanes:
   *
   * The input channels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INPLANES,
    g_param_spec_int64 ("inplanes", NULL, NULL, 1, G_MAXINT32, 96, flags),
    G_STRUCT_OFFSET (GnnFire, inplanes));
  /**
   * GnnFire:squeeze-planes:
   *
   * The channels of the 1×1 squeeze convolution.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_SQUEEZE_PLANES,
    g_param_spec_int64 ("squeeze-planes", NULL, NULL, 1, G_MAXINT32, 16, flags),
    G_STRUCT_OFFSET (GnnFire, squeeze_planes));
  /**
   * GnnFire:expand1x1-planes:
   *
   * The channels of the 1×1 expanding convolution.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_EXPAND1X1_PLANES,
    g_param_spec_int64 ("expand1x1-planes", NULL, NULL, 1, G_MAXINT32, 64, flags),
    G_STRUCT_OFFSET (GnnFire, expand1x1_planes));
  /**
   * GnnFire:expand3x3-planes:
   *
   * The channels of the 3×3 expanding convolution.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_EXPAND3X3_PLANES,
    g_param_spec_int64 ("expand3x3-planes", NULL, NULL, 1, G_MAXINT32, 64, flags),
    G_STRUCT_OFFSET (GnnFire, expand3x3_planes));
}

static void
gnn_fire_init (GnnFire *self)
{
}

/**
 * gnn_fire_new:
 * @inplanes: the input channels
 * @squeeze_planes: the channels of the squeeze convolution
 * @expand1x1_planes: the channels of the 1×1 expanding convolution
 * @expand3x3_planes: the channels of the 3×3 expanding convolution
 * @error: return location for a #GError
 *
 * Creates torchvision's `Fire(inplanes, squeeze_planes, expand1x1_planes,
 * expand3x3_planes)`.
 *
 * Returns: (transfer full): the block, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnFire *
gnn_fire_new (gint64    inplanes,
              gint64    squeeze_planes,
              gint64    expand1x1_planes,
              gint64    expand3x3_planes,
              GError  **error)
{
  return gnn_nn_initable_new (GNN_TYPE_FIRE, error, "inplanes", inplanes,
                              "squeeze-planes", squeeze_planes,
                              "expand1x1-planes", expand1x1_planes,
                              "expand3x3-planes", expand3x3_planes, NULL);
}
