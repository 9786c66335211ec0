/* gnn-adaptive-avg-pool2d.c: adaptive average pooling of 2 dimensions (torch.nn.AdaptiveAvgPool2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-adaptive-pool-nd-private.h"

/**
 * GnnAdaptiveAvgPool2d:
 *
 * Adaptive average pooling of `[N, C, H, W]` or `[C, H, W]` inputs to a
 * fixed output size, `torch.nn.AdaptiveAvgPool2d`; see
 * [class@Gnn.AdaptivePoolNd] and [method@Gnn.Tensor.adaptive_avg_pool].
 *
 * Since: 0.1
 */
struct _GnnAdaptiveAvgPool2d
{
  GnnAdaptivePoolNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnAdaptiveAvgPool2d, gnn_adaptive_avg_pool2d, GNN_TYPE_ADAPTIVE_POOL_ND)

static void
gnn_adaptive_avg_pool2d_class_init (GnnAdaptiveAvgPool2dClass *klass)
{
  /**
   * GnnAdaptiveAvgPool2d:output-size-h:
   *
   * The output height (`output_size[0]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveAvgPool2d:output-size-w:
   *
   * The output width (`output_size[1]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  gnn_adaptive_pool_nd_class_setup (GNN_ADAPTIVE_POOL_ND_CLASS (klass), 2, FALSE);
}

static void
gnn_adaptive_avg_pool2d_init (GnnAdaptiveAvgPool2d *self)
{
}

/**
 * gnn_adaptive_avg_pool2d_new:
 * @output_height: the output height (>= 0), or -1 for the input's
 * @output_width: the output width (>= 0), or -1 for the input's
 * @error: return location for a #GError
 *
 * Creates an adaptive pooling layer,
 * `torch.nn.AdaptiveAvgPool2d((output_height, output_width))`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set for a
 *   size out of range
 *
 * Since: 0.1
 */
GnnAdaptiveAvgPool2d *
gnn_adaptive_avg_pool2d_new (gint64   output_height,
                             gint64   output_width,
                             GError **error)
{
  const gint64 size[] = { output_height, output_width };

  return gnn_adaptive_pool_nd_new (GNN_TYPE_ADAPTIVE_AVG_POOL2D, size, FALSE, error);
}
