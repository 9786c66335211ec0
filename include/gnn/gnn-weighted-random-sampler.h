/* gnn-weighted-random-sampler.h: draws indices with given weights
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

#define GNN_TYPE_WEIGHTED_RANDOM_SAMPLER (gnn_weighted_random_sampler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnWeightedRandomSampler, gnn_weighted_random_sampler, GNN, WEIGHTED_RANDOM_SAMPLER, GnnSampler)

GNN_AVAILABLE_IN_ALL
GnnWeightedRandomSampler *gnn_weighted_random_sampler_new (const double  *weights,
                                                           gsize          n_weights,
                                                           gint64         num_samples,
                                                           gboolean       replacement,
                                                           GnnGenerator  *generator,
                                                           GError       **error);

G_END_DECLS
