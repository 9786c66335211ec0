/* gnn-train-distributed.h: gnn-train --distributed (DDP over mpirun)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

/* Joins the default process group; silences stdout on ranks other than 0. */
gboolean   gnn_train_distributed_init       (GError       **error);
/* TRUE on rank 0, or when not distributed: the rank that evaluates and saves. */
gboolean   gnn_train_is_main_rank           (void);
/* @model wrapped in DistributedDataParallel (or @model itself when not distributed). */
GnnModule *gnn_train_distributed_wrap       (GnnModule     *model,
                                             GError       **error);
/* This rank's DistributedSampler over @dataset, or NULL when not distributed. */
GnnSampler *gnn_train_distributed_sampler   (GnnDataset    *dataset,
                                             guint64        seed,
                                             GError       **error);
/* The data order of @epoch (the sampler's set_epoch), when distributed. */
void       gnn_train_distributed_set_epoch  (GnnDataLoader *loader,
                                             gint64         epoch);
