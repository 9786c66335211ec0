/* gnn-sequential-sampler.h: indices 0, 1, 2, …
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
#include <gnn/gnn-dataset.h>

G_BEGIN_DECLS

#define GNN_TYPE_SEQUENTIAL_SAMPLER (gnn_sequential_sampler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSequentialSampler, gnn_sequential_sampler, GNN, SEQUENTIAL_SAMPLER, GnnSampler)

GNN_AVAILABLE_IN_ALL
GnnSequentialSampler *gnn_sequential_sampler_new (GnnDataset *data_source);

G_END_DECLS
