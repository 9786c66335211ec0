/* gnn-functional-losses.h: the losses of torch.nn.functional beyond
 * gnn-functional.h's — l1, smooth_l1, huber, binary_cross_entropy, kl_div,
 * poisson and gaussian negative log-likelihoods, the margin losses,
 * multilabel_soft_margin, ctc, multi_margin, multilabel_margin,
 * triplet_margin_with_distance
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
#include <gnn/gnn-functional.h>

G_BEGIN_DECLS

/**
 * GnnDistanceFunc:
 * @x1: the first tensor
 * @x2: the second tensor
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * A distance of two tensors (the `distance_function` of
 * [func@Gnn.triplet_margin_with_distance_loss] and
 * [class@Gnn.TripletMarginWithDistanceLoss]), built of differentiable
 * ops so that gradients flow through it.
 *
 * Returns: (transfer full) (nullable): the distances, or %NULL with @error
 *   set
 *
 * Since: 0.1
 */
typedef GnnTensor *(*GnnDistanceFunc) (GnnTensor  *x1,
                                       GnnTensor  *x2,
                                       gpointer    user_data,
                                       GError    **error);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_l1_loss                     (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_smooth_l1_loss              (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnReduction  reduction,
                                            double        beta,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_huber_loss                  (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnReduction  reduction,
                                            double        delta,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_binary_cross_entropy        (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnTensor    *weight,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_kl_div                      (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnReduction  reduction,
                                            gboolean      log_target,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_poisson_nll_loss            (GnnTensor    *input,
                                            GnnTensor    *target,
                                            gboolean      log_input,
                                            gboolean      full,
                                            double        eps,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_gaussian_nll_loss           (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnTensor    *var,
                                            gboolean      full,
                                            double        eps,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_soft_margin_loss            (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_multilabel_soft_margin_loss (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnTensor    *weight,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_hinge_embedding_loss        (GnnTensor    *input,
                                            GnnTensor    *target,
                                            double        margin,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_margin_ranking_loss         (GnnTensor    *input1,
                                            GnnTensor    *input2,
                                            GnnTensor    *target,
                                            double        margin,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_cosine_embedding_loss       (GnnTensor    *input1,
                                            GnnTensor    *input2,
                                            GnnTensor    *target,
                                            double        margin,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_triplet_margin_loss         (GnnTensor    *anchor,
                                            GnnTensor    *positive,
                                            GnnTensor    *negative,
                                            double        margin,
                                            double        p,
                                            double        eps,
                                            gboolean      swap,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_multi_margin_loss           (GnnTensor    *input,
                                            GnnTensor    *target,
                                            gint64        p,
                                            double        margin,
                                            GnnTensor    *weight,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_multilabel_margin_loss      (GnnTensor    *input,
                                            GnnTensor    *target,
                                            GnnReduction  reduction,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_triplet_margin_with_distance_loss (GnnTensor       *anchor,
                                                  GnnTensor       *positive,
                                                  GnnTensor       *negative,
                                                  GnnDistanceFunc  distance_function,
                                                  gpointer         user_data,
                                                  double           margin,
                                                  gboolean         swap,
                                                  GnnReduction     reduction,
                                                  GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_ctc_loss                    (GnnTensor    *log_probs,
                                            GnnTensor    *targets,
                                            GnnTensor    *input_lengths,
                                            GnnTensor    *target_lengths,
                                            gint64        blank,
                                            GnnReduction  reduction,
                                            gboolean      zero_infinity,
                                            GError      **error);

G_END_DECLS
