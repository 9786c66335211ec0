/* gnn-subset.h: a dataset restricted to some indices, and random_split
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
#include <gnn/gnn-generator.h>

G_BEGIN_DECLS

#define GNN_TYPE_SUBSET (gnn_subset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSubset, gnn_subset, GNN, SUBSET, GnnDataset)

GNN_AVAILABLE_IN_ALL
GnnSubset    *gnn_subset_new                (GnnDataset    *dataset,
                                             const gint64  *indices,
                                             gsize          n_indices,
                                             GError       **error);
GNN_AVAILABLE_IN_ALL
GnnDataset   *gnn_subset_get_dataset        (GnnSubset     *self);
GNN_AVAILABLE_IN_ALL
const gint64 *gnn_subset_get_indices        (GnnSubset     *self,
                                             gsize         *n_indices);

GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_random_split              (GnnDataset    *dataset,
                                             const gint64  *lengths,
                                             gsize          n_lengths,
                                             GnnGenerator  *generator,
                                             GError       **error);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_random_split_fractions    (GnnDataset    *dataset,
                                             const double  *fractions,
                                             gsize          n_fractions,
                                             GnnGenerator  *generator,
                                             GError       **error);

G_END_DECLS
