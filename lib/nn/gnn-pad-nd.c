/* gnn-pad-nd.c: the base of the padding layers
 *
 * One implementation for ConstantPad1d/2d/3d, ZeroPad2d, ReflectionPad1d/
 * 2d/3d and ReplicationPad1d/2d/3d: the subclasses declare their number of
 * padded dimensions, mode and whether they have a fill value; forward is
 * [method@Gnn.Tensor.pad].
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-pad-nd-private.h"

/**
 * GnnPadNd:
 *
 * The abstract base of the padding layers, torch's `_ConstantPadNd`,
 * `_ReflectionPadNd` and `_ReplicationPadNd`: a layer pads the last 1, 2
 * or 3 dimensions of its input by its `padding-*` properties (torch's
 * `padding` tuple: left, right, top, bottom, front, back) with
 * [method@Gnn.Tensor.pad], so inputs, errors and gradients are those of
 * `F.pad`. The layers have no parameters.
 *
 * Since: 0.1
 */

enum
{
  PROP_0,
  PROP_PADDING,        /* PROP_PADDING + i: side i in torch's order */
  PROP_VALUE = PROP_PADDING + 6,
};

typedef struct
{
  gint64 padding[6];
  double value;
} GnnPadNdPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnPadNd, gnn_pad_nd, GNN_TYPE_MODULE)

#define PRIV(self) ((GnnPadNdPrivate *) gnn_pad_nd_get_instance_private (GNN_PAD_ND (self)))

static GnnTensor *
gnn_pad_nd_forward (GnnModule  *module,
                    GnnTensor  *input,
                    GError    **error)
{
  GnnPadNdClass *klass = GNN_PAD_ND_GET_CLASS (module);
  GnnPadNdPrivate *priv = PRIV (module);

  return gnn_tensor_pad (input, priv->padding, 2 * klass->n_spatial, klass->mode,
                         klass->has_value ? priv->value : 0.0, error);
}

static char *
gnn_pad_nd_extra_repr (GnnModule *module)
{
  GnnPadNdClass *klass = GNN_PAD_ND_GET_CLASS (module);
  GnnPadNdPrivate *priv = PRIV (module);
  GString *s = g_string_new (klass->has_value ? "padding=(" : "(");

  for (guint i = 0; i < 2 * klass->n_spatial; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", priv->padding[i]);
  g_string_append_c (s, ')');
  if (klass->has_value)
    {
      g_autofree char *v = gnn_nn_format_float (priv->value);

      g_string_append_printf (s, ", value=%s", v);
    }
  return g_string_free (s, FALSE);
}

static void
gnn_pad_nd_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  GnnPadNdPrivate *priv = PRIV (object);

  if (prop_id >= PROP_PADDING && prop_id < PROP_VALUE)
    g_value_set_int64 (value, priv->padding[prop_id - PROP_PADDING]);
  else if (prop_id == PROP_VALUE)
    g_value_set_double (value, priv->value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_pad_nd_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  GnnPadNdPrivate *priv = PRIV (object);

  if (prop_id >= PROP_PADDING && prop_id < PROP_VALUE)
    priv->padding[prop_id - PROP_PADDING] = g_value_get_int64 (value);
  else if (prop_id == PROP_VALUE)
    priv->value = g_value_get_double (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_pad_nd_class_init (GnnPadNdClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_pad_nd_forward;
  module_class->extra_repr = gnn_pad_nd_extra_repr;
}

static void
gnn_pad_nd_init (GnnPadNd *self)
{
}

static const char *const side_names[6] = {
  "padding-left", "padding-right", "padding-top", "padding-bottom", "padding-front", "padding-back",
};

void
gnn_pad_nd_class_setup (GnnPadNdClass  *klass,
                        guint           n_spatial,
                        GnnPaddingMode  mode,
                        gboolean        has_value)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  g_return_if_fail (n_spatial >= 1 && n_spatial <= 3);
  klass->n_spatial = n_spatial;
  klass->mode = mode;
  klass->has_value = has_value;
  /* GObject does not inherit these: each subclass routes to the base's */
  object_class->get_property = gnn_pad_nd_get_property;
  object_class->set_property = gnn_pad_nd_set_property;
  /* any size: negative pads crop, and bad ones are forward's errors (torch's) */
  for (guint i = 0; i < 2 * n_spatial; i++)
    g_object_class_install_property (object_class, PROP_PADDING + i,
                                     g_param_spec_int64 (side_names[i], NULL, NULL, -G_MAXINT32, G_MAXINT32, 0,
                                                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                         G_PARAM_STATIC_STRINGS));
  if (has_value)
    g_object_class_install_property (object_class, PROP_VALUE,
                                     g_param_spec_double ("value", NULL, NULL, -INFINITY, INFINITY, 0.0,
                                                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                          G_PARAM_STATIC_STRINGS));
}

gpointer
gnn_pad_nd_new (GType         type,
                const gint64 *padding,
                double        value,
                GError      **error)
{
  GnnPadNdClass *klass = g_type_class_ref (type);
  guint n = 2 * klass->n_spatial;
  gboolean has_value = klass->has_value;
  const char *names[7];
  GValue values[7] = { G_VALUE_INIT };
  gpointer layer;

  g_type_class_unref (klass);
  for (guint i = 0; i < n; i++)
    if (padding[i] < -G_MAXINT32 || padding[i] > G_MAXINT32)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: padding must be within [-%d, %d], got %" G_GINT64_FORMAT,
                     g_type_name (type) + 3, G_MAXINT32, G_MAXINT32, padding[i]);
        return NULL;
      }
  for (guint i = 0; i < n; i++)
    {
      names[i] = side_names[i];
      g_value_init (&values[i], G_TYPE_INT64);
      g_value_set_int64 (&values[i], padding[i]);
    }
  if (has_value)
    {
      names[n] = "value";
      g_value_init (&values[n], G_TYPE_DOUBLE);
      g_value_set_double (&values[n++], value);
    }
  layer = g_object_new_with_properties (type, n, names, values);
  for (guint i = 0; i < n; i++)
    g_value_unset (&values[i]);
  return layer;
}
