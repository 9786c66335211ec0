/* gnn-activation-module-private.c: what the activation modules with
 * settings share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"

static void
activation_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  double v;

  if (prop_id == 0 || prop_id > GNN_ACTIVATION_MAX_SETTINGS)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  v = GNN_ACTIVATION_BASE (object)->values[prop_id - 1];
  if (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_BOOLEAN)
    g_value_set_boolean (value, v != 0);
  else if (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_INT)
    g_value_set_int (value, (gint) v);
  else
    g_value_set_double (value, v);
}

static void
activation_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  double *v;

  if (prop_id == 0 || prop_id > GNN_ACTIVATION_MAX_SETTINGS)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  v = &GNN_ACTIVATION_BASE (object)->values[prop_id - 1];
  if (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_BOOLEAN)
    *v = g_value_get_boolean (value);
  else if (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_INT)
    *v = g_value_get_int (value);
  else
    *v = g_value_get_double (value);
}

void
gnn_activation_class_setup (GObjectClass  *object_class,
                            GnnTensor  *(*forward) (GnnModule *, GnnTensor *, GError **),
                            char       *(*extra_repr) (GnnModule *))
{
  object_class->get_property = activation_get_property;
  object_class->set_property = activation_set_property;
  GNN_MODULE_CLASS (object_class)->forward = forward;
  GNN_MODULE_CLASS (object_class)->extra_repr = extra_repr;
}

#define SETTING_FLAGS (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS)

void
gnn_activation_class_add_double (GObjectClass *object_class,
                                 guint         prop_id,
                                 const char   *name,
                                 double        minimum,
                                 double        maximum,
                                 double        default_value)
{
  g_assert (prop_id >= 1 && prop_id <= GNN_ACTIVATION_MAX_SETTINGS);
  g_object_class_install_property (object_class, prop_id,
                                   g_param_spec_double (name, NULL, NULL, minimum, maximum,
                                                        default_value, SETTING_FLAGS));
}

void
gnn_activation_class_add_boolean (GObjectClass *object_class,
                                  guint         prop_id,
                                  const char   *name,
                                  gboolean      default_value)
{
  g_assert (prop_id >= 1 && prop_id <= GNN_ACTIVATION_MAX_SETTINGS);
  g_object_class_install_property (object_class, prop_id,
                                   g_param_spec_boolean (name, NULL, NULL, default_value,
                                                         SETTING_FLAGS));
}

void
gnn_activation_class_add_int (GObjectClass *object_class,
                              guint         prop_id,
                              const char   *name,
                              gint          minimum,
                              gint          maximum,
                              gint          default_value)
{
  g_assert (prop_id >= 1 && prop_id <= GNN_ACTIVATION_MAX_SETTINGS);
  g_object_class_install_property (object_class, prop_id,
                                   g_param_spec_int (name, NULL, NULL, minimum, maximum,
                                                     default_value, SETTING_FLAGS));
}

GnnTensor *
gnn_activation_inplace_result (gboolean   ok,
                               GnnTensor *input)
{
  return ok ? g_object_ref (input) : NULL;
}

const char *
gnn_activation_inplace_repr (gboolean inplace,
                             gboolean first)
{
  if (!inplace)
    return "";
  return first ? "inplace=True" : ", inplace=True";
}
