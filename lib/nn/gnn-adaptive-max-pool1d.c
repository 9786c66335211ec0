/* gnn-adaptive-max-pool1d.c: adaptive max pooling of 1 dimension (torch.nn.AdaptiveMaxPool1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-adaptive-pool-nd-private.h"

/**
 * GnnAdaptiveMaxPool1d:
 *
 * Adaptive max pooling of `[N, C, L]` or `[C, L]` inputs to a fixed output
 * size, `torch.nn.AdaptiveMaxPool1d`; see [class@Gnn.AdaptivePoolNd] and
 * [method@Gnn.Tensor.adaptive_max_pool].
 *
 * Since: 0.1
 */
struct _GnnAdaptiveMaxPool1d
{
  GnnAdaptivePoolNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnAdaptiveMaxPool1d, gnn_adaptive_max_pool1d, GNN_TYPE_ADAPTIVE_POOL_ND)

static void
gnn_adaptive_max_pool1d_class_init (GnnAdaptiveMaxPool1dClass *klass)
{
  /**
   * GnnAdaptiveMaxPool1d:output-size:
   *
   * The output size (`output_size`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveMaxPool1d:return-indices:
   *
   * Whether the layer returns the positions of the maxima too
   * (`return_indices`); see
   * [method@Gnn.AdaptivePoolNd.forward_with_indices].
   *
   * Since: 0.1
   */
  gnn_adaptive_pool_nd_class_setup (GNN_ADAPTIVE_POOL_ND_CLASS (klass), 1, TRUE);
}

static void
gnn_adaptive_max_pool1d_init (GnnAdaptiveMaxPool1d *self)
{
}

/**
 * gnn_adaptive_max_pool1d_new:
 * @output_size: the output size (>= 0), or -1 for the input's size
 * @return_indices: whether to return the positions of the maxima too
 * @error: return location for a #GError
 *
 * Creates an adaptive pooling layer,
 * `torch.nn.AdaptiveMaxPool1d(output_size, return_indices)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set for a
 *   size out of range
 *
 * Since: 0.1
 */
GnnAdaptiveMaxPool1d *
gnn_adaptive_max_pool1d_new (gint64     output_size,
                             gboolean   return_indices,
                             GError   **error)
{
  const gint64 size[] = { output_size };

  return gnn_adaptive_pool_nd_new (GNN_TYPE_ADAPTIVE_MAX_POOL1D, size, return_indices, error);
}
