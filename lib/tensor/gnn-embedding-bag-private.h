/* gnn-embedding-bag-private.h: what embedding_bag's forward (lib/tensor)
 * tells its backward (lib/autograd)
 *
 * The node: inputs (weight, per_sample_weights or NULL); params.ints =
 * (mode, padding row or -1, number of bags); params.flag =
 * scale_grad_by_freq; params.extra = (the flattened int64 indices, then for
 * sum and mean the bag of each position (-1: padding), for max the winning
 * row of each bag and feature ([bags, dim], -1: empty bag)).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

enum { GNN_EMBEDDING_BAG_SUM, GNN_EMBEDDING_BAG_MEAN, GNN_EMBEDDING_BAG_MAX };

typedef struct
{
  int           mode;
  gint64        rows, dim, n_bags, padding_row;
  const gint64 *starts;   /* n_bags + 1 */
} GnnEmbeddingBagGeom;

G_END_DECLS
