/* gnn-dropout-private.h: dropout as a function, for the layers that drop
 * out inside their forward (the recurrent networks between layers)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* The inverted-dropout mask of @input's shape and dtype (float32 or
 * float64): 1 / (1 - p) where a uniform draw is below 1 - p, else 0 (a
 * 0-d zero for p = 1); drawn from @generator or the default one. */
GnnTensor *gnn_nn_dropout_mask (GnnTensor     *input,
                                double         p,
                                GnnGenerator  *generator,
                                GError       **error);

/* @input times its dropout mask (recorded for autograd); @input itself
 * when p is 0 or it is empty. */
GnnTensor *gnn_nn_dropout      (GnnTensor     *input,
                                double         p,
                                GnnGenerator  *generator,
                                GError       **error);

G_END_DECLS
