/* gnn-reflection-pad2d.c: reflection padding of 2 dimensions (torch.nn.ReflectionPad2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-pad-nd-private.h"

/**
 * GnnReflectionPad2d:
 *
 * Pads the last 2 dimensions of `[C, H, W]` or `[N, C, H, W]` with the
 * reflection of the input about its edge, `torch.nn.ReflectionPad2d`; see
 * [class@Gnn.PadNd].
 *
 * Since: 0.1
 */
struct _GnnReflectionPad2d
{
  GnnPadNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnReflectionPad2d, gnn_reflection_pad2d, GNN_TYPE_PAD_ND)

static void
gnn_reflection_pad2d_class_init (GnnReflectionPad2dClass *klass)
{
  /**
   * GnnReflectionPad2d:padding-left:
   *
   * The padding before the last dimension (`padding[0]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReflectionPad2d:padding-right:
   *
   * The padding after the last dimension (`padding[1]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReflectionPad2d:padding-top:
   *
   * The padding before the second-to-last dimension (`padding[2]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReflectionPad2d:padding-bottom:
   *
   * The padding after the second-to-last dimension (`padding[3]`); negative
   * values crop.
   *
   * Since: 0.1
   */
  gnn_pad_nd_class_setup (GNN_PAD_ND_CLASS (klass), 2, GNN_PADDING_MODE_REFLECT, FALSE);
}

static void
gnn_reflection_pad2d_init (GnnReflectionPad2d *self)
{
}

/**
 * gnn_reflection_pad2d_new:
 * @left: the padding before the last dimension
 * @right: the padding after the last dimension
 * @top: the padding before the second-to-last dimension
 * @bottom: the padding after the second-to-last dimension
 * @error: return location for a #GError
 *
 * Creates a padding layer, `torch.nn.ReflectionPad2d((left, right, top,
 * bottom))`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set when a
 *   pad is outside [-G_MAXINT32, G_MAXINT32]
 *
 * Since: 0.1
 */
GnnReflectionPad2d *
gnn_reflection_pad2d_new (gint64   left,
                          gint64   right,
                          gint64   top,
                          gint64   bottom,
                          GError **error)
{
  const gint64 padding[] = { left, right, top, bottom };

  return gnn_pad_nd_new (GNN_TYPE_REFLECTION_PAD2D, padding, 0.0, error);
}
