/* gnn-zero-pad2d.c: zero padding of 2 dimensions (torch.nn.ZeroPad2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-pad-nd-private.h"

/**
 * GnnZeroPad2d:
 *
 * Pads the last 2 dimensions of inputs of at least 2 dimensions with zeros,
 * `torch.nn.ZeroPad2d`; see [class@Gnn.PadNd].
 *
 * Since: 0.1
 */
struct _GnnZeroPad2d
{
  GnnPadNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnZeroPad2d, gnn_zero_pad2d, GNN_TYPE_PAD_ND)

static void
gnn_zero_pad2d_class_init (GnnZeroPad2dClass *klass)
{
  /**
   * GnnZeroPad2d:padding-left:
   *
   * The padding before the last dimension (`padding[0]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnZeroPad2d:padding-right:
   *
   * The padding after the last dimension (`padding[1]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnZeroPad2d:padding-top:
   *
   * The padding before the second-to-last dimension (`padding[2]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  /**
   * GnnZeroPad2d:padding-bottom:
   *
   * The padding after the second-to-last dimension (`padding[3]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  gnn_pad_nd_class_setup (GNN_PAD_ND_CLASS (klass), 2, GNN_PADDING_MODE_CONSTANT, FALSE);
}

static void
gnn_zero_pad2d_init (GnnZeroPad2d *self)
{
}

/**
 * gnn_zero_pad2d_new:
 * @left: the padding before the last dimension
 * @right: the padding after the last dimension
 * @top: the padding before the second-to-last dimension
 * @bottom: the padding after the second-to-last dimension
 * @error: return location for a #GError
 *
 * Creates a padding layer, `torch.nn.ZeroPad2d((left, right, top, bottom))`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set when a
 *   pad is outside [-G_MAXINT32, G_MAXINT32]
 *
 * Since: 0.1
 */
GnnZeroPad2d *
gnn_zero_pad2d_new (gint64   left,
                    gint64   right,
                    gint64   top,
                    gint64   bottom,
                    GError **error)
{
  const gint64 padding[] = { left, right, top, bottom };

  return gnn_pad_nd_new (GNN_TYPE_ZERO_PAD2D, padding, 0.0, error);
}
