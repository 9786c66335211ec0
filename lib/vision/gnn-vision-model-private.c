/* gnn-vision-model-private.c: what torchvision's classification networks
 * share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-residual-private.h"
#include "vision/gnn-vision-model-private.h"

gboolean
gnn_vision_model_add (GnnModule   *parent,
                      const char  *name,
                      gpointer     child,
                      GError     **error)
{
  g_autoptr(GnnModule) owned = child;

  return owned != NULL && gnn_module_register_module (parent, name, owned, error);
}

gboolean
gnn_vision_model_append (GnnModule   *seq,
                         gpointer     child,
                         GError     **error)
{
  g_autoptr(GnnModule) owned = child;

  return owned != NULL && gnn_sequential_append (GNN_SEQUENTIAL (seq), owned, error);
}

GnnModule *
gnn_vision_model_conv (gint64       in,
                       gint64       out,
                       gint64       kernel,
                       gint64       stride,
                       gint64       padding,
                       gint64       groups,
                       gboolean     bias,
                       GError     **error)
{
  return GNN_MODULE (gnn_conv2d_new_full (in, out, kernel, kernel, stride, stride, padding,
                                          padding, 1, 1, groups, bias, NULL, error));
}

GnnModule *
gnn_vision_model_bn (gint64       features,
                     GError     **error)
{
  return GNN_MODULE (gnn_batch_norm2d_new (features, 1e-5, 0.1, TRUE, TRUE, error));
}

GnnTensor *
gnn_vision_model_run (GnnModule          *self,
                      const char         *owner,
                      const char * const *path,
                      guint               n_path,
                      GnnTensor          *input,
                      GError            **error)
{
  g_autoptr(GnnTensor) out = g_object_ref (input);

  if (!gnn_nn_check_constructed (self, error))
    return NULL;
  for (guint i = 0; i < n_path; i++)
    {
      GnnTensor *t;

      if (g_str_equal (path[i], "flatten"))
        t = gnn_tensor_flatten (out, 1, -1, error);
      else if (g_str_equal (path[i], "F.relu"))
        t = gnn_tensor_relu (out, error);
      else if (g_str_equal (path[i], "F.avgpool1"))
        t = gnn_tensor_adaptive_avg_pool2d (out, 1, 1, error);
      else
        t = gnn_residual_call_child (self, owner, path[i], out, error);
      if (t == NULL)
        return NULL;
      g_object_unref (out);
      out = t;
    }
  return g_steal_pointer (&out);
}

static gboolean
fill_param (GnnModule   *m,
            const char  *name,
            double       value,
            GError     **error)
{
  return gnn_module_get_parameter (m, name, NULL) == NULL || gnn_nn_reset_fill (m, name, value, error);
}

static gboolean
init_conv (GnnModule          *m,
           GnnVisionConvInit   how,
           GnnGenerator       *generator,
           GError            **error)
{
  GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL));
  gboolean ok = TRUE;

  switch (how)
    {
    case GNN_VISION_CONV_INIT_DEFAULT:
      return TRUE;
    case GNN_VISION_CONV_INIT_KAIMING_NORMAL_FAN_OUT:
      ok = gnn_init_kaiming_normal_ (w, 0.0, "fan_out", "relu", generator, error);
      break;
    case GNN_VISION_CONV_INIT_KAIMING_NORMAL_FAN_IN:
      ok = gnn_init_kaiming_normal_ (w, 0.0, "fan_in", "leaky_relu", generator, error);
      break;
    case GNN_VISION_CONV_INIT_KAIMING_UNIFORM:
      ok = gnn_init_kaiming_uniform_ (w, 0.0, "fan_in", "leaky_relu", generator, error);
      break;
    default:
      g_assert_not_reached ();
    }
  return ok && fill_param (m, "bias", 0.0, error);
}

gboolean
gnn_vision_model_init (GnnModule          *self,
                       GnnVisionConvInit   conv_init,
                       double              linear_std,
                       GError            **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();   /* writes into parameters */
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) modules = gnn_module_named_modules (self, "", &names);
  GnnGenerator *generator = gnn_nn_default_generator_lock ();
  gboolean ok = TRUE;

  for (guint i = 0; ok && i < modules->len; i++)
    {
      GnnModule *m = g_ptr_array_index (modules, i);

      if (GNN_IS_CONV2D (m))
        ok = init_conv (m, conv_init, generator, error);
      else if (GNN_IS_BATCH_NORM2D (m))
        ok = fill_param (m, "weight", 1.0, error) && fill_param (m, "bias", 0.0, error);
      else if (GNN_IS_LINEAR (m))
        ok = (linear_std == 0.0 ||
              gnn_init_normal_ (GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL)),
                                0.0, linear_std, generator, error)) &&
             fill_param (m, "bias", 0.0, error);
    }
  gnn_nn_default_generator_unlock ();
  return ok;
}

gboolean
gnn_vision_model_check_classes (gint64       num_classes,
                                GError     **error)
{
  if (num_classes >= 1)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "num_classes must be positive, got %" G_GINT64_FORMAT, num_classes);
  return FALSE;
}

void
gnn_vision_model_construct_failed (GObject     *object,
                                   const char  *owner,
                                   GError      *error)
{
  g_prefix_error (&error, "%s: ", owner);
  gnn_nn_set_construct_error (object, error);
}
