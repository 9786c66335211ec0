/* gnn-trainer.h: one epoch of forward, loss, backward and step, with
 * progress and cancellation, synchronous or on a GTask
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-module.h>
#include <gnn/gnn-optimizer.h>
#include <gnn/gnn-data-loader.h>

G_BEGIN_DECLS

#define GNN_TYPE_TRAINER (gnn_trainer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTrainer, gnn_trainer, GNN, TRAINER, GObject)

GNN_AVAILABLE_IN_ALL
GnnTrainer    *gnn_trainer_new                (GnnModule            *model,
                                               GnnModule            *loss,
                                               GnnOptimizer         *optimizer,
                                               GnnDataLoader        *loader);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_trainer_get_model          (GnnTrainer           *self);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_trainer_get_loss           (GnnTrainer           *self);
GNN_AVAILABLE_IN_ALL
GnnOptimizer  *gnn_trainer_get_optimizer      (GnnTrainer           *self);
GNN_AVAILABLE_IN_ALL
GnnDataLoader *gnn_trainer_get_loader         (GnnTrainer           *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_trainer_train_epoch        (GnnTrainer           *self,
                                               GCancellable         *cancellable,
                                               double               *mean_loss,
                                               GError              **error);
GNN_AVAILABLE_IN_ALL
void           gnn_trainer_train_epoch_async  (GnnTrainer           *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_trainer_train_epoch_finish (GnnTrainer           *self,
                                               GAsyncResult         *result,
                                               double               *mean_loss,
                                               GError              **error);

G_END_DECLS
