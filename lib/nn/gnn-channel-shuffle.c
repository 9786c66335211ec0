/* gnn-channel-shuffle.c: torch.nn.ChannelShuffle
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-activation-module-private.h"
#include "nn/gnn-nn-private.h"

/**
 * GnnChannelShuffle:
 *
 * `torch.nn.ChannelShuffle(groups)`: [method@Gnn.Tensor.channel_shuffle].
 *
 * Since: 0.1
 */
struct _GnnChannelShuffle
{
  GnnActivationBase base;   /* groups */
};

G_DEFINE_FINAL_TYPE (GnnChannelShuffle, gnn_channel_shuffle, GNN_TYPE_MODULE)

static GnnTensor *
gnn_channel_shuffle_forward (GnnModule  *module,
                             GnnTensor  *input,
                             GError    **error)
{
  return gnn_tensor_channel_shuffle (input, (gint64) GNN_ACTIVATION_BASE (module)->values[0], error);
}

static char *
gnn_channel_shuffle_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("groups=%" G_GINT64_FORMAT, (gint64) GNN_ACTIVATION_BASE (module)->values[0]);
}

static void
gnn_channel_shuffle_class_init (GnnChannelShuffleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gnn_activation_class_setup (object_class, gnn_channel_shuffle_forward, gnn_channel_shuffle_extra_repr);
  /**
   * GnnChannelShuffle:groups:
   *
   * The number of groups the channels are divided in (`groups`); forward
   * refuses one that does not divide them, with torch's message.
   *
   * Since: 0.1
   */
  gnn_nn_class_add_int (object_class, 1, "groups", -G_MAXINT32, G_MAXINT32, 1);
}

static void
gnn_channel_shuffle_init (GnnChannelShuffle *self)
{
}
