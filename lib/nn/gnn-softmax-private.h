/* gnn-softmax-private.h: the "dim" handling shared by Softmax and LogSoftmax
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* The property id of "dim", the only property of both layers. */
#define GNN_SOFTMAX_PROP_DIM 1

/* PyTorch's _get_softmax_dim: @dim, or for GNN_SOFTMAX_DIM_NONE 0 for
 * inputs of 0, 1 or 3 dimensions, else 1. */
gint        gnn_nn_softmax_resolve_dim (gint          dim,
                                        GnnTensor    *input);

/* "dim=None" or "dim=<dim>". */
char       *gnn_nn_softmax_dim_repr    (gint          dim);

/* The "dim" property (default GNN_SOFTMAX_DIM_NONE). */
GParamSpec *gnn_nn_softmax_dim_pspec   (void);

/* get_property / set_property bodies for the "dim" property kept in @dim. */
void        gnn_nn_softmax_get_dim     (GObject      *object,
                                        guint         prop_id,
                                        gint          dim,
                                        GValue       *value,
                                        GParamSpec   *pspec);
void        gnn_nn_softmax_set_dim     (GObject      *object,
                                        guint         prop_id,
                                        gint         *dim,
                                        const GValue *value,
                                        GParamSpec   *pspec);

G_END_DECLS
