/* gnn-adaptive-max-pool2d.c: adaptive max pooling of 2 dimensions (torch.nn.AdaptiveMaxPool2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-adaptive-pool-nd-private.h"

/**
 * GnnAdaptiveMaxPool2d:
 *
 * Adaptive max pooling of `[N, C, H, W]` or `[C, H, W]` inputs to a fixed
 * output size, `torch.nn.AdaptiveMaxPool2d`; see [class@Gnn.AdaptivePoolNd]
 * and [method@Gnn.Tensor.adaptive_max_pool].
 *
 * Since: 0.1
 */
struct _GnnAdaptiveMaxPool2d
{
  GnnAdaptivePoolNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnAdaptiveMaxPool2d, gnn_adaptive_max_pool2d, GNN_TYPE_ADAPTIVE_POOL_ND)

static void
gnn_adaptive_max_pool2d_class_init (GnnAdaptiveMaxPool2dClass *klass)
{
  /**
   * GnnAdaptiveMaxPool2d:output-size-h:
   *
   * The output height (`output_size[0]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveMaxPool2d:output-size-w:
   *
   * The output width (`output_size[1]`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  /**
   * GnnAdaptiveMaxPool2d:return-indices:
   *
   * Whether the layer returns the positions of the maxima too
   * (`return_indices`); see
   * [method@Gnn.AdaptivePoolNd.forward_with_indices].
   *
   * Since: 0.1
   */
  gnn_adaptive_pool_nd_class_setup (GNN_ADAPTIVE_POOL_ND_CLASS (klass), 2, TRUE);
}

static void
gnn_adaptive_max_pool2d_init (GnnAdaptiveMaxPool2d *self)
{
}

/**
 * gnn_adaptive_max_pool2d_new:
 * @output_height: the output height (>= 0), or -1 for the input's
 * @output_width: the output width (>= 0), or -1 for the input's
 * @return_indices: whether to return the positions of the maxima too
 * @error: return location for a #GError
 *
 * Creates an adaptive pooling layer,
 * `torch.nn.AdaptiveMaxPool2d((output_height, output_width),
 * return_indices)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set for a
 *   size out of range
 *
 * Since: 0.1
 */
GnnAdaptiveMaxPool2d *
gnn_adaptive_max_pool2d_new (gint64     output_height,
                             gint64     output_width,
                             gboolean   return_indices,
                             GError   **error)
{
  const gint64 size[] = { output_height, output_width };

  return gnn_adaptive_pool_nd_new (GNN_TYPE_ADAPTIVE_MAX_POOL2D, size, return_indices, error);
}
