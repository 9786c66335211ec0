/* gnn-activation-module-private.c: what the activation modules with
 * settings share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

static void
activation_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  if (prop_id == 0 || prop_id > GNN_ACTIVATION_MAX_SETTINGS)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else
    gnn_nn_setting_get (GNN_ACTIVATION_BASE (object)->values[prop_id - 1], value, pspec);
}

static void
activation_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  if (prop_id == 0 || prop_id > GNN_ACTIVATION_MAX_SETTINGS)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else
    GNN_ACTIVATION_BASE (object)->values[prop_id - 1] = gnn_nn_setting_set (value, pspec);
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
