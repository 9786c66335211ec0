/* gnn-replication-pad1d.c: replication padding of 1 dimension (torch.nn.ReplicationPad1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-pad-nd-private.h"

/**
 * GnnReplicationPad1d:
 *
 * Pads the last dimension of `[C, W]` or `[N, C, W]` with copies of the
 * input's edge, `torch.nn.ReplicationPad1d`; see [class@Gnn.PadNd].
 *
 * Since: 0.1
 */
struct _GnnReplicationPad1d
{
  GnnPadNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnReplicationPad1d, gnn_replication_pad1d, GNN_TYPE_PAD_ND)

static void
gnn_replication_pad1d_class_init (GnnReplicationPad1dClass *klass)
{
  /**
   * GnnReplicationPad1d:padding-left:
   *
   * The padding before the last dimension (`padding[0]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReplicationPad1d:padding-right:
   *
   * The padding after the last dimension (`padding[1]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  gnn_pad_nd_class_setup (GNN_PAD_ND_CLASS (klass), 1, GNN_PADDING_MODE_REPLICATE, FALSE);
}

static void
gnn_replication_pad1d_init (GnnReplicationPad1d *self)
{
}

/**
 * gnn_replication_pad1d_new:
 * @left: the padding before the last dimension
 * @right: the padding after the last dimension
 * @error: return location for a #GError
 *
 * Creates a padding layer, `torch.nn.ReplicationPad1d((left, right))`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set when a
 *   pad is outside [-G_MAXINT32, G_MAXINT32]
 *
 * Since: 0.1
 */
GnnReplicationPad1d *
gnn_replication_pad1d_new (gint64   left,
                           gint64   right,
                           GError **error)
{
  const gint64 padding[] = { left, right };

  return gnn_pad_nd_new (GNN_TYPE_REPLICATION_PAD1D, padding, 0.0, error);
}
