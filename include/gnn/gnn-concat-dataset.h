/* gnn-concat-dataset.h: datasets one after another
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

G_BEGIN_DECLS

#define GNN_TYPE_CONCAT_DATASET (gnn_concat_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConcatDataset, gnn_concat_dataset, GNN, CONCAT_DATASET, GnnDataset)

GNN_AVAILABLE_IN_ALL
GnnConcatDataset *gnn_concat_dataset_new          (GnnDataset       **datasets,
                                                   guint              n_datasets,
                                                   GError           **error);
GNN_AVAILABLE_IN_ALL
GPtrArray        *gnn_concat_dataset_get_datasets (GnnConcatDataset *self);
GNN_AVAILABLE_IN_ALL
const gint64     *gnn_concat_dataset_get_cumulative_sizes (GnnConcatDataset *self,
                                                           guint            *n_sizes);

G_END_DECLS
