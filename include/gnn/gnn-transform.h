/* gnn-transform.h: the base class of image transforms (torchvision.transforms)
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

#define GNN_TYPE_TRANSFORM (gnn_transform_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnTransform, gnn_transform, GNN, TRANSFORM, GObject)

/**
 * GnnTransformClass:
 * @parent_class: the parent class
 * @apply: transforms an image or a tensor image (see
 *   [method@Gnn.Transform.apply]); in Python `do_apply`, in GJS
 *   `vfunc_apply`
 * @validate: checks the configuration (the properties taken together),
 *   setting @error when it cannot work; called by `g_initable_init()` and
 *   before every apply. %NULL: every configuration works
 *
 * The class of [class@Gnn.Transform].
 *
 * Since: 0.1
 */
struct _GnnTransformClass
{
  GObjectClass parent_class;

  GnnTensor *(*apply)    (GnnTransform  *self,
                          GnnTensor     *input,
                          GError       **error);
  gboolean   (*validate) (GnnTransform  *self,
                          GError       **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_transform_apply (GnnTransform  *self,
                                GnnTensor     *input,
                                GError       **error);

G_END_DECLS
