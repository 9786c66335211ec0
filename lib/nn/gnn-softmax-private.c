/* gnn-softmax-private.c: the "dim" handling shared by Softmax and LogSoftmax
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-softmax-private.h"

gint
gnn_nn_softmax_resolve_dim (gint       dim,
                            GnnTensor *input)
{
  guint ndim;

  if (dim != GNN_SOFTMAX_DIM_NONE)
    return dim;
  ndim = gnn_tensor_get_ndim (input);
  return ndim == 0 || ndim == 1 || ndim == 3 ? 0 : 1;
}

char *
gnn_nn_softmax_dim_repr (gint dim)
{
  if (dim == GNN_SOFTMAX_DIM_NONE)
    return g_strdup ("dim=None");
  return g_strdup_printf ("dim=%d", dim);
}

GParamSpec *
gnn_nn_softmax_dim_pspec (void)
{
  return g_param_spec_int ("dim", NULL, NULL, G_MININT, G_MAXINT, GNN_SOFTMAX_DIM_NONE,
                           G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
}

void
gnn_nn_softmax_get_dim (GObject    *object,
                        guint       prop_id,
                        gint        dim,
                        GValue     *value,
                        GParamSpec *pspec)
{
  if (prop_id == GNN_SOFTMAX_PROP_DIM)
    g_value_set_int (value, dim);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

void
gnn_nn_softmax_set_dim (GObject      *object,
                        guint         prop_id,
                        gint         *dim,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  if (prop_id == GNN_SOFTMAX_PROP_DIM)
    *dim = g_value_get_int (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}
