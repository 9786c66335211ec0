/* gnn-lambda-lr.h: learning rate set by a function of the epoch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

/**
 * GnnLRLambdaFunc:
 * @epoch: the epoch the rate is for
 * @group: the index of the parameter group
 * @factor: (out): return location for the factor
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * PyTorch's `lr_lambda(epoch)` of [class@Gnn.LambdaLR] and
 * [class@Gnn.MultiplicativeLR]: sets @factor, the factor for @epoch, or
 * @error to fail the step. PyTorch's list of functions, one per group, is
 * one function that looks at @group. (The factor is an out argument, not
 * the return value: bindings such as GJS 1.74 pass a callback's returned
 * double as an integer.)
 *
 * Since: 0.1
 */
typedef void (*GnnLRLambdaFunc) (gint64     epoch,
                                 guint      group,
                                 double    *factor,
                                 gpointer   user_data,
                                 GError   **error);

#define GNN_TYPE_LAMBDA_LR (gnn_lambda_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLambdaLR, gnn_lambda_lr, GNN, LAMBDA_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnLambdaLR *gnn_lambda_lr_new (GnnOptimizer     *optimizer,
                                GnnLRLambdaFunc   lr_lambda,
                                gpointer          user_data,
                                GDestroyNotify    destroy,
                                gint64            last_epoch,
                                GError          **error);

G_END_DECLS
