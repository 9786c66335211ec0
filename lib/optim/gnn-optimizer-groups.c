/* gnn-optimizer-groups.c: an optimizer's parameter groups (PyTorch's
 * param_groups): adding them, and their options by name
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "optim/gnn-optim-private.h"

G_DEFINE_QUARK (gnn-optimizer-single-group, single_group)

/* --- the group record ------------------------------------------------------ */

GnnParamGroup *
gnn_param_group_new (GnnOptimizer *self)
{
  GnnParamGroup *group = g_new0 (GnnParamGroup, 1);
  GParamSpec **pspecs = gnn_optim_bag_pspecs (G_OBJECT (self));

  group->n_options = gnn_optim_bag_size (G_OBJECT (self));
  group->options = g_new0 (GValue, group->n_options);
  for (guint i = 0; i < group->n_options; i++)
    {
      g_value_init (&group->options[i], pspecs[i]->value_type);
      g_object_get_property (G_OBJECT (self), pspecs[i]->name, &group->options[i]);
    }
  group->extra_names = g_ptr_array_new_with_free_func (g_free);
  group->extra_values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  return group;
}

GnnParamGroup *
gnn_param_group_copy (const GnnParamGroup *group)
{
  GnnParamGroup *copy = g_new0 (GnnParamGroup, 1);

  *copy = *group;
  copy->options = g_new0 (GValue, group->n_options);
  for (guint i = 0; i < group->n_options; i++)
    {
      g_value_init (&copy->options[i], G_VALUE_TYPE (&group->options[i]));
      g_value_copy (&group->options[i], &copy->options[i]);
    }
  copy->extra_names = g_ptr_array_new_with_free_func (g_free);
  copy->extra_values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  for (guint i = 0; i < group->extra_names->len; i++)
    {
      g_ptr_array_add (copy->extra_names, g_strdup (group->extra_names->pdata[i]));
      g_ptr_array_add (copy->extra_values, g_variant_ref (group->extra_values->pdata[i]));
    }
  return copy;
}

void
gnn_param_group_free (gpointer data)
{
  GnnParamGroup *group = data;

  for (guint i = 0; i < group->n_options; i++)
    g_value_unset (&group->options[i]);
  g_free (group->options);
  g_ptr_array_unref (group->extra_names);
  g_ptr_array_unref (group->extra_values);
  g_free (group);
}

GVariant *
gnn_param_group_get_extra (const GnnParamGroup *group,
                           const char          *name)
{
  for (guint i = 0; i < group->extra_names->len; i++)
    if (strcmp (group->extra_names->pdata[i], name) == 0)
      return group->extra_values->pdata[i];
  return NULL;
}

void
gnn_param_group_set_extra (GnnParamGroup *group,
                           const char    *name,
                           GVariant      *value)
{
  g_variant_ref_sink (value);
  for (guint i = 0; i < group->extra_names->len; i++)
    if (strcmp (group->extra_names->pdata[i], name) == 0)
      {
        g_variant_unref (group->extra_values->pdata[i]);
        group->extra_values->pdata[i] = value;
        return;
      }
  g_ptr_array_add (group->extra_names, g_strdup (name));
  g_ptr_array_add (group->extra_values, value);
}

GnnParamGroup *
gnn_optimizer_group (GnnOptimizer *self,
                     guint         group)
{
  GPtrArray *groups = gnn_optimizer_get_groups (self);

  return group < groups->len ? g_ptr_array_index (groups, group) : NULL;
}

int
gnn_optimizer_option_index (GnnOptimizer *self,
                            const char   *name)
{
  GParamSpec **pspecs = gnn_optim_bag_pspecs (G_OBJECT (self));
  guint n = gnn_optim_bag_size (G_OBJECT (self));
  g_autofree char *wanted = gnn_optim_torch_name (name);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *torch_name = gnn_optim_torch_name (pspecs[i]->name);
      if (strcmp (torch_name, wanted) == 0)
        return (int) i;
    }
  return -1;
}

void
gnn_optimizer_class_set_single_group (GnnOptimizerClass *klass)
{
  g_type_set_qdata (G_OBJECT_CLASS_TYPE (klass), single_group_quark (), GINT_TO_POINTER (1));
}

/* --- values of options --------------------------------------------------- */

/* Extras hold what a Python dict entry of numbers, booleans and strings
 * holds; integers of every width become int64. Returns a new reference to
 * @value (not floating), or NULL. */
static GVariant *
normalize_extra (GVariant *value)
{
  static const char *const kept[] = { "d", "b", "x", "s", "ms", NULL };
  const char *t = g_variant_get_type_string (value);
  g_auto (GValue) v = G_VALUE_INIT;

  if (g_strv_contains (kept, t))
    return g_variant_ref (value);
  g_value_init (&v, G_TYPE_INT64);
  if (strchr ("nqiuty", t[0]) != NULL && t[1] == '\0' && gnn_optim_value_from_variant (&v, value))
    return g_variant_ref_sink (g_variant_new_int64 (g_value_get_int64 (&v)));
  return NULL;
}

/* Converts @value for option @index (or an extra when @index is -1) into
 * @out (an option) or *extra. */
static gboolean
convert_option (GnnOptimizer  *self,
                int            index,
                const char    *name,
                GVariant      *value,
                GValue        *out,
                GVariant     **extra,
                GError       **error)
{
  GParamSpec *pspec;

  if (index < 0)
    {
      *extra = normalize_extra (value);
      if (*extra == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "parameter group option '%s' must be a number, a boolean or a string, "
                       "not a value of type '%s'", name, g_variant_get_type_string (value));
          return FALSE;
        }
      return TRUE;
    }
  pspec = gnn_optim_bag_pspecs (G_OBJECT (self))[index];
  g_value_init (out, pspec->value_type);
  if (!gnn_optim_value_from_variant (out, value))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "parameter group option '%s' must be %s, not a value of type '%s'", name,
                   g_type_name (pspec->value_type), g_variant_get_type_string (value));
      return FALSE;
    }
  if (g_param_value_validate (pspec, out))
    {
      g_autofree char *text = g_variant_print (value, FALSE);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "parameter group option '%s' is out of range: %s", name, text);
      return FALSE;
    }
  return TRUE;
}

/* Applies every entry of @options (a{sv}) to @group; nothing on failure. */
static gboolean
apply_options (GnnOptimizer   *self,
               GnnParamGroup  *group,
               GVariant       *options,
               GError        **error)
{
  g_autoptr (GnnParamGroup) staged = NULL;
  GVariantIter iter;
  const char *name;
  GVariant *value;

  if (options == NULL)
    return TRUE;
  if (!g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                   "parameter group options must be a dictionary a{sv}, not '%s'",
                   g_variant_get_type_string (options));
      return FALSE;
    }
  staged = gnn_param_group_copy (group);
  g_variant_iter_init (&iter, options);
  while (g_variant_iter_next (&iter, "{&sv}", &name, &value))
    {
      g_autoptr (GVariant) owned = value;
      g_auto (GValue) converted = G_VALUE_INIT;
      GVariant *extra = NULL;
      int index = gnn_optimizer_option_index (self, name);

      if (strcmp (name, "params") == 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "a parameter group's 'params' are given as the parameter list, "
                               "not as an option");
          return FALSE;
        }
      if (!convert_option (self, index, name, value, &converted, &extra, error))
        return FALSE;
      if (index >= 0)
        g_value_copy (&converted, &staged->options[index]);
      else
        {
          gnn_param_group_set_extra (staged, name, extra);
          g_variant_unref (extra);
        }
    }
  /* swap the staged values in */
  for (guint i = 0; i < group->n_options; i++)
    g_value_copy (&staged->options[i], &group->options[i]);
  g_ptr_array_unref (group->extra_names);
  g_ptr_array_unref (group->extra_values);
  group->extra_names = g_ptr_array_ref (staged->extra_names);
  group->extra_values = g_ptr_array_ref (staged->extra_values);
  return TRUE;
}

/* --- adding parameters ------------------------------------------------------ */

static gboolean
check_new_params (GnnOptimizer  *self,
                  GPtrArray     *params,
                  GError       **error)
{
  GPtrArray *existing = gnn_optimizer_get_flat_params (self);

  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (params, i);
      GnnDType dtype;

      if (!GNN_IS_TENSOR (t))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
                       "optimizer can only optimize Tensors, but one of the params is %s",
                       t == NULL ? "NULL" : G_OBJECT_TYPE_NAME (t));
          return FALSE;
        }
      if (!gnn_tensor_is_leaf (t))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "can't optimize a non-leaf Tensor");
          return FALSE;
        }
      dtype = gnn_tensor_get_dtype (t);
      if (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "optimizer can only optimize float32 and float64 tensors, "
                       "but parameter %u has dtype %s", i, gnn_dtype_get_name (dtype));
          return FALSE;
        }
      if (!gnn_tensor_is_contiguous (t))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "optimizer can only optimize contiguous tensors, "
                       "but parameter %u is not contiguous", i);
          return FALSE;
        }
      for (guint j = 0; j < i; j++)
        if (g_ptr_array_index (params, j) == t)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "optimizer contains a parameter group with duplicate parameters "
                         "(parameter %u is parameter %u)", i, j);
            return FALSE;
          }
      for (guint j = 0; j < existing->len; j++)
        if (g_ptr_array_index (existing, j) == t)
          {
            g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                                 "some parameters appear in more than one parameter group");
            return FALSE;
          }
    }
  return TRUE;
}

/* Appends @params to @group (the last one) and their fresh states. */
static void
append_params (GnnOptimizer  *self,
               GnnParamGroup *group,
               GPtrArray     *params)
{
  GnnOptimizerClass *klass = GNN_OPTIMIZER_GET_CLASS (self);
  GPtrArray *flat = gnn_optimizer_get_flat_params (self);
  GPtrArray *states = gnn_optimizer_get_states (self);

  for (guint i = 0; i < params->len; i++)
    {
      GnnStateDict *state = gnn_state_dict_new ();

      g_ptr_array_add (flat, g_object_ref (g_ptr_array_index (params, i)));
      g_ptr_array_add (states, state);
      group->n_params++;
      if (klass->init_state != NULL)
        klass->init_state (self, flat->len - 1, state);
    }
}

/**
 * gnn_optimizer_add_param_group:
 * @self: an optimizer
 * @params: (element-type Gnn.Tensor) (transfer none): the group's tensors
 * @options: (nullable): the group's own options, a dictionary `a{sv}` keyed
 *   by PyTorch's names (`lr`, `weight_decay`, `beta1`, …); other keys are
 *   kept with the group (numbers, booleans and strings)
 * @error: return location for a #GError
 *
 * PyTorch's `add_param_group({'params': params, **options})`: adds a group
 * whose options not given in @options are the optimizer's properties. Each
 * parameter must be a leaf float32 or float64 contiguous tensor that is in
 * no other group ("some parameters appear in more than one parameter
 * group"). Nothing changes unless all of it can be applied.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_optimizer_add_param_group (GnnOptimizer  *self,
                               GPtrArray     *params,
                               GVariant      *options,
                               GError       **error)
{
  GPtrArray *groups;
  g_autoptr (GnnParamGroup) group = NULL;
  g_autoptr (GVariant) owned_options = options != NULL ? g_variant_ref_sink (options) : NULL;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (params != NULL, FALSE);
  groups = gnn_optimizer_get_groups (self);

  if (groups->len > 0 &&
      g_type_get_qdata (G_OBJECT_TYPE (self), single_group_quark ()) != NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s doesn't support per-parameter options (parameter groups)",
                   gnn_optim_type_name (self));
      return FALSE;
    }
  if (!check_new_params (self, params, error))
    return FALSE;
  group = gnn_param_group_new (self);
  if (!apply_options (self, group, owned_options, error))
    return FALSE;
  group->first = gnn_optimizer_get_flat_params (self)->len;
  g_ptr_array_add (groups, group);
  append_params (self, g_steal_pointer (&group), params);
  return TRUE;
}

/**
 * gnn_optimizer_add_params:
 * @self: an optimizer
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 *
 * Appends @params to the last parameter group, creating a first group with
 * the properties' options if there is none, with the checks of
 * [method@Gnn.Optimizer.add_param_group]. Nothing is added unless all of
 * them can be.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_optimizer_add_params (GnnOptimizer  *self,
                          GPtrArray     *params,
                          GError       **error)
{
  GPtrArray *groups;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (params != NULL, FALSE);
  groups = gnn_optimizer_get_groups (self);
  if (groups->len == 0)
    return gnn_optimizer_add_param_group (self, params, NULL, error);
  if (!check_new_params (self, params, error))
    return FALSE;
  append_params (self, g_ptr_array_index (groups, groups->len - 1), params);
  return TRUE;
}

/* --- reading and writing groups --------------------------------------------- */

/**
 * gnn_optimizer_get_n_param_groups:
 * @self: an optimizer
 *
 * Gets the number of parameter groups.
 *
 * Returns: the number of parameter groups (PyTorch's
 *   `len(optimizer.param_groups)`)
 *
 * Since: 0.1
 */
guint
gnn_optimizer_get_n_param_groups (GnnOptimizer *self)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0);
  return gnn_optimizer_get_groups (self)->len;
}

static GnnParamGroup *
lookup_group (GnnOptimizer  *self,
              guint          index,
              GError       **error)
{
  GnnParamGroup *group = gnn_optimizer_group (self, index);

  if (group == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                 "parameter group %u is out of range (the optimizer has %u)", index,
                 gnn_optimizer_get_groups (self)->len);
  return group;
}

/**
 * gnn_optimizer_get_group_params:
 * @self: an optimizer
 * @group: a group index
 *
 * Gets the parameters of a group (PyTorch's `param_groups[i]['params']`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor) (nullable): the
 *   group's parameters, or %NULL if @group is out of range
 *
 * Since: 0.1
 */
GPtrArray *
gnn_optimizer_get_group_params (GnnOptimizer *self,
                                guint         group)
{
  GnnParamGroup *g;
  GPtrArray *flat, *result;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  if ((g = gnn_optimizer_group (self, group)) == NULL)
    return NULL;
  flat = gnn_optimizer_get_flat_params (self);
  result = g_ptr_array_new_full (g->n_params, g_object_unref);
  for (guint i = g->first; i < g->first + g->n_params; i++)
    g_ptr_array_add (result, g_object_ref (g_ptr_array_index (flat, i)));
  return result;
}

/**
 * gnn_optimizer_list_group_options:
 * @self: an optimizer
 * @group: a group index
 *
 * Lists the option names of a group: the optimizer's options in PyTorch's
 * spelling and order (`lr`, `momentum`, …, `weight_decay`), then the
 * group's other keys (`initial_lr` once a scheduler is attached).
 *
 * Returns: (transfer full) (nullable): the names, or %NULL if @group is out
 *   of range
 *
 * Since: 0.1
 */
char **
gnn_optimizer_list_group_options (GnnOptimizer *self,
                                  guint         group)
{
  GnnParamGroup *g;
  GParamSpec **pspecs;
  GPtrArray *names;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  if ((g = gnn_optimizer_group (self, group)) == NULL)
    return NULL;
  pspecs = gnn_optim_bag_pspecs (G_OBJECT (self));
  names = g_ptr_array_new ();
  for (guint i = 0; i < g->n_options; i++)
    g_ptr_array_add (names, gnn_optim_torch_name (pspecs[i]->name));
  for (guint i = 0; i < g->extra_names->len; i++)
    g_ptr_array_add (names, g_strdup (g->extra_names->pdata[i]));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

/**
 * gnn_optimizer_get_group_option:
 * @self: an optimizer
 * @group: a group index
 * @name: an option name (`lr`, `weight_decay` or `weight-decay`, an extra
 *   key such as `initial_lr`)
 * @error: return location for a #GError
 *
 * Reads one option of a group (PyTorch's `param_groups[i][name]`): numbers
 * are doubles (`d`) or, for integer options, `x`; flags `b`; strings `ms`.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL with @error set
 *   (%GNN_ERROR_INDEX for a group out of range, %GNN_ERROR_KEY for a name
 *   the group does not have)
 *
 * Since: 0.1
 */
GVariant *
gnn_optimizer_get_group_option (GnnOptimizer  *self,
                                guint          group,
                                const char    *name,
                                GError       **error)
{
  GnnParamGroup *g;
  GVariant *extra;
  int index;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  if ((g = lookup_group (self, group, error)) == NULL)
    return NULL;
  index = gnn_optimizer_option_index (self, name);
  if (index >= 0)
    return gnn_optim_value_to_variant (&g->options[index]);
  if ((extra = gnn_param_group_get_extra (g, name)) != NULL)
    return g_variant_ref (extra);
  g_set_error (error, GNN_ERROR, GNN_ERROR_KEY, "parameter group %u has no option '%s'",
               group, name);
  return NULL;
}

/**
 * gnn_optimizer_set_group_option:
 * @self: an optimizer
 * @group: a group index
 * @name: an option name; a name that is not one of the optimizer's options
 *   adds a key to the group, as in PyTorch
 * @value: the value: any number for a numeric option (whole for an integer
 *   one), a boolean for a flag, a string or `ms` for a string option
 * @error: return location for a #GError
 *
 * Writes one option of a group (PyTorch's `param_groups[i][name] = value`);
 * the next step uses it.
 *
 * Returns: %TRUE on success, %FALSE with @error set (the value's type or
 *   range does not fit the option)
 *
 * Since: 0.1
 */
gboolean
gnn_optimizer_set_group_option (GnnOptimizer  *self,
                                guint          group,
                                const char    *name,
                                GVariant      *value,
                                GError       **error)
{
  g_autoptr (GVariant) owned = NULL;
  g_auto (GValue) converted = G_VALUE_INIT;
  GVariant *extra = NULL;
  GnnParamGroup *g;
  int index;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  owned = g_variant_ref_sink (value);
  if ((g = lookup_group (self, group, error)) == NULL)
    return FALSE;
  if (strcmp (name, "params") == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "a parameter group's params cannot be replaced");
      return FALSE;
    }
  index = gnn_optimizer_option_index (self, name);
  if (!convert_option (self, index, name, owned, &converted, &extra, error))
    return FALSE;
  if (index >= 0)
    g_value_copy (&converted, &g->options[index]);
  else
    {
      gnn_param_group_set_extra (g, name, extra);
      g_variant_unref (extra);
    }
  return TRUE;
}

/**
 * gnn_optimizer_get_group_lr:
 * @self: an optimizer
 * @group: a group index
 *
 * Gets the learning rate of a group (PyTorch's `param_groups[i]['lr']`).
 *
 * Returns: the group's learning rate, or 0 if @group is out of range
 *
 * Since: 0.1
 */
double
gnn_optimizer_get_group_lr (GnnOptimizer *self,
                            guint         group)
{
  GnnParamGroup *g;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0.0);
  g = gnn_optimizer_group (self, group);
  g_return_val_if_fail (g != NULL, 0.0);
  return g_value_get_double (&g->options[GNN_OPTIM_LR]);
}

/**
 * gnn_optimizer_set_group_lr:
 * @self: an optimizer
 * @group: a group index
 * @lr: the new learning rate
 *
 * Sets the learning rate of a group; the next step uses it.
 *
 * Since: 0.1
 */
void
gnn_optimizer_set_group_lr (GnnOptimizer *self,
                            guint         group,
                            double        lr)
{
  GnnParamGroup *g;

  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  g = gnn_optimizer_group (self, group);
  g_return_if_fail (g != NULL);
  g_value_set_double (&g->options[GNN_OPTIM_LR], lr);
}

double
gnn_optimizer_setdefault_initial_lr (GnnOptimizer *self,
                                     guint         group)
{
  GnnParamGroup *g = gnn_optimizer_group (self, group);
  GVariant *initial = gnn_param_group_get_extra (g, "initial_lr");
  double lr;

  if (initial != NULL && gnn_optim_variant_to_double (initial, &lr))
    return lr;
  lr = g_value_get_double (&g->options[GNN_OPTIM_LR]);
  gnn_param_group_set_extra (g, "initial_lr", g_variant_new_double (lr));
  return lr;
}
