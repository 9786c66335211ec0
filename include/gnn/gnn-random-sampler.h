/* gnn-random-sampler.h: random permutations or draws with replacement
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
#include <gnn/gnn-generator.h>

G_BEGIN_DECLS

#define GNN_TYPE_RANDOM_SAMPLER (gnn_random_sampler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomSampler, gnn_random_sampler, GNN, RANDOM_SAMPLER, GnnSampler)

GNN_AVAILABLE_IN_ALL
GnnRandomSampler *gnn_random_sampler_new (GnnDataset    *data_source,
                                          gboolean       replacement,
                                          gint64         num_samples,
                                          GnnGenerator  *generator,
                                          GError       **error);

G_END_DECLS
