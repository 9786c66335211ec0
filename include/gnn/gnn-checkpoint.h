/* gnn-checkpoint.h: a training checkpoint — model, optimizer, LR scheduler
 * and epoch in one file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-io.h>
#include <gnn/gnn-module.h>
#include <gnn/gnn-optimizer.h>
#include <gnn/gnn-lr-scheduler.h>

G_BEGIN_DECLS

#define GNN_TYPE_CHECKPOINT (gnn_checkpoint_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCheckpoint, gnn_checkpoint, GNN, CHECKPOINT, GObject)

GNN_AVAILABLE_IN_ALL
GnnCheckpoint  *gnn_checkpoint_new           (GnnModule       *model,
                                              GnnOptimizer    *optimizer,
                                              GnnLRScheduler  *scheduler,
                                              gint64           epoch);
GNN_AVAILABLE_IN_ALL
GnnModule      *gnn_checkpoint_get_model     (GnnCheckpoint   *self);
GNN_AVAILABLE_IN_ALL
GnnOptimizer   *gnn_checkpoint_get_optimizer (GnnCheckpoint   *self);
GNN_AVAILABLE_IN_ALL
GnnLRScheduler *gnn_checkpoint_get_scheduler (GnnCheckpoint   *self);
GNN_AVAILABLE_IN_ALL
gint64          gnn_checkpoint_get_epoch     (GnnCheckpoint   *self);
GNN_AVAILABLE_IN_ALL
gboolean        gnn_checkpoint_save          (GnnCheckpoint   *self,
                                              const char      *path,
                                              GHashTable      *metadata,
                                              GError         **error);
GNN_AVAILABLE_IN_ALL
GnnCheckpoint  *gnn_checkpoint_load          (const char      *path,
                                              GnnLoadFlags     flags,
                                              GError         **error);

GNN_AVAILABLE_IN_ALL
GnnCheckpoint  *gnn_checkpoint_new_from_state_dict (GnnStateDict *state_dict,
                                                    GnnLoadFlags  flags,
                                                    GError      **error);

G_END_DECLS
