/* gnn-constant-pad1d.c: constant padding of 1 dimension (torch.nn.ConstantPad1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-pad-nd-private.h"

/**
 * GnnConstantPad1d:
 *
 * Pads the last dimension of inputs of at least 1 dimension with a constant
 * value, `torch.nn.ConstantPad1d`; see [class@Gnn.PadNd].
 *
 * Since: 0.1
 */
struct _GnnConstantPad1d
{
  GnnPadNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnConstantPad1d, gnn_constant_pad1d, GNN_TYPE_PAD_ND)

static void
gnn_constant_pad1d_class_init (GnnConstantPad1dClass *klass)
{
  /**
   * GnnConstantPad1d:padding-left:
   *
   * The padding before the last dimension (`padding[0]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnConstantPad1d:padding-right:
   *
   * The padding after the last dimension (`padding[1]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnConstantPad1d:value:
   *
   * The fill value (`value`).
   *
   * Since: 0.1
   */
  gnn_pad_nd_class_setup (GNN_PAD_ND_CLASS (klass), 1, GNN_PADDING_MODE_CONSTANT, TRUE);
}

static void
gnn_constant_pad1d_init (GnnConstantPad1d *self)
{
}

/**
 * gnn_constant_pad1d_new:
 * @left: the padding before the last dimension
 * @right: the padding after the last dimension
 * @value: the fill value
 * @error: return location for a #GError
 *
 * Creates a padding layer, `torch.nn.ConstantPad1d((left, right), value)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set when a
 *   pad is outside [-G_MAXINT32, G_MAXINT32]
 *
 * Since: 0.1
 */
GnnConstantPad1d *
gnn_constant_pad1d_new (gint64   left,
                        gint64   right,
                        double   value,
                        GError **error)
{
  const gint64 padding[] = { left, right };

  return gnn_pad_nd_new (GNN_TYPE_CONSTANT_PAD1D, padding, value, error);
}
