/* gnn-residual-private.c: what ResNet's blocks share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vision/gnn-residual-private.h"
#include "vision/gnn-vision-model-private.h"

gboolean
gnn_residual_add_conv_bn (GnnModule   *parent,
                          const char  *conv_name,
                          const char  *bn_name,
                          gint64       in,
                          gint64       out,
                          gint64       kernel,
                          gint64       stride,
                          GError     **error)
{
  g_autoptr(GnnConv2d) conv = gnn_conv2d_new (in, out, kernel, stride, kernel / 2, FALSE, error);
  g_autoptr(GnnBatchNorm2d) bn = conv != NULL ?
    gnn_batch_norm2d_new (out, 1e-5, 0.1, TRUE, TRUE, error) : NULL;

  return bn != NULL &&
         gnn_module_register_module (parent, conv_name, GNN_MODULE (conv), error) &&
         gnn_module_register_module (parent, bn_name, GNN_MODULE (bn), error);
}

gboolean
gnn_residual_add_downsample (GnnModule   *parent,
                             gint64       in,
                             gint64       out,
                             gint64       stride,
                             GError     **error)
{
  g_autoptr(GnnSequential) downsample = gnn_sequential_new (NULL, 0);

  return gnn_residual_add_conv_bn (GNN_MODULE (downsample), "0", "1", in, out, 1, stride, error) &&
         gnn_module_register_module (parent, "downsample", GNN_MODULE (downsample), error);
}

GnnTensor *
gnn_residual_call_child (GnnModule   *self,
                         const char  *owner,
                         const char  *name,
                         GnnTensor   *input,
                         GError     **error)
{
  GObject *child = gnn_module_get_child (self, name, error);

  if (child == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s: child '%s' is empty", owner, name);
      return NULL;
    }
  if (!GNN_IS_MODULE (child))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "%s: child '%s' is not a module", owner, name);
      return NULL;
    }
  return gnn_module_call (GNN_MODULE (child), input, error);
}

GnnTensor *
gnn_residual_forward (GnnModule          *self,
                      const char         *owner,
                      const char * const *path,
                      guint               n_path,
                      GnnTensor          *input,
                      GError            **error)
{
  g_autoptr(GnnTensor) out = gnn_vision_model_run (self, owner, path, n_path, input, error);
  g_autoptr(GnnTensor) identity = NULL;

  if (out == NULL)
    return NULL;
  identity = gnn_module_has_child (self, "downsample") &&
             gnn_module_get_child (self, "downsample", NULL) != NULL ?
             gnn_residual_call_child (self, owner, "downsample", input, error) :
             g_object_ref (input);
  if (identity == NULL)
    return NULL;
  /* torchvision's `out += identity`: in place, into the last batch norm's
   * output (its backward does not read it), no new activation-sized tensor */
  if (!gnn_tensor_add_ (out, identity, error))
    return NULL;
  return gnn_residual_call_child (self, owner, "relu", out, error);
}
