/* gnn-instance-norm3d.c: instance normalization of 3 spatial dimensions (torch.nn.InstanceNorm3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-instance-norm-nd-private.h"

/**
 * GnnInstanceNorm3d:
 *
 * Instance normalization of `[N, C, D, H, W]` or `[C, D, H, W]` inputs, `torch.nn.InstanceNorm3d`;
 * see [class@Gnn.InstanceNormNd].
 *
 * Since: 0.1
 */
struct _GnnInstanceNorm3d
{
  GnnInstanceNormNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnInstanceNorm3d, gnn_instance_norm3d, GNN_TYPE_INSTANCE_NORM_ND)

static void
gnn_instance_norm3d_class_init (GnnInstanceNorm3dClass *klass)
{
  GNN_INSTANCE_NORM_ND_CLASS (klass)->n_spatial = 3;
}

static void
gnn_instance_norm3d_init (GnnInstanceNorm3d *self)
{
}

/**
 * gnn_instance_norm3d_new:
 * @num_features: the number of channels C
 * @eps: the value added to the variance (PyTorch's default is 1e-5)
 * @momentum: the weight of the batch's statistics in the running update
 *   (default 0.1)
 * @affine: whether to learn a per-channel scale and offset (default %FALSE)
 * @track_running_stats: whether to keep running statistics (default %FALSE)
 * @error: return location for a #GError
 *
 * Creates `torch.nn.InstanceNorm3d(num_features, eps, momentum, affine,
 * track_running_stats)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) for an out-of-range argument
 *
 * Since: 0.1
 */
GnnInstanceNorm3d *
gnn_instance_norm3d_new (gint64     num_features,
                         double     eps,
                         double     momentum,
                         gboolean   affine,
                         gboolean   track_running_stats,
                         GError   **error)
{
  return gnn_instance_norm_nd_new (GNN_TYPE_INSTANCE_NORM3D, num_features, eps, momentum, affine, track_running_stats,
                                   error);
}
