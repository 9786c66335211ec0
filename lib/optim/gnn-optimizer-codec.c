/* gnn-optimizer-codec.c: an optimizer's state dict — PyTorch's layout
 * (state by parameter index, param_groups with their options) flattened into
 * a GnnStateDict's tensors and string metadata, and read back
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "optim/gnn-optim-private.h"

/**
 * gnn_optimizer_state_dict:
 * @self: an optimizer
 *
 * Gets the optimizer's state (PyTorch's `optimizer.state_dict()`):
 * per-parameter tensors keyed `state.<index>.<name>` (copies, so later
 * steps do not change them) and, as metadata, each group's options keyed
 * `param_groups.<group>.<name>` in PyTorch's spelling (`0.001`, `1e-08`,
 * `true`; strings quoted as in GVariant text: `'strong_wolfe'`, `nothing`
 * for none), its other keys (`initial_lr`) and `param_groups.<group>.params`,
 * the indices of its parameters, comma-separated.
 *
 * Returns: (transfer full): a new state dict
 *
 * Since: 0.1
 */
GnnStateDict *
gnn_optimizer_state_dict (GnnOptimizer *self)
{
  GPtrArray *states, *groups;
  GParamSpec **pspecs;
  GnnStateDict *sd;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  states = gnn_optimizer_get_states (self);
  groups = gnn_optimizer_get_groups (self);
  pspecs = gnn_optim_bag_pspecs (G_OBJECT (self));
  sd = gnn_state_dict_new ();

  for (guint i = 0; i < states->len; i++)
    {
      GnnStateDict *state = g_ptr_array_index (states, i);
      g_auto (GStrv) names = gnn_state_dict_get_keys (state);

      for (guint j = 0; names[j] != NULL; j++)
        {
          g_autofree char *key = g_strdup_printf ("state.%u.%s", i, names[j]);
          g_autoptr (GnnTensor) copy = gnn_tensor_clone (gnn_state_dict_lookup (state, names[j]));
          gnn_state_dict_insert (sd, key, copy);
        }
    }

  for (guint g = 0; g < groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (groups, g);
      g_autoptr (GString) indices = g_string_new (NULL);
      g_autofree char *params_key = g_strdup_printf ("param_groups.%u.params", g);

      for (guint i = 0; i < group->n_options + group->extra_names->len; i++)
        {
          gboolean is_option = i < group->n_options;
          g_autofree char *name = is_option ? gnn_optim_torch_name (pspecs[i]->name)
                                            : g_strdup (group->extra_names->pdata[i - group->n_options]);
          g_autoptr (GVariant) v = is_option ? gnn_optim_value_to_variant (&group->options[i])
                                             : g_variant_ref (group->extra_values->pdata[i - group->n_options]);
          g_autofree char *key = g_strdup_printf ("param_groups.%u.%s", g, name);
          g_autofree char *text = NULL;

          if (v == NULL)
            continue;
          text = gnn_optim_variant_to_text (v);
          gnn_state_dict_set_metadata (sd, key, text);
        }
      for (guint i = group->first; i < group->first + group->n_params; i++)
        g_string_append_printf (indices, i == group->first ? "%u" : ",%u", i);
      gnn_state_dict_set_metadata (sd, params_key, indices->str);
    }
  return sd;
}

/* --- reading ----------------------------------------------------------------- */

/* "<digits>." at @p: the number and the rest, else FALSE. */
static gboolean
parse_index (const char   *p,
             guint64       limit,
             guint        *index,
             const char  **rest)
{
  char *end = NULL;
  guint64 v;

  if (!g_ascii_isdigit (*p))
    return FALSE;
  v = g_ascii_strtoull (p, &end, 10);
  if (*end != '.' || end[1] == '\0' || v >= limit)
    return FALSE;
  *index = (guint) v;
  *rest = end + 1;
  return TRUE;
}

/* The saved groups: their number (checked against the optimizer's) and each
 * group's saved parameter ids, mapped onto the optimizer's parameters by
 * position as PyTorch does. */
static gboolean
read_group_params (GnnOptimizer  *self,
                   GnnStateDict  *sd,
                   GHashTable    *id_map,
                   GError       **error)
{
  GPtrArray *groups = gnn_optimizer_get_groups (self);
  g_auto (GStrv) meta_keys = gnn_state_dict_get_metadata_keys (sd);
  guint n_saved = 0;

  for (guint i = 0; meta_keys != NULL && meta_keys[i] != NULL; i++)
    {
      guint g;
      const char *rest;

      if (!g_str_has_prefix (meta_keys[i], "param_groups."))
        continue;
      if (!parse_index (meta_keys[i] + strlen ("param_groups."), G_MAXINT, &g, &rest))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "unexpected key in optimizer state dict: '%s'", meta_keys[i]);
          return FALSE;
        }
      n_saved = MAX (n_saved, g + 1);
    }
  if (n_saved != groups->len)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "loaded state dict has a different number of parameter groups "
                   "(%u; the optimizer has %u)", n_saved, groups->len);
      return FALSE;
    }

  for (guint g = 0; g < groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (groups, g);
      g_autofree char *key = g_strdup_printf ("param_groups.%u.params", g);
      const char *text = gnn_state_dict_get_metadata (sd, key);
      g_auto (GStrv) parts = NULL;
      guint n;

      if (text == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "missing key in optimizer state dict: '%s'", key);
          return FALSE;
        }
      parts = g_strsplit (text, ",", -1);
      n = text[0] == '\0' ? 0 : g_strv_length (parts);
      if (n != group->n_params)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "loaded state dict contains a parameter group that doesn't match "
                       "the size of optimizer's group (%u parameters, optimizer has %u)",
                       n, group->n_params);
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        {
          gint64 id;

          if (!gnn_optim_parse_int64 (g_strstrip (parts[i]), key, &id, error))
            return FALSE;
          g_hash_table_insert (id_map, g_strdup_printf ("%" G_GINT64_FORMAT, id),
                               GUINT_TO_POINTER (group->first + i + 1));
        }
    }
  return TRUE;
}

/* A copy of group @g with the saved options (missing ones keep the
 * optimizer's defaults, as PyTorch's __setstate__ fills them) and extras. */
static GnnParamGroup *
read_group (GnnOptimizer  *self,
            guint          g,
            GnnStateDict  *sd,
            GError       **error)
{
  g_autoptr (GnnParamGroup) group = gnn_param_group_new (self);
  GnnParamGroup *current = gnn_optimizer_group (self, g);
  GParamSpec **pspecs = gnn_optim_bag_pspecs (G_OBJECT (self));
  g_auto (GStrv) meta_keys = gnn_state_dict_get_metadata_keys (sd);
  g_autofree char *prefix = g_strdup_printf ("param_groups.%u.", g);

  group->first = current->first;
  group->n_params = current->n_params;
  for (guint i = 0; meta_keys != NULL && meta_keys[i] != NULL; i++)
    {
      const char *name, *text = gnn_state_dict_get_metadata (sd, meta_keys[i]);
      g_autoptr (GVariant) v = NULL;
      int index;

      if (!g_str_has_prefix (meta_keys[i], prefix))
        continue;
      name = meta_keys[i] + strlen (prefix);
      if (strcmp (name, "params") == 0)
        continue;
      index = gnn_optimizer_option_index (self, name);
      if (index < 0)
        {
          if ((v = gnn_optim_variant_from_text (text, NULL, meta_keys[i], error)) == NULL)
            return NULL;
          gnn_param_group_set_extra (group, name, v);
          continue;
        }
      if (G_TYPE_FUNDAMENTAL (pspecs[index]->value_type) == G_TYPE_DOUBLE)
        v = gnn_optim_variant_from_text (text, G_VARIANT_TYPE_DOUBLE, meta_keys[i], error);
      else if (G_TYPE_FUNDAMENTAL (pspecs[index]->value_type) == G_TYPE_BOOLEAN)
        v = gnn_optim_variant_from_text (text, G_VARIANT_TYPE_BOOLEAN, meta_keys[i], error);
      else if (G_TYPE_FUNDAMENTAL (pspecs[index]->value_type) == G_TYPE_STRING)
        v = gnn_optim_variant_from_text (text, G_VARIANT_TYPE ("ms"), meta_keys[i], error);
      else
        v = gnn_optim_variant_from_text (text, G_VARIANT_TYPE_INT64, meta_keys[i], error);
      if (v == NULL)
        return NULL;
      if (!gnn_optim_value_from_variant (&group->options[index], v) ||
          g_param_value_validate (pspecs[index], &group->options[index]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "value of %s in state dict is out of range: '%s'", meta_keys[i], text);
          return NULL;
        }
    }
  return g_steal_pointer (&group);
}

static GnnOptimStateKind
entry_kind (const GnnOptimStateEntry *entries,
            const char               *name,
            gboolean                 *known)
{
  *known = TRUE;
  for (guint i = 0; entries != NULL && entries[i].name != NULL; i++)
    if (strcmp (entries[i].name, name) == 0)
      return entries[i].kind;
  *known = entries == NULL;
  /* without a table: torch's `step` tensors stay float32, the rest is the
   * parameter's */
  return strcmp (name, "step") == 0 ? GNN_OPTIM_STATE_F32 : GNN_OPTIM_STATE_LIKE_PARAM;
}

/* The private copy of a saved state tensor the optimizer keeps. */
static GnnTensor *
convert_state_tensor (GnnOptimizer       *self,
                      const char         *key,
                      GnnTensor          *src,
                      GnnTensor          *param,
                      guint               index,
                      GnnOptimStateKind   kind,
                      GError            **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (src), *pp = gnn_tensor_priv (param);
  GnnTensor *copy;
  GnnTensorPrivate *cp;

  (void) self;
  if (gnn_tensor_priv_is_meta (sp))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "loaded state dict: '%s' has no storage (meta)", key);
      return NULL;
    }
  if (kind == GNN_OPTIM_STATE_F32 || kind == GNN_OPTIM_STATE_F64 || kind == GNN_OPTIM_STATE_I64)
    {
      GnnDType dtype = kind == GNN_OPTIM_STATE_F32 ? GNN_DTYPE_F32
                       : kind == GNN_OPTIM_STATE_F64 ? GNN_DTYPE_F64 : GNN_DTYPE_I64;

      if (sp->numel != 1)
        {
          g_autofree char *s = gnn_shape_to_string (sp->shape, sp->ndim);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "loaded state dict: '%s' must have one element, got shape %s", key, s);
          return NULL;
        }
      copy = gnn_tensor_new_contiguous (dtype, NULL, 0, FALSE);
      gnn_dtype_write (dtype, gnn_optim_data (copy), gnn_dtype_read (sp->dtype, gnn_tensor_priv_data (sp)));
      return copy;
    }
  if (kind == GNN_OPTIM_STATE_LIKE_PARAM &&
      (sp->ndim != pp->ndim || memcmp (sp->shape, pp->shape, pp->ndim * sizeof (gint64)) != 0))
    {
      g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);
      g_autofree char *ps = gnn_shape_to_string (pp->shape, pp->ndim);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "loaded state dict: '%s' has shape %s but parameter %u has shape %s",
                   key, ss, index, ps);
      return NULL;
    }
  /* floating state follows the parameter's dtype, as PyTorch casts it */
  copy = gnn_tensor_new_contiguous_checked (gnn_dtype_is_floating (sp->dtype) ? pp->dtype
                                                                                : sp->dtype,
                                            sp->shape, sp->ndim, FALSE, error);
  if (copy == NULL)
    return NULL;
  cp = gnn_tensor_priv (copy);
  gnn_strided_copy (cp->dtype, gnn_tensor_priv_data (cp), cp->strides,
                    sp->dtype, gnn_tensor_priv_data (sp), sp->strides, sp->shape, sp->ndim);
  return copy;
}

static gboolean
check_state_entries (GnnOptimizer  *self,
                     guint          index,
                     GnnStateDict  *state,
                     GError       **error)
{
  const GnnOptimStateEntry *entries = gnn_optimizer_get_state_entries (self);
  g_auto (GStrv) names = gnn_state_dict_get_keys (state);

  if (entries == NULL || names[0] == NULL)
    return TRUE;
  for (guint i = 0; entries[i].name != NULL; i++)
    if (entries[i].required && gnn_state_dict_lookup (state, entries[i].name) == NULL)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                     "missing key in %s state dict: 'state.%u.%s'",
                     gnn_optim_type_name (self), index, entries[i].name);
        return FALSE;
      }
  return TRUE;
}

static GPtrArray *
read_states (GnnOptimizer  *self,
             GnnStateDict  *sd,
             GHashTable    *id_map,
             GError       **error)
{
  GPtrArray *params = gnn_optimizer_get_flat_params (self);
  GnnOptimizerClass *klass = GNN_OPTIMIZER_GET_CLASS (self);
  const GnnOptimStateEntry *entries = gnn_optimizer_get_state_entries (self);
  g_autoptr (GPtrArray) states = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto (GStrv) keys = gnn_state_dict_get_keys (sd);

  for (guint i = 0; i < params->len; i++)
    g_ptr_array_add (states, gnn_state_dict_new ());

  for (guint k = 0; keys[k] != NULL; k++)
    {
      g_autofree char *id = NULL;
      g_autoptr (GnnTensor) copy = NULL;
      const char *name, *dot;
      gpointer slot;
      guint index;
      gboolean known;
      GnnOptimStateKind kind;

      if (!g_str_has_prefix (keys[k], "state.") ||
          (dot = strchr (keys[k] + strlen ("state."), '.')) == NULL || dot[1] == '\0')
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "unexpected key in optimizer state dict: '%s'", keys[k]);
          return NULL;
        }
      id = g_strndup (keys[k] + strlen ("state."), dot - keys[k] - strlen ("state."));
      name = dot + 1;
      slot = g_hash_table_lookup (id_map, id);
      if (slot == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "loaded state dict has state for parameter %s (key '%s') "
                       "but the optimizer has %u parameters", id, keys[k], params->len);
          return NULL;
        }
      index = GPOINTER_TO_UINT (slot) - 1;
      kind = entry_kind (entries, name, &known);
      if (!known)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_KEY,
                       "unexpected key in %s state dict: 'state.%u.%s'",
                       gnn_optim_type_name (self), index, name);
          return NULL;
        }
      copy = convert_state_tensor (self, keys[k], gnn_state_dict_lookup (sd, keys[k]),
                                   g_ptr_array_index (params, index), index, kind, error);
      if (copy == NULL)
        return NULL;
      gnn_state_dict_insert (g_ptr_array_index (states, index), name, copy);
    }

  for (guint i = 0; i < states->len; i++)
    {
      if (!check_state_entries (self, i, g_ptr_array_index (states, i), error))
        return NULL;
      if (klass->validate_state != NULL &&
          !klass->validate_state (self, i, g_ptr_array_index (states, i), error))
        return NULL;
    }
  return g_steal_pointer (&states);
}

/**
 * gnn_optimizer_load_state_dict:
 * @self: an optimizer
 * @state_dict: a state dict from [method@Gnn.Optimizer.state_dict] (possibly
 *   read back from a file, or converted from PyTorch's)
 *
 * Restores every group's options and the per-parameter state, like
 * PyTorch's `load_state_dict`: the saved groups must be as many as the
 * optimizer's ("loaded state dict has a different number of parameter
 * groups") and of the same sizes; saved parameter ids map onto the
 * optimizer's parameters by position; options missing from the file keep
 * the optimizer's defaults, keys that are not options are kept with the
 * group. Everything is checked first — values parse and fit their option,
 * state keys name saved parameters and the optimizer's buffers, buffer
 * shapes equal their parameter's — and nothing changes unless all of it
 * can be applied. Buffers are copied (converted to the parameter's dtype,
 * like PyTorch); `step` counters keep their own type.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_optimizer_load_state_dict (GnnOptimizer  *self,
                               GnnStateDict  *state_dict,
                               GError       **error)
{
  g_autoptr (GHashTable) id_map = NULL;
  g_autoptr (GPtrArray) groups = NULL;
  g_autoptr (GPtrArray) states = NULL;
  guint n_groups;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (GNN_IS_STATE_DICT (state_dict), FALSE);

  id_map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!read_group_params (self, state_dict, id_map, error))
    return FALSE;
  n_groups = gnn_optimizer_get_n_param_groups (self);
  groups = g_ptr_array_new_with_free_func (gnn_param_group_free);
  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = read_group (self, g, state_dict, error);
      if (group == NULL)
        return FALSE;
      g_ptr_array_add (groups, group);
    }
  states = read_states (self, state_dict, id_map, error);
  if (states == NULL)
    return FALSE;

  gnn_optimizer_replace_groups_and_states (self, groups, states);
  return TRUE;
}
