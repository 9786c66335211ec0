/* gnn-loss-private.c: what the loss modules of lib/nn share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"

#include <string.h>

/* The compute function a loss's forward points to, per type. */
G_DEFINE_QUARK (gnn-loss-compute-name, gnn_loss_compute_name)

const char *
gnn_loss_reduction_name (GnnReduction reduction)
{
  switch (reduction)
    {
    case GNN_REDUCTION_NONE: return "none";
    case GNN_REDUCTION_MEAN: return "mean";
    case GNN_REDUCTION_SUM: return "sum";
    default: return NULL;
    }
}

gboolean
gnn_loss_get_reduction (GnnLossBase   *self,
                        GnnReduction  *out,
                        GError       **error)
{
  const char *name = self->reduction;

  for (GnnReduction r = GNN_REDUCTION_NONE; r <= GNN_REDUCTION_SUM; r++)
    if (g_strcmp0 (name, gnn_loss_reduction_name (r)) == 0)
      {
        *out = r;
        return TRUE;
      }
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s is not a valid value for reduction", name ? name : "None");
  return FALSE;
}

static GnnTensor *
gnn_loss_forward (GnnModule  *module,
                  GnnTensor  *input,
                  GError    **error)
{
  GType type = G_OBJECT_TYPE (module);
  const char *type_name = g_type_name (type);
  const char *compute_name = g_type_get_qdata (type, gnn_loss_compute_name_quark ());

  (void) input;
  if (g_str_has_prefix (type_name, "Gnn"))
    type_name += strlen ("Gnn");
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s.forward() missing 1 required positional argument: 'target' "
               "(use %s (loss, input, target))", type_name, compute_name);
  return NULL;
}

void
gnn_loss_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  if (prop_id == GNN_LOSS_PROP_REDUCTION)
    g_value_set_string (value, GNN_LOSS_BASE (object)->reduction);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

void
gnn_loss_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  GnnLossBase *self = GNN_LOSS_BASE (object);

  if (prop_id == GNN_LOSS_PROP_REDUCTION)
    {
      g_free (self->reduction);
      self->reduction = g_value_dup_string (value);
    }
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_loss_finalize (GObject *object)
{
  g_free (GNN_LOSS_BASE (object)->reduction);
  /* The losses are final types deriving from GnnModule directly. */
  G_OBJECT_CLASS (g_type_class_peek (GNN_TYPE_MODULE))->finalize (object);
}

void
gnn_loss_class_setup (GObjectClass *object_class,
                      const char   *compute_name)
{
  g_type_set_qdata (G_TYPE_FROM_CLASS (object_class), gnn_loss_compute_name_quark (),
                    (gpointer) compute_name);
  object_class->get_property = gnn_loss_get_property;
  object_class->set_property = gnn_loss_set_property;
  object_class->finalize = gnn_loss_finalize;
  GNN_MODULE_CLASS (object_class)->forward = gnn_loss_forward;

  g_object_class_install_property (object_class, GNN_LOSS_PROP_REDUCTION,
                                   g_param_spec_string ("reduction", NULL, NULL, "mean",
                                                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT |
                                                        G_PARAM_STATIC_STRINGS));
}

void
gnn_loss_class_add_buffer (GObjectClass *object_class,
                           const char   *name)
{
  gnn_module_class_install_child_slot (GNN_MODULE_CLASS (object_class), name, GNN_TYPE_TENSOR);
}

void
gnn_loss_init_buffer (GnnLossBase *self,
                      const char  *name)
{
  gnn_module_register_buffer (GNN_MODULE (self), name, NULL, TRUE, NULL);
}

GnnTensor *
gnn_loss_buffer (GnnLossBase *self,
                 const char  *name)
{
  return gnn_module_get_buffer (GNN_MODULE (self), name, NULL);
}
