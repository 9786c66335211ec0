/* gnn-functional.h: functional losses (torch.nn.functional)
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

/**
 * GnnReduction:
 * @GNN_REDUCTION_NONE: one loss per element (`reduction='none'`)
 * @GNN_REDUCTION_MEAN: the (weighted) mean (`reduction='mean'`, the default)
 * @GNN_REDUCTION_SUM: the sum (`reduction='sum'`)
 * @GNN_REDUCTION_BATCHMEAN: the sum divided by the size of the first
 *   dimension (`reduction='batchmean'`), for [func@Gnn.kl_div] only; the
 *   other losses refuse it as PyTorch does
 *
 * How a loss function reduces its per-element losses.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_REDUCTION_NONE,
  GNN_REDUCTION_MEAN,
  GNN_REDUCTION_SUM,
  GNN_REDUCTION_BATCHMEAN,
} GnnReduction;

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_cross_entropy                   (GnnTensor    *input,
                                                GnnTensor    *target,
                                                GnnTensor    *weight,
                                                gint64        ignore_index,
                                                GnnReduction  reduction,
                                                double        label_smoothing,
                                                GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_nll_loss                        (GnnTensor    *input,
                                                GnnTensor    *target,
                                                GnnTensor    *weight,
                                                gint64        ignore_index,
                                                GnnReduction  reduction,
                                                GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_mse_loss                        (GnnTensor    *input,
                                                GnnTensor    *target,
                                                GnnReduction  reduction,
                                                GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_binary_cross_entropy_with_logits (GnnTensor   *input,
                                                GnnTensor    *target,
                                                GnnTensor    *weight,
                                                GnnTensor    *pos_weight,
                                                GnnReduction  reduction,
                                                GError      **error);

G_END_DECLS
