/* gnn-mixin.h: module mixins (GInterfaces with a per-instance init)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

/**
 * GnnMixinInitFunc:
 * @module: the module being created; its registry already exists
 * @user_data: the data given to [func@Gnn.mixin_register]
 *
 * Initializes the part of @module that a mixin interface contributes
 * (typically registering its children). Gnn calls it exactly once per
 * instance, from [class@Gnn.Module]'s instance init, after the inits of
 * the mixin's prerequisites.
 */
typedef void (*GnnMixinInitFunc) (GnnModule *module,
                                  gpointer   user_data);

GNN_AVAILABLE_IN_ALL
void gnn_mixin_register (GType            iface_type,
                         GnnMixinInitFunc init,
                         gpointer         user_data,
                         GDestroyNotify   destroy);

G_END_DECLS
