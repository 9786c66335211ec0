/* gnn-idx-dataset.h: datasets read from IDX files (MNIST, Fashion-MNIST)
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

#define GNN_TYPE_IDX_DATASET (gnn_idx_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnIdxDataset, gnn_idx_dataset, GNN, IDX_DATASET, GnnDataset)

GNN_AVAILABLE_IN_ALL
GnnIdxDataset *gnn_idx_dataset_new        (const char     *images_path,
                                           const char     *labels_path,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_idx_dataset_get_images (GnnIdxDataset  *self);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_idx_dataset_get_labels (GnnIdxDataset  *self);

G_END_DECLS
