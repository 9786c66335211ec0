/* gnn-dropout2d.c: channel-wise dropout of `[n (torch.nn.Dropout2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-dropout-nd-private.h"

/**
 * GnnDropout2d:
 *
 * Channel-wise dropout of `[N, C, H, W]` inputs (torch 1.13 takes 3-d ones
 * as `[N, C, L]`): each channel of each sample is zeroed with probability p,
 * the others scaled by `1 / (1 − p)`, `torch.nn.Dropout2d`; see
 * [class@Gnn.DropoutNd].
 *
 * Since: 0.1
 */
struct _GnnDropout2d
{
  GnnDropoutNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnDropout2d, gnn_dropout2d, GNN_TYPE_DROPOUT_ND)

static void
gnn_dropout2d_class_init (GnnDropout2dClass *klass)
{
  GnnDropoutNdClass *dropout_class = GNN_DROPOUT_ND_CLASS (klass);

  dropout_class->n_spatial = 2;
  dropout_class->feature = TRUE;
  dropout_class->alpha = FALSE;
}

static void
gnn_dropout2d_init (GnnDropout2d *self)
{
}

/**
 * gnn_dropout2d_new:
 * @p: the probability of dropping, in [0, 1] (PyTorch's default is 0.5)
 * @inplace: whether to write the result into the input
 * @generator: (nullable): the generator of the masks, or %NULL for the
 *   library's default one
 * @error: return location for a #GError
 *
 * Creates `torch.nn.Dropout2d(p, inplace)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   ("dropout probability has to be between 0 and 1, but got 1.5")
 *
 * Since: 0.1
 */
GnnDropout2d *
gnn_dropout2d_new (double        p,
                   gboolean      inplace,
                   GnnGenerator *generator,
                   GError      **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_dropout_nd_new (GNN_TYPE_DROPOUT2D, p, inplace, generator, error);
}
