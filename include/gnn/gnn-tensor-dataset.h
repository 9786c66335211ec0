/* gnn-tensor-dataset.h: a dataset over tensors sharing their first dimension
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
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

#define GNN_TYPE_TENSOR_DATASET (gnn_tensor_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTensorDataset, gnn_tensor_dataset, GNN, TENSOR_DATASET, GnnDataset)

GNN_AVAILABLE_IN_ALL
GnnTensorDataset *gnn_tensor_dataset_new         (GnnTensor        **tensors,
                                                  guint              n_tensors,
                                                  GError           **error);
GNN_AVAILABLE_IN_ALL
GPtrArray        *gnn_tensor_dataset_get_tensors (GnnTensorDataset  *self);

G_END_DECLS
