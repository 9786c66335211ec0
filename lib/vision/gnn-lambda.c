/* gnn-lambda.c: a transform made of a function
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-vision-private.h"

/**
 * GnnLambda:
 *
 * torchvision's `transforms.Lambda(lambd)`: a transform that calls a
 * function — a C callback ([ctor@Gnn.Lambda.new]), or the `apply` of a
 * subclass written in Python (`do_apply`) or JavaScript (`vfunc_apply`).
 * The Python package's `transforms.Lambda(f)` is such a subclass; a
 * dataset's `target_transform` given as a function becomes one too.
 *
 * A function is not a property: a lambda made in C does not travel to a
 * spawned loader worker (the Python binding pickles its function, which
 * must then be importable, as torch's spawn requires).
 *
 * Since: 0.1
 */
typedef struct
{
  GnnTransformFunc func;
  gpointer         user_data;
  GDestroyNotify   destroy;
} GnnLambdaPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (GnnLambda, gnn_lambda, GNN_TYPE_TRANSFORM)

static GnnTensor *
gnn_lambda_apply (GnnTransform  *transform,
                  GnnTensor     *input,
                  GError       **error)
{
  GnnLambdaPrivate *priv = gnn_lambda_get_instance_private (GNN_LAMBDA (transform));

  if (priv->func == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s has no function: build it with gnn_lambda_new(), or implement apply "
                   "in a subclass", G_OBJECT_TYPE_NAME (transform));
      return NULL;
    }
  return priv->func (input, priv->user_data, error);
}

static void
gnn_lambda_finalize (GObject *object)
{
  GnnLambdaPrivate *priv = gnn_lambda_get_instance_private (GNN_LAMBDA (object));

  if (priv->destroy != NULL)
    priv->destroy (priv->user_data);
  G_OBJECT_CLASS (gnn_lambda_parent_class)->finalize (object);
}

static void
gnn_lambda_class_init (GnnLambdaClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_lambda_finalize;
  GNN_TRANSFORM_CLASS (klass)->apply = gnn_lambda_apply;
}

static void
gnn_lambda_init (GnnLambda *self)
{
}

/**
 * gnn_lambda_new:
 * @func: (scope notified) (closure user_data): the function
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data with the transform
 *
 * Creates a transform that calls @func, like `transforms.Lambda(lambd)`.
 * @func may run in several loader worker threads at once.
 *
 * Returns: (transfer full): the transform
 *
 * Since: 0.1
 */
GnnLambda *
gnn_lambda_new (GnnTransformFunc func,
                gpointer         user_data,
                GDestroyNotify   destroy)
{
  GnnLambda *self;
  GnnLambdaPrivate *priv;

  g_return_val_if_fail (func != NULL, NULL);
  self = g_object_new (GNN_TYPE_LAMBDA, NULL);
  priv = gnn_lambda_get_instance_private (self);
  priv->func = func;
  priv->user_data = user_data;
  priv->destroy = destroy;
  return self;
}
