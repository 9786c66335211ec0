/* gnn-distributed-sampler.h: one replica's shard of a dataset
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-sampler.h>
#include <gnn/gnn-dataset.h>

G_BEGIN_DECLS

#define GNN_TYPE_DISTRIBUTED_SAMPLER (gnn_distributed_sampler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDistributedSampler, gnn_distributed_sampler, GNN, DISTRIBUTED_SAMPLER, GnnSampler)

GNN_AVAILABLE_IN_ALL
GnnDistributedSampler *gnn_distributed_sampler_new       (GnnDataset            *dataset,
                                                          gint64                 num_replicas,
                                                          gint64                 rank,
                                                          gboolean               shuffle,
                                                          guint64                seed,
                                                          gboolean               drop_last,
                                                          GError               **error);
GNN_AVAILABLE_IN_ALL
void                   gnn_distributed_sampler_set_epoch (GnnDistributedSampler *self,
                                                          gint64                 epoch);
GNN_AVAILABLE_IN_ALL
gint64                 gnn_distributed_sampler_get_total_size (GnnDistributedSampler *self);

G_END_DECLS
