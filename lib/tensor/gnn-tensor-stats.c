/* gnn-tensor-stats.c: variance and standard deviation (with torch's
 * correction), their mean-returning forms, and vector norms (torch.norm,
 * torch.linalg.vector_norm)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-reduce-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-dtype-check-private.h"

/* @t (reduced with keepdim) seen without the reduced dims. */
static GnnTensor *
drop_reduced (GnnTensor      *t,
              GnnTensor      *self,
              const gboolean *reduce)
{
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint ndim;

  gnn_reduce_geometry (gnn_tensor_priv (self), reduce, FALSE, shape, &ndim, strides);
  gnn_contiguous_strides (shape, ndim, strides);
  return gnn_tensor_new_view (t, shape, strides, ndim, gnn_tensor_priv (t)->offset);
}

/* --- var, std ------------------------------------------------------------------- */

/* The number of elements each output reduces. */
static gint64
reduced_count (GnnTensorPrivate *p,
               const gboolean   *reduce)
{
  gint64 n = 1;

  for (guint d = 0; d < p->ndim; d++)
    if (reduce[d])
      n *= p->shape[d];
  return n;
}

/* var (or std) over @dims: sum ((x - mean)²) / max (N - correction, 0),
 * in two passes in the input dtype (torch's result for N <= correction:
 * inf, or NaN for no spread). @mean_out (optional) gets the mean. */
static GnnTensor *
variance (GnnTensor   *self,
          const gint  *dims,
          guint        n_dims,
          double       correction,
          gboolean     keepdim,
          gboolean     sqrt_of,
          GnnTensor  **mean_out,
          GError     **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gboolean reduce[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) mean = NULL;
  g_autoptr(GnnTensor) dev = NULL;
  g_autoptr(GnnTensor) sq = NULL;
  g_autoptr(GnnTensor) total = NULL;
  g_autoptr(GnnTensor) divisor = NULL;
  g_autoptr(GnnTensor) var = NULL;
  g_autoptr(GnnTensor) out = NULL;

  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "std and var only support floating point and complex dtypes");
      return NULL;
    }
  if (!gnn_reduce_resolve_dims (p, dims, n_dims, reduce, error))
    return NULL;
  divisor = gnn_tensor_new_wrapped_number (MAX ((double) reduced_count (p, reduce) - correction,
                                                0.0));
  if ((mean = gnn_reduce (GNN_RED_MEAN, self, dims, n_dims, TRUE, error)) == NULL ||
      (dev = gnn_ew_binary (&gnn_op_sub, self, mean, error)) == NULL ||
      (sq = gnn_ew_binary (&gnn_op_mul, dev, dev, error)) == NULL ||
      (total = gnn_reduce (GNN_RED_SUM, sq, dims, n_dims, TRUE, error)) == NULL ||
      (var = gnn_ew_binary (&gnn_op_div, total, divisor, error)) == NULL)
    return NULL;
  out = sqrt_of ? gnn_tensor_unary_op (GNN_UNARY_SQRT, var, error) : g_object_ref (var);
  if (out == NULL)
    return NULL;
  if (mean_out != NULL)
    *mean_out = keepdim ? g_object_ref (mean) : drop_reduced (mean, self, reduce);
  return keepdim ? g_steal_pointer (&out) : drop_reduced (out, self, reduce);
}

static GnnTensor *
record_stat (GnnOpKind   kind,
             GnnTensor  *out,
             GnnTensor  *self,
             const gint *dims,
             guint       n_dims,
             gboolean    keepdim,
             double      scalar)
{
  GnnOpParams params = { .n_dims = MIN (n_dims, GNN_MAX_DIMS), .keepdim = keepdim,
                         .scalar = scalar };

  for (guint i = 0; i < params.n_dims; i++)
    params.dims[i] = dims[i];
  return gnn_tensor_record (kind, out, &self, 1, &params);
}

/**
 * gnn_tensor_var:
 * @self: a floating-point #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @correction: subtracted from the element count in the divisor (1: the
 *   unbiased estimate, torch's default; 0: the population variance)
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * The variance over @dims (like `torch.var (self, dim, correction=...,
 * keepdim=...)`): `sum ((x - mean)²) / max (N - correction, 0)`.
 *
 * Returns: (transfer full): the variances, or %NULL with @error set for an
 *   integer @self or a bad dim
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_var (GnnTensor  *self,
                const gint *dims,
                guint       n_dims,
                double      correction,
                gboolean    keepdim,
                GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("var", self, error, NULL);
  return record_stat (GNN_OP_VAR, variance (self, dims, n_dims, correction, keepdim, FALSE, NULL,
                                            error),
                      self, dims, n_dims, keepdim, correction);
}

/**
 * gnn_tensor_std:
 * @self: a floating-point #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @correction: subtracted from the element count in the divisor (1: unbiased)
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * The standard deviation over @dims (like `torch.std`): the square root of
 * [method@Gnn.Tensor.var].
 *
 * Returns: (transfer full): the deviations, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_std (GnnTensor  *self,
                const gint *dims,
                guint       n_dims,
                double      correction,
                gboolean    keepdim,
                GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("std", self, error, NULL);
  return record_stat (GNN_OP_STD, variance (self, dims, n_dims, correction, keepdim, TRUE, NULL,
                                            error),
                      self, dims, n_dims, keepdim, correction);
}

/**
 * gnn_tensor_var_mean:
 * @self: a floating-point #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @correction: subtracted from the element count in the divisor (1: unbiased)
 * @keepdim: whether reduced dims stay in the results with size 1
 * @mean: (out) (optional) (transfer full): the means
 * @error: return location for a #GError
 *
 * The variance and the mean in one pass (like `torch.var_mean`); both are
 * differentiable.
 *
 * Returns: (transfer full): the variances, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_var_mean (GnnTensor  *self,
                     const gint *dims,
                     guint       n_dims,
                     double      correction,
                     gboolean    keepdim,
                     GnnTensor **mean,
                     GError    **error)
{
  GnnTensor *var, *m = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("var_mean", self, error, NULL);
  var = variance (self, dims, n_dims, correction, keepdim, FALSE, &m, error);
  if (var == NULL)
    return NULL;
  var = record_stat (GNN_OP_VAR, var, self, dims, n_dims, keepdim, correction);
  m = gnn_record_reduce (GNN_OP_MEAN, m, self, dims, n_dims, keepdim);
  if (mean != NULL)
    *mean = m;
  else
    g_object_unref (m);
  return var;
}

/**
 * gnn_tensor_std_mean:
 * @self: a floating-point #GnnTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @correction: subtracted from the element count in the divisor (1: unbiased)
 * @keepdim: whether reduced dims stay in the results with size 1
 * @mean: (out) (optional) (transfer full): the means
 * @error: return location for a #GError
 *
 * The standard deviation and the mean (like `torch.std_mean`).
 *
 * Returns: (transfer full): the deviations, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_std_mean (GnnTensor  *self,
                     const gint *dims,
                     guint       n_dims,
                     double      correction,
                     gboolean    keepdim,
                     GnnTensor **mean,
                     GError    **error)
{
  GnnTensor *std, *m = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("std_mean", self, error, NULL);
  std = variance (self, dims, n_dims, correction, keepdim, TRUE, &m, error);
  if (std == NULL)
    return NULL;
  std = record_stat (GNN_OP_STD, std, self, dims, n_dims, keepdim, correction);
  m = gnn_record_reduce (GNN_OP_MEAN, m, self, dims, n_dims, keepdim);
  if (mean != NULL)
    *mean = m;
  else
    g_object_unref (m);
  return std;
}

/* --- norms ------------------------------------------------------------------------- */

static GnnTensor *
norm_values (const char *name,
             GnnTensor  *self,
             double      p,
             const gint *dims,
             guint       n_dims,
             gboolean    keepdim,
             GError    **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) powered = NULL;
  g_autoptr(GnnTensor) total = NULL;

  if (!gnn_dtype_is_floating (sp->dtype))
    {
      if (g_str_equal (name, "norm"))
        g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                     "norm(): input dtype should be either floating point or complex. Got %s "
                     "instead.", gnn_torch_scalar_name (sp->dtype));
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                     "linalg.vector_norm: Expected a floating point or complex tensor as input. "
                     "Got %s", gnn_torch_scalar_name (sp->dtype));
      return NULL;
    }
  if (p == 2.0)
    {
      g_autoptr(GnnTensor) sq = gnn_ew_binary (&gnn_op_mul, self, self, error);

      if (sq == NULL || (total = gnn_reduce (GNN_RED_SUM, sq, dims, n_dims, keepdim, error)) == NULL)
        return NULL;
      return gnn_tensor_unary_op (GNN_UNARY_SQRT, total, error);
    }
  if ((a = gnn_tensor_unary_op (GNN_UNARY_ABS, self, error)) == NULL)
    return NULL;
  if (isinf (p))
    return gnn_reduce (p > 0 ? GNN_RED_MAX : GNN_RED_MIN, a, dims, n_dims, keepdim, error);
  if (p == 1.0)
    return gnn_reduce (GNN_RED_SUM, a, dims, n_dims, keepdim, error);
  if (p == 0.0)
    {
      g_autoptr(GnnTensor) zero = gnn_tensor_new_wrapped_number (0.0);
      g_autoptr(GnnTensor) nz = gnn_ew_binary (&gnn_op_ne, a, zero, error);
      g_autoptr(GnnTensor) nzf = nz != NULL ? gnn_ew_cast (nz, sp->dtype, error) : NULL;

      return nzf != NULL ? gnn_reduce (GNN_RED_SUM, nzf, dims, n_dims, keepdim, error) : NULL;
    }
  if ((powered = gnn_ew_unary (gnn_unary_op (GNN_UNARY_POW), a, p, error)) == NULL ||
      (total = gnn_reduce (GNN_RED_SUM, powered, dims, n_dims, keepdim, error)) == NULL)
    return NULL;
  return gnn_ew_unary (gnn_unary_op (GNN_UNARY_POW), total, 1.0 / p, error);
}

static GnnTensor *
norm_op (const char *name,
         gboolean    linalg,
         GnnTensor  *self,
         double      p,
         const gint *dims,
         guint       n_dims,
         gboolean    keepdim,
         GError    **error)
{
  GnnOpParams params = { .n_dims = MIN (n_dims, GNN_MAX_DIMS), .keepdim = keepdim,
                         .scalar = p, .flag = linalg };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE (name, self, error, NULL);
  for (guint i = 0; i < params.n_dims; i++)
    params.dims[i] = dims[i];
  return gnn_tensor_record (GNN_OP_NORM, norm_values (name, self, p, dims, n_dims, keepdim, error),
                            &self, 1, &params);
}

/**
 * gnn_tensor_norm:
 * @self: a floating-point #GnnTensor
 * @p: the order: 2 (Euclidean), 1, any positive number, 0 (the count of
 *   nonzeros), INFINITY (the largest magnitude) or -INFINITY (the smallest)
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims (the flattened vector)
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * The vector @p-norm over @dims (like `torch.norm (self, p, dim, keepdim)`):
 * `(sum |x|^p)^(1/p)`. The gradient is torch's (0 where the norm is 0 for
 * p = 2; shared among the maxima for p = ∞).
 *
 * Returns: (transfer full): the norms, or %NULL with @error set for an
 *   integer @self or a bad dim
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_norm (GnnTensor  *self,
                 double      p,
                 const gint *dims,
                 guint       n_dims,
                 gboolean    keepdim,
                 GError    **error)
{
  return norm_op ("norm", FALSE, self, p, dims, n_dims, keepdim, error);
}

/**
 * gnn_tensor_vector_norm:
 * @self: a floating-point #GnnTensor
 * @ord: the order (as @p of [method@Gnn.Tensor.norm])
 * @dims: (array length=n_dims) (nullable): the dims to reduce (may be negative)
 * @n_dims: the number of dims; 0 reduces over all dims
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * `torch.linalg.vector_norm (self, ord, dim, keepdim)`: the same values as
 * [method@Gnn.Tensor.norm], with linalg's messages and node name.
 *
 * Returns: (transfer full): the norms, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_vector_norm (GnnTensor  *self,
                        double      ord,
                        const gint *dims,
                        guint       n_dims,
                        gboolean    keepdim,
                        GError    **error)
{
  return norm_op ("linalg.vector_norm", TRUE, self, ord, dims, n_dims, keepdim, error);
}
