/* gnn-adaptive-avg-pool3d.c: adaptive average pooling of 3 dimensions (torch.nn.AdaptiveAvgPool3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-adaptive-pool-nd-private.h"

/**
 * GnnAdaptiveAvgPool3d:
 *
 * Adaptive average pooling of `[N, C, D, H, W]` or `[C, D, H, W]` inputs to
 * a fixed output size, `torch.nn.AdaptiveAvgPool3d`; see
 * [class@Gnn.AdaptivePoolNd] and [method@Gnn.Tensor.adaptive_avg_pool].
 *
 * Since: 0.1
 */
struct _GnnAdaptiveAvgPool3d
{
  GnnAdaptivePoolNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnAdaptiveAvgPool3d, gnn_adaptive_avg_pool3d, GNN_TYPE_ADAPTIVE_POOL_ND)

static void
gnn_adaptive_avg_pool3d_class_init (GnnAdaptiveAvgPool3dClass *klass)
{
  /**
   * GnnAdaptiveAvgPool3d:output-size-d:
   *
   * The output depth (`output_size[0]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveAvgPool3d:output-size-h:
   *
   * The output height (`output_size[1]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveAvgPool3d:output-size-w:
   *
   * The output width (`output_size[2]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  gnn_adaptive_pool_nd_class_setup (GNN_ADAPTIVE_POOL_ND_CLASS (klass), 3, FALSE);
}

static void
gnn_adaptive_avg_pool3d_init (GnnAdaptiveAvgPool3d *self)
{
}

/**
 * gnn_adaptive_avg_pool3d_new:
 * @output_depth: the output depth (>= 0), or -1 for the input's
 * @output_height: the output height (>= 0), or -1 for the input's
 * @output_width: the output width (>= 0), or -1 for the input's
 * @error: return location for a #GError
 *
 * Creates an adaptive pooling layer,
 * `torch.nn.AdaptiveAvgPool3d((output_depth, output_height, output_width))`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set for a
 *   size out of range
 *
 * Since: 0.1
 */
GnnAdaptiveAvgPool3d *
gnn_adaptive_avg_pool3d_new (gint64   output_depth,
                             gint64   output_height,
                             gint64   output_width,
                             GError **error)
{
  const gint64 size[] = { output_depth, output_height, output_width };

  return gnn_adaptive_pool_nd_new (GNN_TYPE_ADAPTIVE_AVG_POOL3D, size, FALSE, error);
}
