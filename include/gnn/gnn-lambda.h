/* gnn-lambda.h: a transform made of a function (torchvision.transforms.Lambda)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-transform.h>

G_BEGIN_DECLS

/**
 * GnnTransformFunc:
 * @input: the image, tensor image or label to transform
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * The function of a [class@Gnn.Lambda].
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
typedef GnnTensor *(*GnnTransformFunc) (GnnTensor  *input,
                                        gpointer    user_data,
                                        GError    **error);

#define GNN_TYPE_LAMBDA (gnn_lambda_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnLambda, gnn_lambda, GNN, LAMBDA, GnnTransform)

/**
 * GnnLambdaClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Lambda]; a subclass implements the transform's
 * `apply` (Python `do_apply`, GJS `vfunc_apply`).
 *
 * Since: 0.1
 */
struct _GnnLambdaClass
{
  GnnTransformClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnLambda *gnn_lambda_new (GnnTransformFunc func,
                           gpointer         user_data,
                           GDestroyNotify   destroy);

G_END_DECLS
