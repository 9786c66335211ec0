/* gnn-train-distributed.c: gnn-train --distributed
 *
 *   mpirun -np N gnn-train --distributed [options]
 *
 * Each rank trains the same model wrapped in GnnDistributedDataParallel on
 * its share of every epoch (a DistributedSampler: rank r takes positions
 * r, r + N, … of one shuffled order that all ranks agree on through the
 * seed), so --batch-size is per rank and a step sees N × batch-size samples
 * in all. Rank 0 prints, evaluates and writes the checkpoint of the bare
 * model (keys as in a single-process run, so either can resume the other);
 * the other ranks train silently. A run on N ranks with batch b ends with
 * the weights of a one-rank run with batch N × b (float rounding aside).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "gnn-train-distributed.h"

static GnnProcessGroup *group;

gboolean
gnn_train_distributed_init (GError **error)
{
  group = gnn_init_process_group ("mpi", error);
  if (group == NULL)
    return FALSE;
  if (gnn_process_group_get_rank (group) != 0 && freopen ("/dev/null", "w", stdout) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot silence rank %d's output",
                   gnn_process_group_get_rank (group));
      return FALSE;
    }
  printf ("gnn-train: distributed over %d rank%s (Open MPI); rank 0 reports\n",
          gnn_process_group_get_world_size (group),
          gnn_process_group_get_world_size (group) == 1 ? "" : "s");
  return TRUE;
}

gboolean
gnn_train_is_main_rank (void)
{
  return group == NULL || gnn_process_group_get_rank (group) == 0;
}

GnnModule *
gnn_train_distributed_wrap (GnnModule *model,
                            GError   **error)
{
  if (group == NULL)
    return g_object_ref (model);
  return GNN_MODULE (gnn_distributed_data_parallel_new (model, group, error));
}

GnnSampler *
gnn_train_distributed_sampler (GnnDataset *dataset,
                               guint64     seed,
                               GError    **error)
{
  if (group == NULL)
    return NULL;
  return GNN_SAMPLER (gnn_distributed_sampler_new_for_group (dataset, group, TRUE, seed, FALSE, error));
}

void
gnn_train_distributed_set_epoch (GnnDataLoader *loader,
                                 gint64         epoch)
{
  g_autoptr(GnnSampler) sampler = NULL;

  if (group == NULL)
    return;
  g_object_get (loader, "sampler", &sampler, NULL);
  gnn_distributed_sampler_set_epoch (GNN_DISTRIBUTED_SAMPLER (sampler), epoch);
}
