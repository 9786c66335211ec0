/* gnn-multiplicative-lr.h: learning rate multiplied by a function of the epoch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lambda-lr.h>

G_BEGIN_DECLS

#define GNN_TYPE_MULTIPLICATIVE_LR (gnn_multiplicative_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiplicativeLR, gnn_multiplicative_lr, GNN, MULTIPLICATIVE_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnMultiplicativeLR *gnn_multiplicative_lr_new (GnnOptimizer     *optimizer,
                                                GnnLRLambdaFunc   lr_lambda,
                                                gpointer          user_data,
                                                GDestroyNotify    destroy,
                                                gint64            last_epoch,
                                                GError          **error);

G_END_DECLS
