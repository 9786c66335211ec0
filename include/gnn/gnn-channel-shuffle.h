/* gnn-channel-shuffle.h: torch.nn.ChannelShuffle
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_CHANNEL_SHUFFLE (gnn_channel_shuffle_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnChannelShuffle, gnn_channel_shuffle, GNN, CHANNEL_SHUFFLE, GnnModule)

G_END_DECLS
