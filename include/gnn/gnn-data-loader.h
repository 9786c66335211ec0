/* gnn-data-loader.h: batches from a dataset, optionally with worker threads
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
#include <gnn/gnn-sampler.h>
#include <gnn/gnn-batch-sampler.h>
#include <gnn/gnn-collate.h>
#include <gnn/gnn-worker-mode.h>
#include <gnn/gnn-data-loader-iter.h>

G_BEGIN_DECLS

#define GNN_TYPE_DATA_LOADER (gnn_data_loader_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDataLoader, gnn_data_loader, GNN, DATA_LOADER, GObject)

GNN_AVAILABLE_IN_ALL
GnnDataLoader     *gnn_data_loader_new        (GnnDataset     *dataset,
                                               gint64          batch_size,
                                               gboolean        shuffle);
GNN_AVAILABLE_IN_ALL
gboolean           gnn_data_loader_validate   (GnnDataLoader  *self,
                                               GError        **error);
GNN_AVAILABLE_IN_ALL
gint64             gnn_data_loader_get_length (GnnDataLoader  *self);
GNN_AVAILABLE_IN_ALL
GnnDataLoaderIter *gnn_data_loader_iter       (GnnDataLoader  *self,
                                               GError        **error);
GNN_AVAILABLE_IN_ALL
GnnDataLoaderIter *gnn_data_loader_iter_new_from_state (GnnDataLoader  *loader,
                                                        GVariant       *state,
                                                        GError        **error);
GNN_AVAILABLE_IN_ALL
GVariant          *gnn_data_loader_get_state  (GnnDataLoader  *self);
GNN_AVAILABLE_IN_ALL
gboolean           gnn_data_loader_load_state (GnnDataLoader  *self,
                                               GVariant       *state,
                                               GError        **error);

G_END_DECLS
