/* gnn-checked-private.h: overflow-checked size arithmetic for every shape,
 * stride, offset and byte-size computation in the library.
 *
 * Semantics follow g_size_checked_mul(): each helper stores the result and
 * returns TRUE, or returns FALSE (leaving *out unspecified) when the exact
 * result does not fit in a gint64. Sizes are never computed with plain `*`
 * on user-controlled extents: a wrapped element count (numel 0 for a shape
 * of 2**64 elements) turns into out-of-bounds reads later.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

static inline gboolean
gnn_checked_mul (gint64 a, gint64 b, gint64 *out)
{
  return !__builtin_mul_overflow (a, b, out);
}

static inline gboolean
gnn_checked_add (gint64 a, gint64 b, gint64 *out)
{
  return !__builtin_add_overflow (a, b, out);
}

/* The element count of @shape. FALSE for a negative size or when the
 * product of the sizes, counting zeros as 1, times @elsize bytes does not
 * fit in a gint64 (pass 1 to check the count alone). Counting zeros as 1
 * makes every sub-product of a valid shape safe to compute unchecked; it
 * rejects empty shapes such as [0, 2**32, 2**32], which PyTorch accepts
 * but cannot reduce or flatten either. */
gboolean gnn_shape_numel_checked (const gint64 *shape, guint ndim, gsize elsize,
                                  gint64 *numel_out);

G_END_DECLS
