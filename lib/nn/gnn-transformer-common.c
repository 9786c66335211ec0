/* gnn-transformer-common.c: the configuration, sub-layers, blocks and
 * layer copy shared by the transformer layers and stacks (see
 * gnn-transformer-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-transformer-private.h"

/* --- configuration --------------------------------------------------------- */

void
gnn_transformer_config_init (GnnTransformerConfig *c)
{
  memset (c, 0, sizeof *c);
  c->d_model = 512;
  c->nhead = 8;
  c->dim_feedforward = 2048;
  c->dropout = 0.1;
  c->activation = g_strdup ("relu");
  c->layer_norm_eps = 1e-5;
  c->dtype = GNN_DTYPE_F32;
}

void
gnn_transformer_config_clear (GnnTransformerConfig *c)
{
  g_clear_pointer (&c->activation, g_free);
  g_clear_object (&c->generator);
}

#define CONSTRUCT_FLAGS (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS)

/* The documentation of each class's properties is in its own file. */
void
gnn_transformer_config_install (GObjectClass *klass,
                                guint         first)
{
  GParamSpec *specs[GNN_TRANSFORMER_N_PROPS] = {
    [GNN_TRANSFORMER_PROP_D_MODEL] =
      g_param_spec_int64 ("d-model", NULL, NULL, 0, G_MAXINT64, 512, CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_NHEAD] =
      g_param_spec_int64 ("nhead", NULL, NULL, 0, G_MAXINT64, 8, CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_DIM_FEEDFORWARD] =
      g_param_spec_int64 ("dim-feedforward", NULL, NULL, 0, G_MAXINT64, 2048, CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_DROPOUT] =
      g_param_spec_double ("dropout-p", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.1, CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_ACTIVATION] =
      g_param_spec_string ("activation-function", NULL, NULL, "relu", CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_LAYER_NORM_EPS] =
      g_param_spec_double ("layer-norm-eps", NULL, NULL, 0.0, G_MAXDOUBLE, 1e-5, CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_BATCH_FIRST] =
      g_param_spec_boolean ("batch-first", NULL, NULL, FALSE, CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_NORM_FIRST] =
      g_param_spec_boolean ("norm-first", NULL, NULL, FALSE, CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_DTYPE] =
      g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32, CONSTRUCT_FLAGS),
    [GNN_TRANSFORMER_PROP_GENERATOR] =
      g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                           G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
  };

  for (guint i = 0; i < GNN_TRANSFORMER_N_PROPS; i++)
    g_object_class_install_property (klass, first + i, specs[i]);
}

gboolean
gnn_transformer_config_get_property (GnnTransformerConfig *c,
                                     guint                 id,
                                     GValue               *value)
{
  switch (id)
    {
    case GNN_TRANSFORMER_PROP_D_MODEL: g_value_set_int64 (value, c->d_model); break;
    case GNN_TRANSFORMER_PROP_NHEAD: g_value_set_int64 (value, c->nhead); break;
    case GNN_TRANSFORMER_PROP_DIM_FEEDFORWARD: g_value_set_int64 (value, c->dim_feedforward); break;
    case GNN_TRANSFORMER_PROP_DROPOUT: g_value_set_double (value, c->dropout); break;
    case GNN_TRANSFORMER_PROP_ACTIVATION: g_value_set_string (value, c->activation); break;
    case GNN_TRANSFORMER_PROP_LAYER_NORM_EPS: g_value_set_double (value, c->layer_norm_eps); break;
    case GNN_TRANSFORMER_PROP_BATCH_FIRST: g_value_set_boolean (value, c->batch_first); break;
    case GNN_TRANSFORMER_PROP_NORM_FIRST: g_value_set_boolean (value, c->norm_first); break;
    case GNN_TRANSFORMER_PROP_DTYPE: g_value_set_enum (value, c->dtype); break;
    default: return FALSE;
    }
  return TRUE;
}

gboolean
gnn_transformer_config_set_property (GnnTransformerConfig *c,
                                     guint                 id,
                                     const GValue         *value)
{
  switch (id)
    {
    case GNN_TRANSFORMER_PROP_D_MODEL: c->d_model = g_value_get_int64 (value); break;
    case GNN_TRANSFORMER_PROP_NHEAD: c->nhead = g_value_get_int64 (value); break;
    case GNN_TRANSFORMER_PROP_DIM_FEEDFORWARD: c->dim_feedforward = g_value_get_int64 (value); break;
    case GNN_TRANSFORMER_PROP_DROPOUT: c->dropout = g_value_get_double (value); break;
    case GNN_TRANSFORMER_PROP_ACTIVATION:
      g_free (c->activation);
      c->activation = g_value_dup_string (value);
      break;
    case GNN_TRANSFORMER_PROP_LAYER_NORM_EPS: c->layer_norm_eps = g_value_get_double (value); break;
    case GNN_TRANSFORMER_PROP_BATCH_FIRST: c->batch_first = g_value_get_boolean (value); break;
    case GNN_TRANSFORMER_PROP_NORM_FIRST: c->norm_first = g_value_get_boolean (value); break;
    case GNN_TRANSFORMER_PROP_DTYPE: c->dtype = g_value_get_enum (value); break;
    case GNN_TRANSFORMER_PROP_GENERATOR: g_set_object (&c->generator, g_value_get_object (value)); break;
    default: return FALSE;
    }
  return TRUE;
}

gboolean
gnn_transformer_config_check (const GnnTransformerConfig *c,
                              GError                    **error)
{
  if (g_strcmp0 (c->activation, "relu") != 0 && g_strcmp0 (c->activation, "gelu") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "activation should be relu/gelu, not %s", c->activation ? c->activation : "None");
      return FALSE;
    }
  if (!(c->dropout >= 0.0 && c->dropout <= 1.0))
    {
      g_autofree char *p = gnn_nn_format_float (c->dropout);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "dropout probability has to be between 0 and 1, but got %s", p);
      return FALSE;
    }
  return TRUE;
}

/* --- sub-layers ------------------------------------------------------------ */

static gboolean
register_owned (GnnModule  *self,
                const char *name,
                gpointer    child,
                GError    **error)
{
  g_autoptr(GnnModule) owned = child;

  return owned != NULL && gnn_module_register_module (self, name, owned, error);
}

gboolean
gnn_transformer_add_attention (GnnModule                  *self,
                               const char                 *name,
                               const GnnTransformerConfig *c,
                               GError                    **error)
{
  return register_owned (self, name,
                         gnn_nn_initable_new (GNN_TYPE_MULTIHEAD_ATTENTION, error,
                                              "embed-dim", c->d_model, "num-heads", c->nhead,
                                              "dropout", c->dropout, "batch-first", c->batch_first,
                                              "dtype", c->dtype, "generator", c->generator, NULL),
                         error);
}

gboolean
gnn_transformer_add_linear (GnnModule                  *self,
                            const char                 *name,
                            gint64                      in,
                            gint64                      out,
                            const GnnTransformerConfig *c,
                            GError                    **error)
{
  return register_owned (self, name,
                         gnn_nn_initable_new (GNN_TYPE_LINEAR, error, "in-features", in,
                                              "out-features", out, "dtype", c->dtype,
                                              "generator", c->generator, NULL),
                         error);
}

gboolean
gnn_transformer_add_norm (GnnModule                  *self,
                          const char                 *name,
                          const GnnTransformerConfig *c,
                          GError                    **error)
{
  return register_owned (self, name,
                         gnn_layer_norm_new ((gint64[]) { c->d_model }, 1, c->layer_norm_eps, TRUE,
                                             error),
                         error);
}

gboolean
gnn_transformer_add_dropout (GnnModule                  *self,
                             const char                 *name,
                             const GnnTransformerConfig *c,
                             GError                    **error)
{
  return register_owned (self, name, gnn_dropout_new (c->dropout, FALSE, NULL, error), error);
}

/* --- blocks ---------------------------------------------------------------- */

GnnTensor *
gnn_transformer_call_child (GnnModule   *self,
                            const char  *name,
                            GnnTensor   *x,
                            GError     **error)
{
  GObject *child = gnn_module_get_child (self, name, NULL);

  if (child == NULL || !GNN_IS_MODULE (child))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "'%s' object has no attribute '%s'",
                   G_OBJECT_TYPE_NAME (self) + 3, name);
      return NULL;
    }
  return gnn_module_call (GNN_MODULE (child), x, error);
}

gboolean
gnn_transformer_check_padding_mask (GnnTensor  *mask,
                                    GError    **error)
{
  if (mask != NULL && gnn_tensor_get_dtype (mask) != GNN_DTYPE_BOOL &&
      !gnn_dtype_is_floating (gnn_tensor_get_dtype (mask)))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "only bool and floating types of key_padding_mask are supported");
      return FALSE;
    }
  return TRUE;
}

GnnValue *
gnn_transformer_value_of (GnnTensor *t)
{
  return t != NULL ? gnn_value_new_tensor (t) : gnn_value_new_none ();
}

GnnTensor *
gnn_transformer_attention_block (GnnModule   *self,
                                 const char  *attention,
                                 const char  *dropout,
                                 GnnTensor   *query,
                                 GnnTensor   *kv,
                                 GnnTensor   *attn_mask,
                                 GnnTensor   *key_padding_mask,
                                 GError     **error)
{
  GObject *attn = gnn_module_get_child (self, attention, NULL);
  g_autoptr(GnnValue) args = NULL;
  g_autoptr(GnnValue) kwargs = NULL;
  g_autoptr(GnnValue) out = NULL;
  GnnValue *first;

  if (attn == NULL || !GNN_IS_MODULE (attn))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "'%s' object has no attribute '%s'",
                   G_OBJECT_TYPE_NAME (self) + 3, attention);
      return NULL;
    }
  args = gnn_value_new_tuple_take (3, gnn_value_new_tensor (query), gnn_value_new_tensor (kv),
                                   gnn_value_new_tensor (kv));
  kwargs = gnn_value_new_dict_take ("attn_mask", gnn_transformer_value_of (attn_mask),
                                    "key_padding_mask", gnn_transformer_value_of (key_padding_mask),
                                    "need_weights", gnn_value_new_bool (FALSE), NULL);
  out = gnn_module_call_args (GNN_MODULE (attn), args, kwargs, error);
  if (out == NULL)
    return NULL;
  first = gnn_value_get_kind (out) == GNN_VALUE_TUPLE && gnn_value_get_length (out) > 0
          ? gnn_value_get_item (out, 0) : NULL;
  if (first == NULL || gnn_value_get_kind (first) != GNN_VALUE_TENSOR)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s returned %s, not a tuple (tensor, ...)",
                   attention, gnn_value_get_type_name (out));
      return NULL;
    }
  return gnn_transformer_call_child (self, dropout, gnn_value_get_tensor (first), error);
}

GnnTensor *
gnn_transformer_feed_forward (GnnModule                  *self,
                              const GnnTransformerConfig *c,
                              const char                 *out_dropout,
                              GnnTensor                  *x,
                              GError                    **error)
{
  g_autoptr(GnnTensor) h = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) y = NULL;

  if ((h = gnn_transformer_call_child (self, "linear1", x, error)) == NULL)
    return NULL;
  if (gnn_module_get_child (self, "activation", NULL) != NULL)
    a = gnn_transformer_call_child (self, "activation", h, error);
  else if (g_strcmp0 (c->activation, "gelu") == 0)
    a = gnn_tensor_gelu (h, error);
  else
    a = gnn_tensor_relu (h, error);
  if (a == NULL || (d = gnn_transformer_call_child (self, "dropout", a, error)) == NULL ||
      (y = gnn_transformer_call_child (self, "linear2", d, error)) == NULL)
    return NULL;
  return gnn_transformer_call_child (self, out_dropout, y, error);
}

gboolean
gnn_transformer_residual (GnnModule            *self,
                          gboolean              norm_first,
                          const char           *norm,
                          GnnTensor           **x,
                          GnnTransformerBlock   block,
                          gpointer              data,
                          GError              **error)
{
  g_autoptr(GnnTensor) normed = NULL;
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnTensor) sum = NULL;

  if (norm_first)
    {
      if ((normed = gnn_transformer_call_child (self, norm, *x, error)) == NULL ||
          (b = block (self, normed, data, error)) == NULL ||
          (sum = gnn_tensor_add (*x, b, error)) == NULL)
        return FALSE;
      g_object_unref (*x);
      *x = g_steal_pointer (&sum);
      return TRUE;
    }
  if ((b = block (self, *x, data, error)) == NULL ||
      (sum = gnn_tensor_add (*x, b, error)) == NULL ||
      (normed = gnn_transformer_call_child (self, norm, sum, error)) == NULL)
    return FALSE;
  g_object_unref (*x);
  *x = g_steal_pointer (&normed);
  return TRUE;
}

/* --- copies ---------------------------------------------------------------- */

static GObject *
new_like (GObject  *object,
          GError  **error)
{
  guint n = 0, n_set = 0;
  g_autofree GParamSpec **specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  g_autofree const char **names = g_new0 (const char *, n + 1);
  GValue *values = g_new0 (GValue, n + 1);
  GObject *copy;

  for (guint i = 0; i < n; i++)
    if ((specs[i]->flags & (G_PARAM_CONSTRUCT | G_PARAM_CONSTRUCT_ONLY)) &&
        (specs[i]->flags & G_PARAM_READABLE) && (specs[i]->flags & G_PARAM_WRITABLE))
      {
        names[n_set] = specs[i]->name;
        g_value_init (&values[n_set], specs[i]->value_type);
        g_object_get_property (object, specs[i]->name, &values[n_set]);
        n_set++;
      }
  copy = g_object_new_with_properties (G_OBJECT_TYPE (object), n_set, names, values);
  if (G_IS_INITABLE (copy) && !g_initable_init (G_INITABLE (copy), NULL, error))
    g_clear_object (&copy);
  for (guint i = 0; i < n_set; i++)
    g_value_unset (&values[i]);
  g_free (values);
  if (copy == NULL && error != NULL && *error == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "cannot copy a %s",
                 G_OBJECT_TYPE_NAME (object));
  return copy;
}

/* Children the constructor did not make (an activation module, a norm). */
static gboolean
copy_other_children (GnnModule  *layer,
                     GnnModule  *copy,
                     GError    **error)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) children = gnn_module_named_children (layer, &names);

  for (guint i = 0; i < children->len; i++)
    {
      g_autoptr(GnnModule) child = NULL;
      gboolean has = gnn_module_has_child (copy, names[i]);

      if (has && gnn_module_get_child (copy, names[i], NULL) != NULL)
        continue;
      if ((child = gnn_transformer_clone_layer (g_ptr_array_index (children, i), error)) == NULL)
        return FALSE;
      if (has ? !gnn_module_set_child (copy, names[i], G_OBJECT (child), error)
              : !gnn_module_register_module (copy, names[i], child, error))
        return FALSE;
    }
  return TRUE;
}

/* A layer built under the meta device (a model file being read) has no
 * values to copy: its copies are meta too, filled later. */
static gboolean
has_meta_parameters (GnnModule *layer)
{
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (layer, NULL, TRUE, NULL);

  for (guint i = 0; i < params->len; i++)
    if (gnn_tensor_is_meta (g_ptr_array_index (params, i)))
      return TRUE;
  return FALSE;
}

GnnModule *
gnn_transformer_clone_layer (GnnModule  *layer,
                             GError    **error)
{
  g_autoptr(GObject) copy = new_like (G_OBJECT (layer), error);
  g_autoptr(GnnStateDict) state = NULL;

  if (copy == NULL)
    return NULL;
  if (!GNN_IS_MODULE (copy) || !copy_other_children (layer, GNN_MODULE (copy), error))
    return NULL;
  state = gnn_module_state_dict (layer);
  if (!has_meta_parameters (layer) &&
      !gnn_module_load_state_dict (GNN_MODULE (copy), state, TRUE, NULL, NULL, error))
    return NULL;
  gnn_module_train (GNN_MODULE (copy), gnn_module_get_training (layer));
  return GNN_MODULE (g_steal_pointer (&copy));
}

/* --- stacks ---------------------------------------------------------------- */

gboolean
gnn_transformer_stack_build (GnnModule  *self,
                             GnnModule  *layer,
                             GType       default_type,
                             gint64      num_layers,
                             GError    **error)
{
  g_autoptr(GnnModule) prototype = NULL;
  g_autoptr(GnnModuleList) layers = gnn_module_list_new (NULL, 0);

  if (num_layers > GNN_TRANSFORMER_MAX_LAYERS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                   "num_layers=%" G_GINT64_FORMAT " is more than Gnn stacks (%d)",
                   num_layers, GNN_TRANSFORMER_MAX_LAYERS);
      return FALSE;
    }
  if (layer != NULL)
    prototype = g_object_ref (layer);
  else if (num_layers > 0 && (prototype = g_initable_new (default_type, NULL, error, NULL)) == NULL)
    return FALSE;
  for (gint64 i = 0; i < num_layers; i++)
    {
      g_autoptr(GnnModule) copy = gnn_transformer_clone_layer (prototype, error);

      if (copy == NULL || !gnn_module_list_append (layers, copy, error))
        return FALSE;
    }
  return gnn_module_register_module (self, "layers", GNN_MODULE (layers), error);
}

GnnTensor *
gnn_transformer_stack_forward (GnnModule   *self,
                               GnnTensor   *x,
                               GnnTensor   *memory,
                               GnnValue    *kwargs,
                               GError     **error)
{
  GObject *layers = gnn_module_get_child (self, "layers", NULL);
  GObject *norm = gnn_module_get_child (self, "norm", NULL);
  g_autoptr(GPtrArray) children = NULL;
  g_autoptr(GnnTensor) out = g_object_ref (x);

  if (layers == NULL || !GNN_IS_MODULE (layers))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "'%s' object has no attribute 'layers'",
                   G_OBJECT_TYPE_NAME (self) + 3);
      return NULL;
    }
  children = gnn_module_named_children (GNN_MODULE (layers), NULL);
  for (guint i = 0; i < children->len; i++)
    {
      g_autoptr(GnnValue) args = NULL;
      g_autoptr(GnnValue) result = NULL;

      args = memory != NULL
             ? gnn_value_new_tuple_take (2, gnn_value_new_tensor (out), gnn_value_new_tensor (memory))
             : gnn_value_new_tuple_take (1, gnn_value_new_tensor (out));
      if ((result = gnn_module_call_args (g_ptr_array_index (children, i), args, kwargs, error)) == NULL)
        return NULL;
      if (gnn_value_get_kind (result) != GNN_VALUE_TENSOR)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "layers.%u returned %s, not a tensor", i,
                       gnn_value_get_type_name (result));
          return NULL;
        }
      g_set_object (&out, gnn_value_get_tensor (result));
    }
  if (norm != NULL && GNN_IS_MODULE (norm))
    return gnn_module_call (GNN_MODULE (norm), out, error);
  return g_steal_pointer (&out);
}
