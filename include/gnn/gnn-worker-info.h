/* gnn-worker-info.h: what a data loader worker knows about itself
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-dataset.h>
#include <gnn/gnn-generator.h>

G_BEGIN_DECLS

#define GNN_TYPE_WORKER_INFO (gnn_worker_info_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnWorkerInfo, gnn_worker_info, GNN, WORKER_INFO, GObject)

GNN_AVAILABLE_IN_ALL
guint          gnn_worker_info_get_id          (GnnWorkerInfo *self);
GNN_AVAILABLE_IN_ALL
guint          gnn_worker_info_get_num_workers (GnnWorkerInfo *self);
GNN_AVAILABLE_IN_ALL
guint64        gnn_worker_info_get_seed        (GnnWorkerInfo *self);
GNN_AVAILABLE_IN_ALL
GnnDataset    *gnn_worker_info_get_dataset     (GnnWorkerInfo *self);
GNN_AVAILABLE_IN_ALL
GnnGenerator  *gnn_worker_info_get_generator   (GnnWorkerInfo *self);

GNN_AVAILABLE_IN_ALL
GnnWorkerInfo *gnn_get_worker_info             (void);
GNN_AVAILABLE_IN_ALL
GnnGenerator  *gnn_get_sample_generator        (void);

G_END_DECLS
