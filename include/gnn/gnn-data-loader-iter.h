/* gnn-data-loader-iter.h: one pass of a data loader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-batch.h>

G_BEGIN_DECLS

#define GNN_TYPE_DATA_LOADER_ITER (gnn_data_loader_iter_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDataLoaderIter, gnn_data_loader_iter, GNN, DATA_LOADER_ITER, GObject)

GNN_AVAILABLE_IN_ALL
gboolean gnn_data_loader_iter_next          (GnnDataLoaderIter  *self,
                                             GPtrArray         **batch,
                                             GError            **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_data_loader_iter_next_timeout  (GnnDataLoaderIter  *self,
                                             gint64              timeout_usec,
                                             gboolean           *timed_out,
                                             GPtrArray         **batch,
                                             GError            **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_data_loader_iter_next_batch    (GnnDataLoaderIter  *self,
                                             GnnBatch          **batch,
                                             GError            **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_data_loader_iter_next_batch_timeout (GnnDataLoaderIter  *self,
                                                  gint64              timeout_usec,
                                                  gboolean           *timed_out,
                                                  GnnBatch          **batch,
                                                  GError            **error);
GNN_AVAILABLE_IN_ALL
void     gnn_data_loader_iter_next_async    (GnnDataLoaderIter   *self,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
GNN_AVAILABLE_IN_ALL
gboolean gnn_data_loader_iter_next_finish   (GnnDataLoaderIter   *self,
                                             GAsyncResult        *result,
                                             GPtrArray          **batch,
                                             GError             **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_data_loader_iter_next_batch_finish (GnnDataLoaderIter   *self,
                                                 GAsyncResult        *result,
                                                 GnnBatch           **batch,
                                                 GError             **error);
GNN_AVAILABLE_IN_ALL
gint64   gnn_data_loader_iter_get_length    (GnnDataLoaderIter  *self);
GNN_AVAILABLE_IN_ALL
GVariant *gnn_data_loader_iter_get_state    (GnnDataLoaderIter  *self);

G_END_DECLS
