/* gnn-index-walk-private.h: the walk shared by gather, scatter, scatter_add
 * and the index-based backward passes: every position of an index tensor,
 * paired with the elements of the tensors it addresses
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* torch's checks of an index tensor for gather / scatter along @dim of
 * @self (and of @src for scatter; NULL for gather): int64, as many
 * dimensions as @self, no larger than @self (and @src) apart from @dim.
 * @op names the function in messages ("gather", "scatter"). */
gboolean gnn_check_index_geometry (const char *op,
                                   GnnTensor  *self,
                                   guint       dim,
                                   GnnTensor  *index,
                                   GnnTensor  *src,
                                   GError    **error);

/* FALSE + "index 5 is out of bounds for dimension 1 with size 3" when an
 * element of @index lies outside [0, @size) (the first such in @index's
 * order; the pass itself is split among the threads). */
gboolean gnn_check_index_bounds   (GnnTensor  *index,
                                   guint       dim,
                                   gint64      size,
                                   GError    **error);

typedef enum
{
  GNN_INDEX_GATHER,       /* out[p] = self[p with index[p] along dim] */
  GNN_INDEX_SCATTER,      /* self[p with index[p] along dim] = src[p] */
  GNN_INDEX_SCATTER_ADD,  /* self[p with index[p] along dim] += src[p] */
} GnnIndexWalk;

/* Runs @walk over every position p of @index (its geometry checked
 * beforehand): GATHER writes @out (the shape of @index, @self's dtype)
 * from @self; SCATTER / SCATTER_ADD write into @self from @src (@self's
 * dtype; a 0-d @src is a value broadcast to every position). With @base
 * (scatters only; else NULL), @self is a fresh contiguous tensor of
 * @base's shape and dtype, unset: it is filled from @base first — block
 * by block just before the writes, where the split allows. The index
 * values are checked as they are used: on one out of bounds it returns
 * FALSE with gnn_check_index_bounds ()'s error, with @out / @self partly
 * written — so an in-place scatter checks first. */
gboolean gnn_index_walk            (GnnIndexWalk walk,
                                    GnnTensor   *self,
                                    guint        dim,
                                    GnnTensor   *index,
                                    GnnTensor   *other,
                                    GnnTensor   *base,
                                    GError     **error);

G_END_DECLS
