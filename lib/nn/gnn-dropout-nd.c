/* gnn-dropout-nd.c: the base of the channel-wise and alpha dropout layers
 * (Dropout1d/2d/3d, AlphaDropout, FeatureAlphaDropout)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-dropout-nd-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnDropoutNd:
 *
 * The abstract base of the dropout layers that drop whole channels or use
 * alpha dropout, torch's `_DropoutNd`: in training, each channel of each
 * sample ([class@Gnn.Dropout1d], [class@Gnn.Dropout2d],
 * [class@Gnn.Dropout3d], [class@Gnn.FeatureAlphaDropout]) or each element
 * ([class@Gnn.AlphaDropout]) is dropped with probability
 * [property@Gnn.DropoutNd:p] ([method@Gnn.Tensor.feature_dropout],
 * [method@Gnn.Tensor.alpha_dropout]); in evaluation the input passes
 * unchanged. The masks are drawn from [property@Gnn.DropoutNd:generator].
 *
 * Since: 0.1
 */

typedef struct
{
  double        p;
  gboolean      inplace;
  GnnGenerator *generator;
} GnnDropoutNdPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnDropoutNd, gnn_dropout_nd, GNN_TYPE_MODULE,
                                  G_ADD_PRIVATE (GnnDropoutNd)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define PRIV(self) ((GnnDropoutNdPrivate *) gnn_dropout_nd_get_instance_private (GNN_DROPOUT_ND (self)))

enum
{
  PROP_0,
  PROP_P,
  PROP_INPLACE,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
gnn_dropout_nd_constructed (GObject *object)
{
  double p = PRIV (object)->p;

  G_OBJECT_CLASS (gnn_dropout_nd_parent_class)->constructed (object);
  if (!(p >= 0 && p <= 1))
    {
      g_autofree char *text = gnn_nn_format_float (p);

      gnn_nn_set_construct_error (object, g_error_new (GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                                                       "dropout probability has to be between 0 and 1, but got %s",
                                                       text));
    }
}

/* Channel-wise dropout of @input (with a batch dimension). */
static GnnTensor *
drop (GnnModule  *module,
      GnnTensor  *input,
      GError    **error)
{
  GnnDropoutNdClass *klass = GNN_DROPOUT_ND_GET_CLASS (module);
  GnnDropoutNdPrivate *priv = PRIV (module);
  gboolean training = gnn_module_get_training (module);

  if (klass->feature)
    return gnn_tensor_feature_dropout (input, priv->p, training, klass->alpha, priv->inplace, priv->generator,
                                       error);
  return gnn_tensor_alpha_dropout (input, priv->p, training, priv->inplace, priv->generator, error);
}

static GnnTensor *
gnn_dropout_nd_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  guint k = GNN_DROPOUT_ND_GET_CLASS (module)->n_spatial, ndim = gnn_tensor_get_ndim (input);
  g_autoptr(GnnTensor) batched = NULL;
  g_autoptr(GnnTensor) out = NULL;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  if (k == 1 && ndim != 2 && ndim != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "dropout1d: Expected 2D or 3D input, but received a %uD input. Note that dropout1d exists to "
                   "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an "
                   "optional batch dimension (i.e. 2D or 3D inputs).", ndim);
      return NULL;
    }
  /* an unbatched input of Dropout1d or Dropout3d: a batch of one (torch
   * 1.13's Dropout2d takes 3-d inputs as batched 1-d ones, and other
   * ranks as batched inputs, with a warning) */
  if (!((k == 1 && ndim == 2) || (k == 3 && ndim == 4)))
    return drop (module, input, error);
  if ((batched = gnn_tensor_unsqueeze (input, 0, error)) == NULL || (out = drop (module, batched, error)) == NULL)
    return NULL;
  return gnn_tensor_squeeze (out, 0, error);
}

static char *
gnn_dropout_nd_extra_repr (GnnModule *module)
{
  g_autofree char *p = gnn_nn_format_float (PRIV (module)->p);

  return g_strdup_printf ("p=%s, inplace=%s", p, gnn_nn_bool_str (PRIV (module)->inplace));
}

static void
gnn_dropout_nd_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GnnDropoutNdPrivate *priv = PRIV (object);

  switch (prop_id)
    {
    case PROP_P:
      g_value_set_double (value, priv->p);
      break;
    case PROP_INPLACE:
      g_value_set_boolean (value, priv->inplace);
      break;
    case PROP_GENERATOR:
      g_value_set_object (value, priv->generator);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_dropout_nd_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GnnDropoutNdPrivate *priv = PRIV (object);

  switch (prop_id)
    {
    case PROP_P:
      priv->p = g_value_get_double (value);
      break;
    case PROP_INPLACE:
      priv->inplace = g_value_get_boolean (value);
      break;
    case PROP_GENERATOR:
      g_set_object (&priv->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_dropout_nd_dispose (GObject *object)
{
  g_clear_object (&PRIV (object)->generator);

  G_OBJECT_CLASS (gnn_dropout_nd_parent_class)->dispose (object);
}

static void
gnn_dropout_nd_class_init (GnnDropoutNdClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_dropout_nd_constructed;
  object_class->dispose = gnn_dropout_nd_dispose;
  object_class->get_property = gnn_dropout_nd_get_property;
  object_class->set_property = gnn_dropout_nd_set_property;
  module_class->forward = gnn_dropout_nd_forward;
  module_class->extra_repr = gnn_dropout_nd_extra_repr;

  /**
   * GnnDropoutNd:p:
   *
   * The probability of dropping a channel or an element (`p`), in [0, 1]:
   * another value fails construction with torch's message.
   *
   * Since: 0.1
   */
  properties[PROP_P] = g_param_spec_double ("p", NULL, NULL, -INFINITY, INFINITY, 0.5,
                                            G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDropoutNd:inplace:
   *
   * Whether to write the result into the input (`inplace`).
   *
   * Since: 0.1
   */
  properties[PROP_INPLACE] = g_param_spec_boolean ("inplace", NULL, NULL, FALSE,
                                                   G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                   G_PARAM_STATIC_STRINGS);
  /**
   * GnnDropoutNd:generator:
   *
   * The generator the masks are drawn from, or %NULL for the library's
   * default one.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] = g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                                                    G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_dropout_nd_init (GnnDropoutNd *self)
{
  PRIV (self)->p = 0.5;
}

gpointer
gnn_dropout_nd_new (GType         type,
                    double        p,
                    gboolean      inplace,
                    GnnGenerator *generator,
                    GError      **error)
{
  return gnn_nn_initable_new (type, error, "p", p, "inplace", inplace, "generator", generator, NULL);
}
