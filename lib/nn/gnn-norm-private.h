/* gnn-norm-private.h: what the normalization layers with running
 * statistics share (torch's _NormBase: BatchNorm, InstanceNorm)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* Registers the `weight` (ones) and `bias` (zeros) parameters when
 * @affine, and the `running_mean` (zeros), `running_var` (ones) and
 * `num_batches_tracked` (0) buffers when @track_running_stats, each of @c
 * channels; the slots exist (empty) otherwise. On failure (out of memory)
 * the slots stay empty. */
gboolean  gnn_nn_norm_create_tensors (GnnModule  *module,
                                      gint64      c,
                                      gboolean    affine,
                                      gboolean    track_running_stats,
                                      GError    **error);

/* torch's reset_running_stats + reset_parameters. */
gboolean  gnn_nn_norm_reset          (GnnModule  *module,
                                      GError    **error);

/* "3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True". */
char     *gnn_nn_norm_extra_repr     (gint64      num_features,
                                      double      eps,
                                      double      momentum,
                                      gboolean    affine,
                                      gboolean    track_running_stats);

G_END_DECLS
