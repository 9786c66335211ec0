/* gnn-norm-private.c: what the normalization layers with running
 * statistics share (torch's _NormBase: BatchNorm, InstanceNorm)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-norm-private.h"

gboolean
gnn_nn_norm_create_tensors (GnnModule  *module,
                            gint64      c,
                            gboolean    affine,
                            gboolean    track_running_stats,
                            GError    **error)
{
  g_autoptr(GnnTensor) w = NULL, b = NULL, mean = NULL, var = NULL, count = NULL;
  g_autoptr(GnnParameter) wp = NULL, bp = NULL;

  if (affine)
    {
      if ((w = gnn_tensor_ones (&c, 1, GNN_DTYPE_F32, error)) == NULL ||
          (b = gnn_tensor_zeros (&c, 1, GNN_DTYPE_F32, error)) == NULL)
        return FALSE;
      wp = gnn_parameter_new (w, TRUE);
      bp = gnn_parameter_new (b, TRUE);
    }
  if (track_running_stats)
    {
      if ((mean = gnn_tensor_zeros (&c, 1, GNN_DTYPE_F32, error)) == NULL ||
          (var = gnn_tensor_ones (&c, 1, GNN_DTYPE_F32, error)) == NULL)
        return FALSE;
      count = gnn_tensor_new_scalar (0, GNN_DTYPE_I64);
    }
  return gnn_module_register_parameter (module, "weight", wp, error) &&
         gnn_module_register_parameter (module, "bias", bp, error) &&
         gnn_module_register_buffer (module, "running_mean", mean, TRUE, error) &&
         gnn_module_register_buffer (module, "running_var", var, TRUE, error) &&
         gnn_module_register_buffer (module, "num_batches_tracked", count, TRUE, error);
}

gboolean
gnn_nn_norm_reset (GnnModule  *module,
                   GError    **error)
{
  return gnn_nn_reset_fill (module, "running_mean", 0.0, error) &&
         gnn_nn_reset_fill (module, "running_var", 1.0, error) &&
         gnn_nn_reset_fill (module, "num_batches_tracked", 0.0, error) &&
         gnn_nn_reset_fill (module, "weight", 1.0, error) &&
         gnn_nn_reset_fill (module, "bias", 0.0, error);
}

char *
gnn_nn_norm_extra_repr (gint64   num_features,
                        double   eps,
                        double   momentum,
                        gboolean affine,
                        gboolean track_running_stats)
{
  g_autofree char *e = gnn_nn_format_float (eps);
  g_autofree char *m = gnn_nn_format_float (momentum);

  return g_strdup_printf ("%" G_GINT64_FORMAT ", eps=%s, momentum=%s, affine=%s, track_running_stats=%s",
                          num_features, e, m, gnn_nn_bool_str (affine), gnn_nn_bool_str (track_running_stats));
}
