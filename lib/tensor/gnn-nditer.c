/* gnn-nditer.c: row-major walk over strided operands, inner runs left to kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-nditer-private.h"

void
gnn_nditer_init (GnnNdIter          *it,
                 const gint64       *shape,
                 guint               ndim,
                 guint               n_ops,
                 const gint64 *const *strides)
{
  guint nd = 0;

  g_assert (n_ops >= 1 && n_ops <= GNN_NDITER_MAX_OPS);
  it->n_ops = n_ops;
  it->done = FALSE;

  for (guint d = 0; d < ndim; d++)
    if (shape[d] == 0)
      {
        it->done = TRUE;
        it->ndim = 1;
        return;
      }

  /* Drop size-1 dims, then coalesce dim d into the previous kept one when,
   * for every operand, stride[prev] == stride[d] * shape[d]. */
  for (guint d = 0; d < ndim; d++)
    {
      gboolean merge = nd > 0;

      if (shape[d] == 1)
        continue;
      for (guint o = 0; merge && o < n_ops; o++)
        merge = it->strides[o][nd - 1] == strides[o][d] * shape[d];
      if (merge)
        {
          it->shape[nd - 1] *= shape[d];
          for (guint o = 0; o < n_ops; o++)
            it->strides[o][nd - 1] = strides[o][d];
          continue;
        }
      it->shape[nd] = shape[d];
      for (guint o = 0; o < n_ops; o++)
        it->strides[o][nd] = strides[o][d];
      nd++;
    }

  if (nd == 0)
    {
      it->shape[0] = 1;
      for (guint o = 0; o < n_ops; o++)
        it->strides[o][0] = 0;
      nd = 1;
    }

  it->ndim = nd;
  it->inner_size = it->shape[nd - 1];
  for (guint o = 0; o < n_ops; o++)
    {
      it->inner_strides[o] = it->strides[o][nd - 1];
      it->offsets[o] = 0;
    }
  for (guint d = 0; d < nd; d++)
    it->index[d] = 0;
  /* The first call to next() yields the first run. */
  it->index[nd - 1] = -1;
}

gboolean
gnn_nditer_next (GnnNdIter *it)
{
  gint d;

  if (it->done)
    return FALSE;

  if (it->index[it->ndim - 1] == -1)
    {
      it->index[it->ndim - 1] = 0;
      return TRUE;
    }

  /* The innermost dim is one run: advance the outer dims like an odometer. */
  for (d = (gint) it->ndim - 2; d >= 0; d--)
    {
      it->index[d]++;
      for (guint o = 0; o < it->n_ops; o++)
        it->offsets[o] += it->strides[o][d];
      if (it->index[d] < it->shape[d])
        return TRUE;
      for (guint o = 0; o < it->n_ops; o++)
        it->offsets[o] -= it->strides[o][d] * it->shape[d];
      it->index[d] = 0;
    }

  it->done = TRUE;
  return FALSE;
}
