/* gnn-functional-vector.h: torch.nn.functional's functions of vectors —
 * normalize, cosine_similarity, pairwise_distance — and one_hot
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_normalize         (GnnTensor  *input,
                                  double      p,
                                  gint        dim,
                                  double      eps,
                                  GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_cosine_similarity (GnnTensor  *x1,
                                  GnnTensor  *x2,
                                  gint        dim,
                                  double      eps,
                                  GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_pairwise_distance (GnnTensor  *x1,
                                  GnnTensor  *x2,
                                  double      p,
                                  double      eps,
                                  gboolean    keepdim,
                                  GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_one_hot           (GnnTensor  *tensor,
                                  gint64      num_classes,
                                  GError    **error);

G_END_DECLS
