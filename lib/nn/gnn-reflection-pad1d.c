/* gnn-reflection-pad1d.c: reflection padding of 1 dimension (torch.nn.ReflectionPad1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-pad-nd-private.h"

/**
 * GnnReflectionPad1d:
 *
 * Pads the last dimension of `[C, W]` or `[N, C, W]` with the reflection of
 * the input about its edge, `torch.nn.ReflectionPad1d`; see
 * [class@Gnn.PadNd].
 *
 * Since: 0.1
 */
struct _GnnReflectionPad1d
{
  GnnPadNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnReflectionPad1d, gnn_reflection_pad1d, GNN_TYPE_PAD_ND)

static void
gnn_reflection_pad1d_class_init (GnnReflectionPad1dClass *klass)
{
  /**
   * GnnReflectionPad1d:padding-left:
   *
   * The padding before the last dimension (`padding[0]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  /**
   * GnnReflectionPad1d:padding-right:
   *
   * The padding after the last dimension (`padding[1]`); negative values
   * crop.
   *
   * Since: 0.1
   */
  gnn_pad_nd_class_setup (GNN_PAD_ND_CLASS (klass), 1, GNN_PADDING_MODE_REFLECT, FALSE);
}

static void
gnn_reflection_pad1d_init (GnnReflectionPad1d *self)
{
}

/**
 * gnn_reflection_pad1d_new:
 * @left: the padding before the last dimension
 * @right: the padding after the last dimension
 * @error: return location for a #GError
 *
 * Creates a padding layer, `torch.nn.ReflectionPad1d((left, right))`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set when a
 *   pad is outside [-G_MAXINT32, G_MAXINT32]
 *
 * Since: 0.1
 */
GnnReflectionPad1d *
gnn_reflection_pad1d_new (gint64   left,
                          gint64   right,
                          GError **error)
{
  const gint64 padding[] = { left, right };

  return gnn_pad_nd_new (GNN_TYPE_REFLECTION_PAD1D, padding, 0.0, error);
}
