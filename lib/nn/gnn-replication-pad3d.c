/* gnn-replication-pad3d.c: replication padding of 3 dimensions (torch.nn.ReplicationPad3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-pad-nd-private.h"

/**
 * GnnReplicationPad3d:
 *
 * Pads the last 3 dimensions of `[C, D, H, W]` or `[N, C, D, H, W]` with
 * copies of the input's edge, `torch.nn.ReplicationPad3d`; see
 * [class@Gnn.PadNd].
 *
 * Since: 0.1
 */
struct _GnnReplicationPad3d
{
  GnnPadNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnReplicationPad3d, gnn_replication_pad3d, GNN_TYPE_PAD_ND)

static void
gnn_replication_pad3d_class_init (GnnReplicationPad3dClass *klass)
{
  /**
   * GnnReplicationPad3d:padding-left:
   *
   * The padding before the last dimension (`padding[0]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReplicationPad3d:padding-right:
   *
   * The padding after the last dimension (`padding[1]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReplicationPad3d:padding-top:
   *
   * The padding before the second-to-last dimension (`padding[2]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReplicationPad3d:padding-bottom:
   *
   * The padding after the second-to-last dimension (`padding[3]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReplicationPad3d:padding-front:
   *
   * The padding before the third-to-last dimension (`padding[4]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReplicationPad3d:padding-back:
   *
   * The padding after the third-to-last dimension (`padding[5]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  gnn_pad_nd_class_setup (GNN_PAD_ND_CLASS (klass), 3, GNN_PADDING_MODE_REPLICATE, FALSE);
}

static void
gnn_replication_pad3d_init (GnnReplicationPad3d *self)
{
}

/**
 * gnn_replication_pad3d_new:
 * @left: the padding before the last dimension
 * @right: the padding after the last dimension
 * @top: the padding before the second-to-last dimension
 * @bottom: the padding after the second-to-last dimension
 * @front: the padding before the third-to-last dimension
 * @back: the padding after the third-to-last dimension
 * @error: return location for a #GError
 *
 * Creates a padding layer, `torch.nn.ReplicationPad3d((left, right, top,
 * bottom, front, back))`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set when a
 *   pad is outside [-G_MAXINT32, G_MAXINT32]
 *
 * Since: 0.1
 */
GnnReplicationPad3d *
gnn_replication_pad3d_new (gint64   left,
                           gint64   right,
                           gint64   top,
                           gint64   bottom,
                           gint64   front,
                           gint64   back,
                           GError **error)
{
  const gint64 padding[] = { left, right, top, bottom, front, back };

  return gnn_pad_nd_new (GNN_TYPE_REPLICATION_PAD3D, padding, 0.0, error);
}
