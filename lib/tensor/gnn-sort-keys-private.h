/* gnn-sort-keys-private.h: sort and topk of one slice by 32-bit order keys
 * (gnn-sort-keys.c), the fast path of gnn-tensor-sort.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* Whether slices of @dtype and length @n take the key path: float32 and
 * the integer types of at most 32 bits, n < 2^32. */
gboolean gnn_sort_keys_supported (GnnDType dtype,
                                  gint64   n);

/* Scratch for one slice of @n elements (freed with g_free), or NULL when
 * it cannot be allocated. */
gpointer gnn_sort_keys_scratch   (gint64   n);

/* Writes to @pos the positions of the @k first elements of the slice of
 * @n elements at @base (element stride @stride) in the order of
 * gnn-tensor-sort.c: ascending, or descending with @desc, NaN the largest
 * value, equal values by position (so every result is stable). */
void     gnn_sort_keys_slice     (GnnDType      dtype,
                                  const guint8 *base,
                                  gint64        stride,
                                  gint64        n,
                                  gint64        k,
                                  gboolean      desc,
                                  gpointer      scratch,
                                  gint64       *pos);

G_END_DECLS
