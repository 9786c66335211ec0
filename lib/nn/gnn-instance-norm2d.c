/* gnn-instance-norm2d.c: instance normalization of 2 spatial dimensions (torch.nn.InstanceNorm2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-instance-norm-nd-private.h"

/**
 * GnnInstanceNorm2d:
 *
 * Instance normalization of `[N, C, H, W]` or `[C, H, W]` inputs, `torch.nn.InstanceNorm2d`;
 * see [class@Gnn.InstanceNormNd].
 *
 * Since: 0.1
 */
struct _GnnInstanceNorm2d
{
  GnnInstanceNormNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnInstanceNorm2d, gnn_instance_norm2d, GNN_TYPE_INSTANCE_NORM_ND)

static void
gnn_instance_norm2d_class_init (GnnInstanceNorm2dClass *klass)
{
  GNN_INSTANCE_NORM_ND_CLASS (klass)->n_spatial = 2;
}

static void
gnn_instance_norm2d_init (GnnInstanceNorm2d *self)
{
}

/**
 * gnn_instance_norm2d_new:
 * @num_features: the number of channels C
 * @eps: the value added to the variance (PyTorch's default is 1e-5)
 * @momentum: the weight of the batch's statistics in the running update
 *   (default 0.1)
 * @affine: whether to learn a per-channel scale and offset (default %FALSE)
 * @track_running_stats: whether to keep running statistics (default %FALSE)
 * @error: return location for a #GError
 *
 * Creates `torch.nn.InstanceNorm2d(num_features, eps, momentum, affine,
 * track_running_stats)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) for an out-of-range argument
 *
 * Since: 0.1
 */
GnnInstanceNorm2d *
gnn_instance_norm2d_new (gint64     num_features,
                         double     eps,
                         double     momentum,
                         gboolean   affine,
                         gboolean   track_running_stats,
                         GError   **error)
{
  return gnn_instance_norm_nd_new (GNN_TYPE_INSTANCE_NORM2D, num_features, eps, momentum, affine, track_running_stats,
                                   error);
}
