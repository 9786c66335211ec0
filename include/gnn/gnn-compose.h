/* gnn-compose.h: transforms applied one after the other (torchvision.transforms.Compose)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-transform.h>
#include <gnn/gnn-vision-functional.h>

G_BEGIN_DECLS

#define GNN_TYPE_COMPOSE (gnn_compose_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCompose, gnn_compose, GNN, COMPOSE, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnCompose *gnn_compose_new (GnnTransform **transforms,
                             guint          n_transforms);
GNN_AVAILABLE_IN_ALL
GListModel *gnn_compose_get_transforms (GnnCompose *self);

G_END_DECLS
