/* gnn-nn-utils.c: torch.nn.utils' gradient clipping (clip_grad_norm_,
 * clip_grad_value_) and parameters_to_vector / vector_to_parameters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <gnn/gnn.h>

#include "nn/gnn-nn-private.h"
#include "tensor/gnn-tensor-private.h"

/* Python's repr of a float: "2.0", "inf". */
static char *
python_float (double value)
{
  if (isinf (value))
    return g_strdup (value > 0 ? "inf" : "-inf");
  return gnn_nn_format_float (value);
}

/**
 * gnn_clip_grad_norm_:
 * @parameters: (array length=n_parameters): the tensors whose gradients are
 *   clipped (those without a gradient are skipped)
 * @n_parameters: the number of tensors
 * @max_norm: the largest norm the gradients keep
 * @norm_type: the order of the norm: any p, or `INFINITY` (the largest
 *   absolute element)
 * @error_if_nonfinite: whether a NaN or infinite total norm is an error
 * @error: return location for a #GError
 *
 * Scales the gradients in place so that their joint @norm_type norm (the
 * norm of the gradients' norms) is at most @max_norm, like
 * `torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type,
 * error_if_nonfinite)`: every gradient is multiplied by
 * `min (max_norm / (total_norm + 1e-6), 1)`. Outside autograd.
 *
 * Returns: (transfer full): the total norm before clipping, a 0-d tensor
 *   (0.0 when no tensor has a gradient), or %NULL with @error set when the
 *   norm is not finite and @error_if_nonfinite ("The total norm of order 2.0
 *   for gradients from `parameters` is non-finite, so it cannot be clipped.
 *   ...") or the gradients' dtypes differ
 *
 * Since: 0.1
 */
GnnTensor *
gnn_clip_grad_norm_ (GnnTensor  **parameters,
                     guint        n_parameters,
                     double       max_norm,
                     double       norm_type,
                     gboolean     error_if_nonfinite,
                     GError     **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GPtrArray) grads = g_ptr_array_new ();
  g_autoptr(GnnTensor) coef = NULL;
  double total = 0, clip;
  GnnDType dtype;

  g_return_val_if_fail (parameters != NULL || n_parameters == 0, NULL);
  for (guint i = 0; i < n_parameters; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (parameters[i]), NULL);
      if (gnn_tensor_get_grad (parameters[i]) != NULL)
        g_ptr_array_add (grads, gnn_tensor_get_grad (parameters[i]));
    }
  if (grads->len == 0)
    return gnn_tensor_new_scalar (0.0, GNN_DTYPE_F32);
  dtype = gnn_tensor_get_dtype (g_ptr_array_index (grads, 0));

  /* the norm of the gradients' norms, as PyTorch stacks them */
  for (guint i = 0; i < grads->len; i++)
    {
      g_autoptr(GnnTensor) norm = gnn_tensor_norm (g_ptr_array_index (grads, i), norm_type,
                                                   NULL, 0, FALSE, error);
      double v;

      if (norm == NULL)
        return NULL;
      v = gnn_tensor_item (norm, NULL);
      if (isinf (norm_type))
        total = i == 0 ? v : norm_type > 0 ? fmax (total, v) : fmin (total, v);
      else if (norm_type == 0)
        total += v != 0;
      else
        total += pow (v, norm_type);
    }
  if (!isinf (norm_type) && norm_type != 0)
    total = pow (total, 1.0 / norm_type);
  if (error_if_nonfinite && !isfinite (total))
    {
      g_autofree char *order = python_float (norm_type);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "The total norm of order %s for gradients from `parameters` is non-finite, so "
                   "it cannot be clipped. To disable this error and scale the gradients by the "
                   "non-finite norm anyway, set `error_if_nonfinite=False`", order);
      return NULL;
    }
  /* PyTorch scales by the clamped coefficient always (NaN included) */
  clip = max_norm / (total + 1e-6);
  clip = clip > 1.0 ? 1.0 : clip;
  coef = gnn_tensor_new_scalar (clip, dtype);
  for (guint i = 0; i < grads->len; i++)
    if (!gnn_tensor_mul_ (g_ptr_array_index (grads, i), coef, error))
      return NULL;
  return gnn_tensor_new_scalar (total, dtype);
}

/**
 * gnn_clip_grad_value_:
 * @parameters: (array length=n_parameters): the tensors whose gradients are
 *   clipped (those without a gradient are skipped)
 * @n_parameters: the number of tensors
 * @clip_value: the largest magnitude a gradient element keeps
 * @error: return location for a #GError
 *
 * Clamps every gradient element to [-@clip_value, @clip_value] in place,
 * like `torch.nn.utils.clip_grad_value_(parameters, clip_value)` (with a
 * negative @clip_value every element becomes @clip_value, as PyTorch's
 * clamp with min > max). Outside autograd.
 *
 * Returns: %TRUE, or %FALSE with @error set for a gradient that is not
 *   floating point
 *
 * Since: 0.1
 */
gboolean
gnn_clip_grad_value_ (GnnTensor  **parameters,
                      guint        n_parameters,
                      double       clip_value,
                      GError     **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  g_return_val_if_fail (parameters != NULL || n_parameters == 0, FALSE);
  for (guint i = 0; i < n_parameters; i++)
    {
      GnnTensor *grad;

      g_return_val_if_fail (GNN_IS_TENSOR (parameters[i]), FALSE);
      grad = gnn_tensor_get_grad (parameters[i]);
      if (grad == NULL)
        continue;
      if (!(clip_value >= 0 ? gnn_tensor_hardtanh_ (grad, -clip_value, clip_value, error)
                            : gnn_tensor_fill_ (grad, clip_value, error)))
        return FALSE;
    }
  return TRUE;
}

/**
 * gnn_parameters_to_vector:
 * @parameters: (array length=n_parameters): the tensors, of one dtype
 * @n_parameters: the number of tensors, at least 1
 * @error: return location for a #GError
 *
 * Flattens the tensors and concatenates them into one vector, like
 * `torch.nn.utils.parameters_to_vector(parameters)`; differentiable (the
 * gradient flows back to each tensor).
 *
 * Returns: (transfer full): the vector, or %NULL with @error set for no
 *   tensors ("torch.cat(): expected a non-empty list of Tensors") or
 *   different dtypes
 *
 * Since: 0.1
 */
GnnTensor *
gnn_parameters_to_vector (GnnTensor  **parameters,
                          guint        n_parameters,
                          GError     **error)
{
  g_autoptr(GPtrArray) flat = g_ptr_array_new_with_free_func (g_object_unref);
  const gint64 minus_one = -1;

  g_return_val_if_fail (parameters != NULL || n_parameters == 0, NULL);
  if (n_parameters == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "torch.cat(): expected a non-empty list of Tensors");
      return NULL;
    }
  for (guint i = 0; i < n_parameters; i++)
    {
      GnnTensor *v;

      g_return_val_if_fail (GNN_IS_TENSOR (parameters[i]), NULL);
      if ((v = gnn_tensor_reshape (parameters[i], &minus_one, 1, error)) == NULL)
        return NULL;
      g_ptr_array_add (flat, v);
    }
  return gnn_tensor_cat ((GnnTensor **) flat->pdata, flat->len, 0, error);
}

/**
 * gnn_vector_to_parameters:
 * @vec: a 1-dimensional tensor with as many elements as @parameters
 *   together
 * @parameters: (array length=n_parameters): the tensors to take @vec's slices
 * @n_parameters: the number of tensors
 * @error: return location for a #GError
 *
 * Makes each tensor the next slice of @vec, in @vec's memory, like
 * `torch.nn.utils.vector_to_parameters(vec, parameters)` (`param.data =
 * vec[i:i + n].view_as(param).data`): the tensors keep their identity,
 * requires-grad and gradient, and share @vec's memory afterwards.
 *
 * Returns: %TRUE, or %FALSE with @error set (and nothing changed) if @vec
 *   is not 1-dimensional, has another number of elements than the tensors
 *   together, or another dtype than one of them
 *
 * Since: 0.1
 */
gboolean
gnn_vector_to_parameters (GnnTensor   *vec,
                          GnnTensor  **parameters,
                          guint        n_parameters,
                          GError     **error)
{
  g_autoptr(GnnTensor) flat = NULL;
  gint64 total = 0, offset = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (vec), FALSE);
  g_return_val_if_fail (parameters != NULL || n_parameters == 0, FALSE);
  for (guint i = 0; i < n_parameters; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (parameters[i]), FALSE);
      total += gnn_tensor_get_numel (parameters[i]);
      if (!gnn_check_same_dtype ("vector_to_parameters", vec, parameters[i], error))
        return FALSE;
    }
  if (gnn_tensor_get_ndim (vec) != 1 || gnn_tensor_get_numel (vec) != total)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "vector_to_parameters: expected a vector of %" G_GINT64_FORMAT " elements "
                   "(the parameters together), got a tensor of %" G_GINT64_FORMAT " elements "
                   "and %u dimensions", total, gnn_tensor_get_numel (vec), gnn_tensor_get_ndim (vec));
      return FALSE;
    }
  flat = gnn_tensor_contiguous_checked (vec, error);
  if (flat == NULL)
    return FALSE;
  for (guint i = 0; i < n_parameters; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (parameters[i]);
      gint64 strides[GNN_MAX_DIMS];
      g_autoptr(GnnTensor) slice = NULL;

      gnn_contiguous_strides (p->shape, p->ndim, strides);
      slice = gnn_tensor_new_view (flat, p->shape, strides, p->ndim,
                                   gnn_tensor_priv (flat)->offset + offset);
      gnn_tensor_assign_storage (parameters[i], slice);
      offset += p->numel;
    }
  return TRUE;
}
