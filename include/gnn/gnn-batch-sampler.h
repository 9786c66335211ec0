/* gnn-batch-sampler.h: groups a sampler's indices into batches
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-sampler.h>

G_BEGIN_DECLS

#define GNN_TYPE_BATCH_SAMPLER (gnn_batch_sampler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBatchSampler, gnn_batch_sampler, GNN, BATCH_SAMPLER, GObject)

GNN_AVAILABLE_IN_ALL
GnnBatchSampler *gnn_batch_sampler_new            (GnnSampler       *sampler,
                                                   gint64            batch_size,
                                                   gboolean          drop_last,
                                                   GError          **error);
GNN_AVAILABLE_IN_ALL
gint64           gnn_batch_sampler_get_length     (GnnBatchSampler  *self);
GNN_AVAILABLE_IN_ALL
gint64           gnn_batch_sampler_get_batch_size (GnnBatchSampler  *self);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_batch_sampler_get_drop_last  (GnnBatchSampler  *self);
GNN_AVAILABLE_IN_ALL
GnnSampler      *gnn_batch_sampler_get_sampler    (GnnBatchSampler  *self);
GNN_AVAILABLE_IN_ALL
gint64          *gnn_batch_sampler_sample         (GnnBatchSampler  *self,
                                                   gsize            *n_indices,
                                                   gsize            *n_batches,
                                                   GError          **error);

G_END_DECLS
