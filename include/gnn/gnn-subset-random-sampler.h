/* gnn-subset-random-sampler.h: random permutations of given indices
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
#include <gnn/gnn-generator.h>

G_BEGIN_DECLS

#define GNN_TYPE_SUBSET_RANDOM_SAMPLER (gnn_subset_random_sampler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSubsetRandomSampler, gnn_subset_random_sampler, GNN, SUBSET_RANDOM_SAMPLER, GnnSampler)

GNN_AVAILABLE_IN_ALL
GnnSubsetRandomSampler *gnn_subset_random_sampler_new (const gint64  *indices,
                                                       gsize          n_indices,
                                                       GnnGenerator  *generator);

G_END_DECLS
