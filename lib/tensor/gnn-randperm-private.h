/* gnn-randperm-private.h: random permutations of indices and unseeded
 * generators (private; lib/data's samplers use them)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* Fisher–Yates permutation of 0..n-1 into @out. */
void gnn_randperm (GnnGenerator *generator, gint64 *out, gsize n);

/* A generator seeded from a draw of the default generator, as torch seeds
 * the generator of a sampler given none (torch.manual_seed reproduces its
 * shuffles). */
GnnGenerator *gnn_generator_new_unseeded (void);

G_END_DECLS
