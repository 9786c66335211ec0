/* gnn-loss-private.c: what the loss modules of lib/nn share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-loss-private.h"
#include "nn/gnn-nn-private.h"

#include <string.h>

/* What a loss class registered: its compute function, public method name
 * and input names (type qdata). */
typedef struct
{
  const char         *compute_name;
  GnnLossComputeFunc  compute;
  const char         *names[GNN_LOSS_MAX_INPUTS + 1];
  guint               n_inputs;
} LossClassInfo;

G_DEFINE_QUARK (gnn-loss-class-info, gnn_loss_class_info)

static const LossClassInfo *
class_info (gpointer self)
{
  return g_type_get_qdata (G_OBJECT_TYPE (self), gnn_loss_class_info_quark ());
}

const char *
gnn_loss_reduction_name (GnnReduction reduction)
{
  switch (reduction)
    {
    case GNN_REDUCTION_NONE: return "none";
    case GNN_REDUCTION_MEAN: return "mean";
    case GNN_REDUCTION_SUM: return "sum";
    case GNN_REDUCTION_BATCHMEAN: return "batchmean";
    default: return NULL;
    }
}

gboolean
gnn_loss_get_reduction_full (GnnLossBase   *self,
                             gboolean       batchmean_ok,
                             GnnReduction  *out,
                             GError       **error)
{
  const char *name = self->reduction;
  GnnReduction last = batchmean_ok ? GNN_REDUCTION_BATCHMEAN : GNN_REDUCTION_SUM;

  for (GnnReduction r = GNN_REDUCTION_NONE; r <= last; r++)
    if (g_strcmp0 (name, gnn_loss_reduction_name (r)) == 0)
      {
        *out = r;
        return TRUE;
      }
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s is not a valid value for reduction", name ? name : "None");
  return FALSE;
}

gboolean
gnn_loss_get_reduction (GnnLossBase   *self,
                        GnnReduction  *out,
                        GError       **error)
{
  return gnn_loss_get_reduction_full (self, FALSE, out, error);
}

/* Python's wording of the inputs after the first that a call left out:
 * "'target'", "'input2' and 'target'", "'a', 'b', and 'c'". */
static char *
missing_names (const LossClassInfo *info)
{
  guint missing = info->n_inputs - 1;
  GString *s = g_string_new (NULL);

  for (guint i = 1; i < info->n_inputs; i++)
    {
      if (i > 1)
        g_string_append (s, missing == 2 ? " and " : i == info->n_inputs - 1 ? ", and " : ", ");
      g_string_append_printf (s, "'%s'", info->names[i]);
    }
  return g_string_free (s, FALSE);
}

/* The compute methods check their count; the call path's checks are
 * gnn_args_parse's. */
GnnTensor *
gnn_loss_compute (gpointer           self,
                  GnnTensor *const  *inputs,
                  guint              n_inputs,
                  GError           **error)
{
  const LossClassInfo *info = class_info (self);

  g_return_val_if_fail (info != NULL, NULL);
  for (guint i = 0; i < n_inputs; i++)
    g_return_val_if_fail (GNN_IS_TENSOR (inputs[i]), NULL);
  if (n_inputs != info->n_inputs)
    {
      const char *type_name = g_type_name (G_OBJECT_TYPE (self));
      g_autofree char *names = missing_names (info);
      g_autofree char *all = g_strjoinv (", ", (char **) info->names);

      if (g_str_has_prefix (type_name, "Gnn"))
        type_name += strlen ("Gnn");
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "%s.forward() missing %u required positional argument%s: %s (use %s (loss, "
                   "%s))", type_name, info->n_inputs - 1, info->n_inputs > 2 ? "s" : "", names,
                   info->compute_name, all);
      return NULL;
    }
  return info->compute (GNN_LOSS_BASE (self), inputs, error);
}

/* An argument of a loss's call as a tensor: a tensor, or (ctc_loss's
 * lengths) a sequence of integers. */
static GnnTensor *
argument_tensor (GnnValue    *value,
                 const char  *function,
                 const char  *name,
                 GError     **error)
{
  GnnValueKind kind = gnn_value_get_kind (value);

  if (gnn_value_get_tensor (value) != NULL)
    return g_object_ref (gnn_value_get_tensor (value));
  if (kind == GNN_VALUE_TUPLE || kind == GNN_VALUE_LIST)
    {
      gint64 n = (gint64) gnn_value_get_length (value);
      g_autofree gint64 *ints = g_new (gint64, MAX (n, 1));
      gboolean all_ints = TRUE;

      for (gint64 i = 0; all_ints && i < n; i++)
        {
          GnnValue *item = gnn_value_get_item (value, (gsize) i);

          all_ints = gnn_value_get_kind (item) == GNN_VALUE_INT;
          ints[i] = all_ints ? gnn_value_get_int (item) : 0;
        }
      if (all_ints)
        return gnn_tensor_new_from_int64s (ints, (gsize) n, &n, 1, error);
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s(): argument '%s' must be Tensor, not %s",
               function, name, gnn_value_get_type_name (value));
  return NULL;
}

/* torch's criterion(input, target, ...): the module call path's forward,
 * the inputs bound by name as Python binds them. */
static GnnValue *
gnn_loss_forward_args (GnnModule  *module,
                       GnnValue   *args,
                       GnnValue   *kwargs,
                       GError    **error)
{
  const LossClassInfo *info = class_info (module);
  const char *type_name = g_type_name (G_OBJECT_TYPE (module));
  g_autofree char *function = NULL;
  GnnValue *v[GNN_LOSS_MAX_INPUTS] = { NULL, };
  GnnTensor *in[GNN_LOSS_MAX_INPUTS] = { NULL, };
  const char *const *n = info->names;
  GnnValue *result = NULL;
  gboolean ok;
  guint got = 0;

  if (g_str_has_prefix (type_name, "Gnn"))
    type_name += strlen ("Gnn");
  function = g_strconcat (type_name, ".forward", NULL);
  switch (info->n_inputs)
    {
    case 2:
      ok = gnn_args_parse (args, kwargs, function, error, n[0], GNN_ARG_VALUE, &v[0],
                           n[1], GNN_ARG_VALUE, &v[1], NULL);
      break;
    case 3:
      ok = gnn_args_parse (args, kwargs, function, error, n[0], GNN_ARG_VALUE, &v[0],
                           n[1], GNN_ARG_VALUE, &v[1], n[2], GNN_ARG_VALUE, &v[2], NULL);
      break;
    default:
      ok = gnn_args_parse (args, kwargs, function, error, n[0], GNN_ARG_VALUE, &v[0],
                           n[1], GNN_ARG_VALUE, &v[1], n[2], GNN_ARG_VALUE, &v[2],
                           n[3], GNN_ARG_VALUE, &v[3], NULL);
    }
  for (; ok && got < info->n_inputs; got++)
    ok = (in[got] = argument_tensor (v[got], function, n[got], error)) != NULL;
  if (ok)
    {
      GnnTensor *loss = info->compute (GNN_LOSS_BASE (module), in, error);

      result = loss != NULL ? gnn_value_take_tensor (loss) : NULL;
    }
  for (guint i = 0; i < got; i++)
    g_clear_object (&in[i]);
  return result;
}

void
gnn_loss_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  GnnLossBase *self = GNN_LOSS_BASE (object);

  if (prop_id == GNN_LOSS_PROP_REDUCTION)
    g_value_set_string (value, self->reduction);
  else if (prop_id >= GNN_LOSS_N_PROPS && prop_id < GNN_LOSS_N_PROPS + GNN_LOSS_MAX_SETTINGS)
    gnn_nn_setting_get (self->values[prop_id - GNN_LOSS_N_PROPS], value, pspec);
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
  else if (prop_id >= GNN_LOSS_N_PROPS && prop_id < GNN_LOSS_N_PROPS + GNN_LOSS_MAX_SETTINGS)
    self->values[prop_id - GNN_LOSS_N_PROPS] = gnn_nn_setting_set (value, pspec);
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
gnn_loss_class_setup (GObjectClass       *object_class,
                      const char         *compute_name,
                      GnnLossComputeFunc  compute,
                      const char *const  *input_names)
{
  static const char *const two[] = { "input", "target", NULL };
  LossClassInfo *info = g_new0 (LossClassInfo, 1);   /* lives as long as the type */

  info->compute_name = compute_name;
  info->compute = compute;
  for (const char *const *n = input_names != NULL ? input_names : two;
       *n != NULL && info->n_inputs < GNN_LOSS_MAX_INPUTS; n++)
    info->names[info->n_inputs++] = *n;
  g_type_set_qdata (G_TYPE_FROM_CLASS (object_class), gnn_loss_class_info_quark (), info);
  object_class->get_property = gnn_loss_get_property;
  object_class->set_property = gnn_loss_set_property;
  object_class->finalize = gnn_loss_finalize;
  /* only the general forward: a call with the input alone fails with
   * Python's missing-argument message, as torch's */
  GNN_MODULE_CLASS (object_class)->forward = NULL;
  GNN_MODULE_CLASS (object_class)->forward_args = gnn_loss_forward_args;

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
