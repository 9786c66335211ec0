/* gnn-dropout1d.c: channel-wise dropout of `[n (torch.nn.Dropout1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-dropout-nd-private.h"

/**
 * GnnDropout1d:
 *
 * Channel-wise dropout of `[N, C, L]` or `[C, L]` inputs: each channel of
 * each sample is zeroed with probability p, the others scaled by `1 / (1 −
 * p)`, `torch.nn.Dropout1d`; see [class@Gnn.DropoutNd].
 *
 * Since: 0.1
 */
struct _GnnDropout1d
{
  GnnDropoutNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnDropout1d, gnn_dropout1d, GNN_TYPE_DROPOUT_ND)

static void
gnn_dropout1d_class_init (GnnDropout1dClass *klass)
{
  GnnDropoutNdClass *dropout_class = GNN_DROPOUT_ND_CLASS (klass);

  dropout_class->n_spatial = 1;
  dropout_class->feature = TRUE;
  dropout_class->alpha = FALSE;
}

static void
gnn_dropout1d_init (GnnDropout1d *self)
{
}

/**
 * gnn_dropout1d_new:
 * @p: the probability of dropping, in [0, 1] (PyTorch's default is 0.5)
 * @inplace: whether to write the result into the input
 * @generator: (nullable): the generator of the masks, or %NULL for the
 *   library's default one
 * @error: return location for a #GError
 *
 * Creates `torch.nn.Dropout1d(p, inplace)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   ("dropout probability has to be between 0 and 1, but got 1.5")
 *
 * Since: 0.1
 */
GnnDropout1d *
gnn_dropout1d_new (double        p,
                   gboolean      inplace,
                   GnnGenerator *generator,
                   GError      **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_dropout_nd_new (GNN_TYPE_DROPOUT1D, p, inplace, generator, error);
}
