/* gnn-optim-private.c: construction helpers shared by the optimizers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "optim/gnn-optim-private.h"

GParamSpec *
gnn_optim_double_property (const char *name,
                           double      default_value)
{
  return g_param_spec_double (name, NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, default_value,
                              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
}

GParamSpec *
gnn_optim_bool_property (const char *name,
                         gboolean    default_value)
{
  return g_param_spec_boolean (name, NULL, NULL, default_value,
                               G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
}

GnnOptimizer *
gnn_optim_finish_new (GnnOptimizer  *self,
                      GPtrArray     *params,
                      GError       **error)
{
  g_autoptr (GnnOptimizer) owned = self;

  if (!gnn_optimizer_ensure_initialized (owned, error))
    return NULL;
  if (params->len == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "optimizer got an empty parameter list");
      return NULL;
    }
  if (!gnn_optimizer_add_params (owned, params, error))
    return NULL;
  return g_steal_pointer (&owned);
}
