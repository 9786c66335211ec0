/* gnn-adaptive-max-pool3d.c: adaptive max pooling of 3 dimensions (torch.nn.AdaptiveMaxPool3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-adaptive-pool-nd-private.h"

/**
 * GnnAdaptiveMaxPool3d:
 *
 * Adaptive max pooling of `[N, C, D, H, W]` or `[C, D, H, W]` inputs to a
 * fixed output size, `torch.nn.AdaptiveMaxPool3d`; see
 * [class@Gnn.AdaptivePoolNd] and [method@Gnn.Tensor.adaptive_max_pool].
 *
 * Since: 0.1
 */
struct _GnnAdaptiveMaxPool3d
{
  GnnAdaptivePoolNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnAdaptiveMaxPool3d, gnn_adaptive_max_pool3d, GNN_TYPE_ADAPTIVE_POOL_ND)

static void
gnn_adaptive_max_pool3d_class_init (GnnAdaptiveMaxPool3dClass *klass)
{
  /**
   * GnnAdaptiveMaxPool3d:output-size-d:
   *
   * The output depth (`output_size[0]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveMaxPool3d:output-size-h:
   *
   * The output height (`output_size[1]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveMaxPool3d:output-size-w:
   *
   * The output width (`output_size[2]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveMaxPool3d:return-indices:
   *
   * Whether the layer returns the positions of the maxima too
   * (`return_indices`); see
   * [method@Gnn.AdaptivePoolNd.forward_with_indices].
   *
   * Since: 0.1
   */
  gnn_adaptive_pool_nd_class_setup (GNN_ADAPTIVE_POOL_ND_CLASS (klass), 3, TRUE);
}

static void
gnn_adaptive_max_pool3d_init (GnnAdaptiveMaxPool3d *self)
{
}

/**
 * gnn_adaptive_max_pool3d_new:
 * @output_depth: the output depth (>= 0), or -1 for the input's
 * @output_height: the output height (>= 0), or -1 for the input's
 * @output_width: the output width (>= 0), or -1 for the input's
 * @return_indices: whether to return the positions of the maxima too
 * @error: return location for a #GError
 *
 * Creates an adaptive pooling layer,
 * `torch.nn.AdaptiveMaxPool3d((output_depth, output_height, output_width),
 * return_indices)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set for a
 *   size out of range
 *
 * Since: 0.1
 */
GnnAdaptiveMaxPool3d *
gnn_adaptive_max_pool3d_new (gint64     output_depth,
                             gint64     output_height,
                             gint64     output_width,
                             gboolean   return_indices,
                             GError   **error)
{
  const gint64 size[] = { output_depth, output_height, output_width };

  return gnn_adaptive_pool_nd_new (GNN_TYPE_ADAPTIVE_MAX_POOL3D, size, return_indices, error);
}
