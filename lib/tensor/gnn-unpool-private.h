/* gnn-unpool-private.h: the data movement of max unpooling, shared by
 * lib/tensor (the forward scatters) and lib/autograd (the backward gathers)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* For each of @planes planes: @dst[p][@idx[p][k]] = @src[p][k] (scatter,
 * @dst zeroed by the caller) or @dst[p][k] = @src[p][@idx[p][k]]
 * (!@scatter), elements of @elem_size bytes, @n_small positions per plane
 * on the indexed side of @n_large. Returns the first index outside [0,
 * @n_large) (and moves nothing more), or -1. */
gint64 gnn_unpool_move (gboolean      scatter,
                        gint64        planes,
                        gint64        n_small,
                        gint64        n_large,
                        const gint64 *idx,
                        const void   *src,
                        void         *dst,
                        gsize         elem_size);

G_END_DECLS
