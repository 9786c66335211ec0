/* gnn-process-group.h: collectives over Open MPI (torch.distributed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>
#include <gnn/gnn-dataset.h>
#include <gnn/gnn-distributed-sampler.h>

G_BEGIN_DECLS

/**
 * GnnReduceOp:
 * @GNN_REDUCE_OP_SUM: element-wise sum (`ReduceOp.SUM`)
 * @GNN_REDUCE_OP_AVG: element-wise mean over the ranks (`ReduceOp.AVG`;
 *   floating-point tensors only)
 * @GNN_REDUCE_OP_PRODUCT: element-wise product (`ReduceOp.PRODUCT`)
 * @GNN_REDUCE_OP_MIN: element-wise minimum (`ReduceOp.MIN`)
 * @GNN_REDUCE_OP_MAX: element-wise maximum (`ReduceOp.MAX`)
 *
 * How a reducing collective combines the ranks' tensors, like
 * `torch.distributed.ReduceOp`.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_REDUCE_OP_SUM,
  GNN_REDUCE_OP_AVG,
  GNN_REDUCE_OP_PRODUCT,
  GNN_REDUCE_OP_MIN,
  GNN_REDUCE_OP_MAX,
} GnnReduceOp;

#define GNN_TYPE_WORK (gnn_work_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnWork, gnn_work, GNN, WORK, GObject)

GNN_AVAILABLE_IN_ALL
gboolean   gnn_work_is_completed (GnnWork  *self);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_work_wait         (GnnWork  *self,
                                  gint64    timeout_ms,
                                  GError  **error);

#define GNN_TYPE_PROCESS_GROUP (gnn_process_group_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnProcessGroup, gnn_process_group, GNN, PROCESS_GROUP, GObject)

GNN_AVAILABLE_IN_ALL
GnnProcessGroup *gnn_process_group_new            (const char       *backend,
                                                   GError          **error);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_process_group_is_available   (void);
GNN_AVAILABLE_IN_ALL
gint             gnn_process_group_get_rank       (GnnProcessGroup  *self);
GNN_AVAILABLE_IN_ALL
gint             gnn_process_group_get_world_size (GnnProcessGroup  *self);
GNN_AVAILABLE_IN_ALL
const char      *gnn_process_group_get_backend    (GnnProcessGroup  *self);
GNN_AVAILABLE_IN_ALL
gint64           gnn_process_group_get_timeout    (GnnProcessGroup  *self);
GNN_AVAILABLE_IN_ALL
void             gnn_process_group_set_timeout    (GnnProcessGroup  *self,
                                                   gint64            timeout_ms);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_process_group_is_broken      (GnnProcessGroup  *self);

GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_all_reduce     (GnnProcessGroup  *self,
                                                   GnnTensor        *tensor,
                                                   GnnReduceOp       op,
                                                   GError          **error);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_broadcast      (GnnProcessGroup  *self,
                                                   GnnTensor        *tensor,
                                                   gint              src,
                                                   GError          **error);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_all_gather     (GnnProcessGroup  *self,
                                                   GnnTensor       **outputs,
                                                   guint             n_outputs,
                                                   GnnTensor        *input,
                                                   GError          **error);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_reduce_scatter (GnnProcessGroup  *self,
                                                   GnnTensor        *output,
                                                   GnnTensor       **inputs,
                                                   guint             n_inputs,
                                                   GnnReduceOp       op,
                                                   GError          **error);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_barrier        (GnnProcessGroup  *self,
                                                   GError          **error);

/* the default group (torch.distributed's module-level functions) */
GNN_AVAILABLE_IN_ALL
GnnProcessGroup *gnn_init_process_group           (const char       *backend,
                                                   GError          **error);
GNN_AVAILABLE_IN_ALL
GnnProcessGroup *gnn_get_default_process_group    (void);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_distributed_is_initialized   (void);
GNN_AVAILABLE_IN_ALL
void             gnn_destroy_process_group        (void);

/* DistributedSampler with rank and world size from a group */
GNN_AVAILABLE_IN_ALL
GnnDistributedSampler *gnn_distributed_sampler_new_for_group (GnnDataset       *dataset,
                                                              GnnProcessGroup  *group,
                                                              gboolean          shuffle,
                                                              guint64           seed,
                                                              gboolean          drop_last,
                                                              GError          **error);

G_END_DECLS
