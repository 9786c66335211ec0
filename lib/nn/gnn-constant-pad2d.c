/* gnn-constant-pad2d.c: constant padding of 2 dimensions (torch.nn.ConstantPad2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-pad-nd-private.h"

/**
 * GnnConstantPad2d:
 *
 * Pads the last 2 dimensions of inputs of at least 2 dimensions with a
 * constant value, `torch.nn.ConstantPad2d`; see [class@Gnn.PadNd].
 *
 * Since: 0.1
 */
struct _GnnConstantPad2d
{
  GnnPadNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnConstantPad2d, gnn_constant_pad2d, GNN_TYPE_PAD_ND)

static void
gnn_constant_pad2d_class_init (GnnConstantPad2dClass *klass)
{
  /**
   * GnnConstantPad2d:padding-left:
   *
   * The padding before the last dimension (`padding[0]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnConstantPad2d:padding-right:
   *
   * The padding after the last dimension (`padding[1]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnConstantPad2d:padding-top:
   *
   * The padding before the second-to-last dimension (`padding[2]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  /**
   * GnnConstantPad2d:padding-bottom:
   *
   * The padding after the second-to-last dimension (`padding[3]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  /**
   * GnnConstantPad2d:value:
   *
   * The fill value (`value`).
   *
   * Since: 0.1
   */
  gnn_pad_nd_class_setup (GNN_PAD_ND_CLASS (klass), 2, GNN_PADDING_MODE_CONSTANT, TRUE);
}

static void
gnn_constant_pad2d_init (GnnConstantPad2d *self)
{
}

/**
 * gnn_constant_pad2d_new:
 * @left: the padding before the last dimension
 * @right: the padding after the last dimension
 * @top: the padding before the second-to-last dimension
 * @bottom: the padding after the second-to-last dimension
 * @value: the fill value
 * @error: return location for a #GError
 *
 * Creates a padding layer, `torch.nn.ConstantPad2d((left, right, top,
 * bottom), value)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set when a
 *   pad is outside [-G_MAXINT32, G_MAXINT32]
 *
 * Since: 0.1
 */
GnnConstantPad2d *
gnn_constant_pad2d_new (gint64   left,
                        gint64   right,
                        gint64   top,
                        gint64   bottom,
                        double   value,
                        GError **error)
{
  const gint64 padding[] = { left, right, top, bottom };

  return gnn_pad_nd_new (GNN_TYPE_CONSTANT_PAD2D, padding, value, error);
}
