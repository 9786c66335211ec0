/* gnn-adaptive-avg-pool1d.c: adaptive average pooling of 1 dimension (torch.nn.AdaptiveAvgPool1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-adaptive-pool-nd-private.h"

/**
 * GnnAdaptiveAvgPool1d:
 *
 * Adaptive average pooling of `[N, C, L]` or `[C, L]` inputs to a fixed
 * output size, `torch.nn.AdaptiveAvgPool1d`; see [class@Gnn.AdaptivePoolNd]
 * and [method@Gnn.Tensor.adaptive_avg_pool].
 *
 * Since: 0.1
 */
struct _GnnAdaptiveAvgPool1d
{
  GnnAdaptivePoolNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnAdaptiveAvgPool1d, gnn_adaptive_avg_pool1d, GNN_TYPE_ADAPTIVE_POOL_ND)

static void
gnn_adaptive_avg_pool1d_class_init (GnnAdaptiveAvgPool1dClass *klass)
{
  /**
   * GnnAdaptiveAvgPool1d:output-size:
   *
   * The output size (`output_size`); -1 keeps the input's size (torch's
   * `None`).
   *
   * Since: 0.1
   */
  gnn_adaptive_pool_nd_class_setup (GNN_ADAPTIVE_POOL_ND_CLASS (klass), 1, FALSE);
}

static void
gnn_adaptive_avg_pool1d_init (GnnAdaptiveAvgPool1d *self)
{
}

/**
 * gnn_adaptive_avg_pool1d_new:
 * @output_size: the output size (>= 0), or -1 for the input's size
 * @error: return location for a #GError
 *
 * Creates an adaptive pooling layer,
 * `torch.nn.AdaptiveAvgPool1d(output_size)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set for a
 *   size out of range
 *
 * Since: 0.1
 */
GnnAdaptiveAvgPool1d *
gnn_adaptive_avg_pool1d_new (gint64   output_size,
                             GError **error)
{
  const gint64 size[] = { output_size };

  return gnn_adaptive_pool_nd_new (GNN_TYPE_ADAPTIVE_AVG_POOL1D, size, FALSE, error);
}
