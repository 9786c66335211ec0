/* gnn-nditer-private.h: walking several equally-shaped strided operands at once
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <gnn/gnn.h>

G_BEGIN_DECLS

#define GNN_NDITER_MAX_OPS 4

/* Iterates over all positions of a shape, in row-major order, for up to
 * GNN_NDITER_MAX_OPS operands each with its own strides (in elements).
 * The innermost dimension is left to the caller as a 1-d run: each step
 * yields the element offsets of the run's start for every operand, plus
 * the run length and inner strides, so kernels loop over a plain stride.
 * Dimensions of size 1 are dropped and contiguous neighbours are coalesced
 * at init, so a contiguous tensor is a single run. */
typedef struct
{
  guint  ndim;                                     /* after coalescing, >= 1 */
  guint  n_ops;
  gint64 shape[GNN_MAX_DIMS];
  gint64 strides[GNN_NDITER_MAX_OPS][GNN_MAX_DIMS];
  gint64 index[GNN_MAX_DIMS];
  gint64 offsets[GNN_NDITER_MAX_OPS];              /* current run start, in elements */
  gint64 inner_size;                               /* run length */
  gint64 inner_strides[GNN_NDITER_MAX_OPS];
  gboolean done;
} GnnNdIter;

/* @strides: n_ops arrays of ndim strides each. A shape with a zero size gives
 * an iterator that is done at once. */
void     gnn_nditer_init (GnnNdIter *it, const gint64 *shape, guint ndim,
                          guint n_ops, const gint64 *const *strides);
/* Advances to the next run; returns FALSE once all runs were visited.
 * Call it once before the first run:  while (gnn_nditer_next (&it)) { ... } */
gboolean gnn_nditer_next (GnnNdIter *it);

G_END_DECLS
