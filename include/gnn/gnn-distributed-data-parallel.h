/* gnn-distributed-data-parallel.h: data-parallel training over a process
 * group (torch.nn.parallel.DistributedDataParallel)
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
#include <gnn/gnn-process-group.h>
#include <gnn/gnn-state-dict.h>

G_BEGIN_DECLS

#define GNN_TYPE_DISTRIBUTED_DATA_PARALLEL (gnn_distributed_data_parallel_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDistributedDataParallel, gnn_distributed_data_parallel,
                      GNN, DISTRIBUTED_DATA_PARALLEL, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDistributedDataParallel *gnn_distributed_data_parallel_new (GnnModule        *module,
                                                               GnnProcessGroup  *group,
                                                               GError          **error);
GNN_AVAILABLE_IN_ALL
GnnModule       *gnn_distributed_data_parallel_get_module (GnnDistributedDataParallel *self);
GNN_AVAILABLE_IN_ALL
GnnProcessGroup *gnn_distributed_data_parallel_get_process_group (GnnDistributedDataParallel *self);
GNN_AVAILABLE_IN_ALL
void             gnn_distributed_data_parallel_set_require_backward_grad_sync (GnnDistributedDataParallel *self,
                                                                                gboolean                    sync);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_distributed_data_parallel_get_require_backward_grad_sync (GnnDistributedDataParallel *self);
GNN_AVAILABLE_IN_ALL
guint            gnn_distributed_data_parallel_get_n_buckets (GnnDistributedDataParallel *self);

GNN_AVAILABLE_IN_ALL
guint            gnn_state_dict_consume_prefix (GnnStateDict *self,
                                                const char   *prefix);

G_END_DECLS
