/* gnn-checked.c: overflow-checked size arithmetic (see gnn-checked-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core/gnn-checked-private.h"

gboolean
gnn_shape_numel_checked (const gint64 *shape,
                         guint         ndim,
                         gsize         elsize,
                         gint64       *numel_out)
{
  gint64 extent = 1, bytes;
  gboolean empty = FALSE;

  /* Zero extents count as 1: then the product of ANY subset of a valid
   * shape's sizes (a flatten, a batch, a contiguous stride) fits too, and
   * code downstream may multiply sizes without checking again. */
  for (guint d = 0; d < ndim; d++)
    {
      if (shape[d] < 0 || !gnn_checked_mul (extent, MAX (shape[d], 1), &extent))
        return FALSE;
      empty = empty || shape[d] == 0;
    }
  if (elsize > (gsize) G_MAXINT64 || !gnn_checked_mul (extent, (gint64) elsize, &bytes))
    return FALSE;
  *numel_out = empty ? 0 : extent;
  return TRUE;
}
