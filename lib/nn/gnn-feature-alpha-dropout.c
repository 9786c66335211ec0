/* gnn-feature-alpha-dropout.c: channel-wise alpha dropout (torch.nn.FeatureAlphaDropout)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-dropout-nd-private.h"

/**
 * GnnFeatureAlphaDropout:
 *
 * Channel-wise alpha dropout: whole channels are set to SELU's negative
 * saturation with probability p, then the whole is mapped so that its mean
 * and variance stay, `torch.nn.FeatureAlphaDropout`; see
 * [class@Gnn.DropoutNd].
 *
 * Since: 0.1
 */
struct _GnnFeatureAlphaDropout
{
  GnnDropoutNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnFeatureAlphaDropout, gnn_feature_alpha_dropout, GNN_TYPE_DROPOUT_ND)

static void
gnn_feature_alpha_dropout_class_init (GnnFeatureAlphaDropoutClass *klass)
{
  GnnDropoutNdClass *dropout_class = GNN_DROPOUT_ND_CLASS (klass);

  dropout_class->n_spatial = 0;
  dropout_class->feature = TRUE;
  dropout_class->alpha = TRUE;
}

static void
gnn_feature_alpha_dropout_init (GnnFeatureAlphaDropout *self)
{
}

/**
 * gnn_feature_alpha_dropout_new:
 * @p: the probability of dropping, in [0, 1] (PyTorch's default is 0.5)
 * @inplace: whether to write the result into the input
 * @generator: (nullable): the generator of the masks, or %NULL for the
 *   library's default one
 * @error: return location for a #GError
 *
 * Creates `torch.nn.FeatureAlphaDropout(p, inplace)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   ("dropout probability has to be between 0 and 1, but got 1.5")
 *
 * Since: 0.1
 */
GnnFeatureAlphaDropout *
gnn_feature_alpha_dropout_new (double        p,
                               gboolean      inplace,
                               GnnGenerator *generator,
                               GError      **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_dropout_nd_new (GNN_TYPE_FEATURE_ALPHA_DROPOUT, p, inplace, generator, error);
}
