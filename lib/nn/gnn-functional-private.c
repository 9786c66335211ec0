/* gnn-functional-private.c: the argument checks and the reduction the
 * functional losses share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-functional-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-tensor-private.h"

#include <string.h>

gboolean
gnn_functional_check_reduction (GnnReduction   reduction,
                                gboolean       batchmean_ok,
                                GError       **error)
{
  if (reduction == GNN_REDUCTION_NONE || reduction == GNN_REDUCTION_MEAN ||
      reduction == GNN_REDUCTION_SUM || (batchmean_ok && reduction == GNN_REDUCTION_BATCHMEAN))
    return TRUE;
  if (reduction == GNN_REDUCTION_BATCHMEAN)
    g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "batchmean is not a valid value for reduction");
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "%d is not a valid value for reduction", (int) reduction);
  return FALSE;
}

gboolean
gnn_functional_check_args (const char    *op,
                           GnnTensor     *input,
                           GnnTensor     *target,
                           GnnTensor     *weight,
                           GnnReduction   reduction,
                           gboolean       batchmean_ok,
                           GError       **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (target), FALSE);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), FALSE);
  GNN_CHECK_STORAGE (op, input, error, FALSE);
  GNN_CHECK_STORAGE (op, target, error, FALSE);
  GNN_CHECK_STORAGE (op, weight, error, FALSE);
  return gnn_functional_check_reduction (reduction, batchmean_ok, error);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
gboolean
gnn_functional_check_same_size (GnnTensor   *input,
                                GnnTensor   *target,
                                const char  *format,
                                GError     **error)
{
  guint ndim, tndim;
  const gint64 *shape = gnn_tensor_get_shape (input, &ndim);
  const gint64 *tshape = gnn_tensor_get_shape (target, &tndim);
  g_autofree char *ts = NULL;
  g_autofree char *is = NULL;

  if (ndim == tndim && memcmp (shape, tshape, sizeof (gint64) * ndim) == 0)
    return TRUE;
  ts = gnn_functional_torch_size (target);
  is = gnn_functional_torch_size (input);
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, format, ts, is);
  return FALSE;
}
#pragma GCC diagnostic pop

GnnTensor *
gnn_functional_reduce (GnnTensor     *loss,
                       GnnReduction   reduction,
                       GError       **error)
{
  if (reduction == GNN_REDUCTION_NONE)
    return g_object_ref (loss);
  if (reduction == GNN_REDUCTION_SUM)
    return gnn_tensor_sum (loss, NULL, 0, FALSE, error);
  return gnn_tensor_mean (loss, NULL, 0, FALSE, error);
}

gboolean
gnn_functional_promote (const char  *kernel,
                        GnnTensor   *a,
                        GnnTensor   *b,
                        GnnTensor  **a_out,
                        GnnTensor  **b_out,
                        GError     **error)
{
  GnnDType da = gnn_tensor_get_dtype (a), db = gnn_tensor_get_dtype (b), common;
  gboolean fa = da == GNN_DTYPE_F32 || da == GNN_DTYPE_F64;
  gboolean fb = db == GNN_DTYPE_F32 || db == GNN_DTYPE_F64;

  if (!fa && !fb)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"%s\" not implemented for '%s'",
                   kernel, gnn_torch_scalar_name (da));
      return FALSE;
    }
  common = (fa && da == GNN_DTYPE_F64) || (fb && db == GNN_DTYPE_F64) ? GNN_DTYPE_F64
                                                                       : GNN_DTYPE_F32;
  *a_out = da == common ? g_object_ref (a) : gnn_tensor_to_dtype (a, common, error);
  if (*a_out == NULL)
    return FALSE;
  *b_out = db == common ? g_object_ref (b) : gnn_tensor_to_dtype (b, common, error);
  if (*b_out == NULL)
    {
      g_clear_object (a_out);
      return FALSE;
    }
  return TRUE;
}

char *
gnn_functional_torch_size (GnnTensor *t)
{
  guint ndim = 0;
  const gint64 *shape = gnn_tensor_get_shape (t, &ndim);
  GString *s = g_string_new ("torch.Size([");

  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (s, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, shape[d]);
  g_string_append (s, "])");
  return g_string_free (s, FALSE);
}

gboolean
gnn_functional_weight_as (GnnTensor   *t,
                          GnnDType     dtype,
                          GnnTensor  **out,
                          GError     **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  *out = NULL;
  if (t == NULL)
    return TRUE;
  *out = gnn_tensor_get_dtype (t) == dtype ? gnn_tensor_detach (t) : gnn_tensor_to_dtype (t, dtype, error);
  return *out != NULL;
}
