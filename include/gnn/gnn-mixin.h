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
 *
 * Since: 0.1
 */
typedef void (*GnnMixinInitFunc) (GnnModule *module,
                                  gpointer   user_data);

/**
 * GNN_DEFINE_MIXIN:
 * @TypeName: the interface's name in CamelCase (`MyHasStep`)
 * @type_name: the interface's name in lowercase with underscores
 *   (`my_has_step`)
 * @PREREQUISITE: the prerequisite type: %GNN_TYPE_MODULE, or another mixin
 * @init_func: the per-instance init, a #GnnMixinInitFunc
 *
 * Defines a mixin interface in a source file: the interface struct (with no
 * vfuncs), its `type_name_get_type()`, and a default_init that registers
 * @init_func with [func@Gnn.mixin_register]. Declare the type first with
 * `G_DECLARE_INTERFACE (TypeName, type_name, MY, HAS_STEP, GnnModule)`.
 *
 * |[<!-- language="C" -->
 * G_DECLARE_INTERFACE (MyHasStep, my_has_step, MY, HAS_STEP, GnnModule)
 * GNN_DEFINE_MIXIN (MyHasStep, my_has_step, GNN_TYPE_MODULE, has_step_init)
 * ]|
 *
 * A module type takes the mixin with [func@Gnn.IMPLEMENT_MIXIN] in its
 * `G_DEFINE_TYPE_WITH_CODE`, prerequisites listed first.
 *
 * Since: 0.1
 */
#define GNN_DEFINE_MIXIN(TypeName, type_name, PREREQUISITE, init_func) \
  struct _##TypeName##Interface { GTypeInterface g_iface; }; \
  static void type_name##_default_init (TypeName##Interface *iface); \
  G_DEFINE_INTERFACE (TypeName, type_name, PREREQUISITE) \
  static void \
  type_name##_default_init (TypeName##Interface *iface) \
  { \
    gnn_mixin_register (type_name##_get_type (), (init_func), NULL, NULL); \
  }

/**
 * GNN_IMPLEMENT_MIXIN:
 * @MIXIN_TYPE: the GType of a mixin defined with [func@Gnn.DEFINE_MIXIN]
 *
 * Adds a mixin to a module type, inside `G_DEFINE_TYPE_WITH_CODE`. A mixin
 * has no vfuncs, so there is no interface init to write.
 *
 * Since: 0.1
 */
#define GNN_IMPLEMENT_MIXIN(MIXIN_TYPE) G_IMPLEMENT_INTERFACE (MIXIN_TYPE, NULL)

GNN_AVAILABLE_IN_ALL
void gnn_mixin_register (GType            iface_type,
                         GnnMixinInitFunc init,
                         gpointer         user_data,
                         GDestroyNotify   destroy);

G_END_DECLS
