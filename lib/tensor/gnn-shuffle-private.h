/* gnn-shuffle-private.h: the data movement of pixel (un)shuffle, shared
 * by lib/tensor and lib/autograd (each is the other's backward)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* A new contiguous tensor holding @t ([*, C·r², H, W]) shuffled to [*, C,
 * H·r, W·r], or with @unshuffle the reverse; not recorded. The shapes
 * must fit (the callers check them). */
GnnTensor *gnn_pixel_shuffle_copy (GnnTensor  *t,
                                   gint64      r,
                                   gboolean    unshuffle,
                                   GError    **error);

G_END_DECLS
