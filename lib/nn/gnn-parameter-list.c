/* gnn-parameter-list.c: a list of parameters (torch.nn.ParameterList)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "module/gnn-module-registry-private.h"
#include "nn/gnn-container-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnParameterList:
 *
 * A list of parameters, like `torch.nn.ParameterList`: each entry is a
 * parameter registered under "0", "1", …, so [method@Gnn.Module.named_parameters]
 * and [method@Gnn.Module.state_dict] see it. A plain [class@Gnn.Tensor]
 * given to the list is wrapped into a [class@Gnn.Parameter] sharing its
 * storage, as PyTorch does.
 *
 * Calling the list fails with %GNN_ERROR_NOT_SUPPORTED ("ParameterList
 * should not be called.").
 *
 * Since: 0.1
 */
struct _GnnParameterList
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnParameterList, gnn_parameter_list, GNN_TYPE_MODULE)

static GnnTensor *
gnn_parameter_list_forward (GnnModule  *module,
                            GnnTensor  *input,
                            GError    **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ParameterList should not be called.");
  return NULL;
}

static char *
gnn_parameter_list_extra_repr (GnnModule *module)
{
  return gnn_nn_parameter_lines (module, FALSE);
}

static void
gnn_parameter_list_class_init (GnnParameterListClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_parameter_list_forward;
  module_class->extra_repr = gnn_parameter_list_extra_repr;
}

static void
gnn_parameter_list_init (GnnParameterList *self)
{
}

/**
 * gnn_parameter_list_new:
 * @values: (array length=n_values) (nullable): the tensors or parameters
 * @n_values: the number of @values
 *
 * Creates a parameter list holding @values, like
 * `torch.nn.ParameterList(values)`.
 *
 * Returns: (transfer full): a new parameter list
 *
 * Since: 0.1
 */
GnnParameterList *
gnn_parameter_list_new (GnnTensor **values,
                        guint       n_values)
{
  GnnParameterList *self;

  g_return_val_if_fail (values != NULL || n_values == 0, NULL);
  for (guint i = 0; i < n_values; i++)
    g_return_val_if_fail (GNN_IS_TENSOR (values[i]), NULL);

  self = g_object_new (GNN_TYPE_PARAMETER_LIST, NULL);
  gnn_parameter_list_extend (self, values, n_values);
  return self;
}

/**
 * gnn_parameter_list_get_length:
 * @self: a parameter list
 *
 * Returns the number of entries, like `len(parameter_list)`.
 *
 * Returns: the number of parameters
 *
 * Since: 0.1
 */
guint
gnn_parameter_list_get_length (GnnParameterList *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_LIST (self), 0);

  return gnn_container_get_length (GNN_MODULE (self), GNN_MAP_PARAMETERS);
}

/**
 * gnn_parameter_list_get:
 * @self: a parameter list
 * @index: the position; negative values count from the end
 * @error: return location for a #GError
 *
 * Returns the parameter at @index, like `parameter_list[index]`.
 *
 * Returns: (transfer none) (nullable): the parameter, or %NULL with @error
 *   set (%GNN_ERROR_INDEX, "index 2 is out of range")
 *
 * Since: 0.1
 */
GnnParameter *
gnn_parameter_list_get (GnnParameterList *self,
                        gint64            index,
                        GError          **error)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_LIST (self), NULL);

  return (GnnParameter *) gnn_container_get_at (GNN_MODULE (self), GNN_MAP_PARAMETERS, index, error);
}

/**
 * gnn_parameter_list_set:
 * @self: a parameter list
 * @index: the position; negative values count from the end
 * @value: a tensor or parameter (a plain tensor is wrapped into a parameter)
 * @error: return location for a #GError
 *
 * Replaces the parameter at @index, like `parameter_list[index] = value`.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INDEX)
 *
 * Since: 0.1
 */
gboolean
gnn_parameter_list_set (GnnParameterList *self,
                        gint64            index,
                        GnnTensor        *value,
                        GError          **error)
{
  g_autoptr(GnnParameter) parameter = NULL;
  char key[24];
  guint i;

  g_return_val_if_fail (GNN_IS_PARAMETER_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (value), FALSE);

  if (gnn_container_entry_at (GNN_MODULE (self), GNN_MAP_PARAMETERS, index, &i, error) == NULL)
    return FALSE;
  parameter = gnn_nn_as_parameter (value);
  g_snprintf (key, sizeof key, "%u", i);
  return gnn_module_register_parameter (GNN_MODULE (self), key, parameter, error);
}

/**
 * gnn_parameter_list_append:
 * @self: a parameter list
 * @value: a tensor or parameter (a plain tensor is wrapped into a parameter)
 *
 * Adds @value at the end, like `parameter_list.append(value)`.
 *
 * Since: 0.1
 */
void
gnn_parameter_list_append (GnnParameterList *self,
                           GnnTensor        *value)
{
  g_autoptr(GnnParameter) parameter = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (GNN_IS_PARAMETER_LIST (self));
  g_return_if_fail (GNN_IS_TENSOR (value));

  parameter = gnn_nn_as_parameter (value);
  /* Cannot fail: the key `str(len(self))` is free and a parameter fits. */
  if (!gnn_container_append (GNN_MODULE (self), GNN_MAP_PARAMETERS, G_OBJECT (parameter), &error))
    g_critical ("%s: %s", G_STRFUNC, error->message);
}

/**
 * gnn_parameter_list_extend:
 * @self: a parameter list
 * @values: (array length=n_values) (nullable): the tensors or parameters
 * @n_values: the number of @values
 *
 * Appends each of @values, like `parameter_list.extend(values)`.
 *
 * Since: 0.1
 */
void
gnn_parameter_list_extend (GnnParameterList *self,
                           GnnTensor       **values,
                           guint             n_values)
{
  g_return_if_fail (GNN_IS_PARAMETER_LIST (self));
  g_return_if_fail (values != NULL || n_values == 0);

  for (guint i = 0; i < n_values; i++)
    gnn_parameter_list_append (self, values[i]);
}
