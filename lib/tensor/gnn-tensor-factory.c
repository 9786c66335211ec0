/* gnn-tensor-factory.c: torch's value factories eye, linspace and
 * logspace, and random_ (uniform integers, torch.randint's fill)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-nditer-private.h"

/**
 * gnn_tensor_eye:
 * @n: the number of rows
 * @m: the number of columns (negative: @n)
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * A 2-d tensor with ones on the diagonal and zeros elsewhere (like
 * `torch.eye (n, m, dtype=dtype)`).
 *
 * Returns: (transfer full): the matrix, or %NULL with @error set for a
 *   negative @n
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_eye (gint64    n,
                gint64    m,
                GnnDType  dtype,
                GError  **error)
{
  GnnTensor *out;
  gsize size;
  guint8 *d;

  if (n < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "n must be greater or equal to 0, got %" G_GINT64_FORMAT, n);
      return NULL;
    }
  if (m < 0)
    m = n;
  out = gnn_tensor_zeros ((gint64[]) { n, m }, 2, dtype, error);
  if (out == NULL || gnn_tensor_is_meta (out))
    return out;
  size = gnn_dtype_get_size (dtype);
  d = gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (gint64 i = 0; i < MIN (n, m); i++)
    gnn_dtype_write (dtype, d + (i * m + i) * (gint64) size, 1.0);
  return out;
}

/* torch's linspace: from both ends toward the middle, so that both ends
 * are exact. */
static GnnTensor *
spaced (double   start,
        double   end,
        gint64   steps,
        gboolean log_scale,
        double   base,
        GnnDType dtype,
        GError **error)
{
  GnnTensor *out;
  gsize size;
  guint8 *d;
  double step;

  if (steps < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "number of steps must be non-negative");
      return NULL;
    }
  out = gnn_tensor_empty (&steps, 1, dtype, error);
  if (out == NULL || gnn_tensor_is_meta (out))
    return out;
  size = gnn_dtype_get_size (dtype);
  d = gnn_tensor_priv_data (gnn_tensor_priv (out));
  step = steps > 1 ? (end - start) / (double) (steps - 1) : 0.0;
  for (gint64 i = 0; i < steps; i++)
    {
      double v = i < steps / 2 ? start + step * (double) i
                               : end - step * (double) (steps - 1 - i);

      if (steps == 1)
        v = start;      /* torch's one step: the start */
      else if (gnn_dtype_is_floating (dtype) && dtype != GNN_DTYPE_F64)
        {
          /* float32 steps as torch computes them: in single precision */
          float fs = (float) step;

          v = i < steps / 2 ? (double) ((float) start + fs * (float) i)
                            : (double) ((float) end - fs * (float) (steps - 1 - i));
        }
      if (log_scale)
        v = pow (base, v);
      gnn_dtype_write (dtype, d + i * (gint64) size, v);
    }
  return out;
}

/**
 * gnn_tensor_linspace:
 * @start: the first value
 * @end: the last value
 * @steps: the number of values (>= 0)
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * @steps evenly spaced values from @start to @end, both included (like
 * `torch.linspace (start, end, steps, dtype=dtype)`; integer dtypes
 * truncate).
 *
 * Returns: (transfer full): a 1-d tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linspace (double    start,
                     double    end,
                     gint64    steps,
                     GnnDType  dtype,
                     GError  **error)
{
  return spaced (start, end, steps, FALSE, 0, dtype, error);
}

/**
 * gnn_tensor_logspace:
 * @start: the first exponent
 * @end: the last exponent
 * @steps: the number of values (>= 0)
 * @base: the base of the powers
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * `base ** linspace (start, end, steps)` (like `torch.logspace`).
 *
 * Returns: (transfer full): a 1-d tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logspace (double    start,
                     double    end,
                     gint64    steps,
                     double    base,
                     GnnDType  dtype,
                     GError  **error)
{
  return spaced (start, end, steps, TRUE, base, dtype, error);
}

/**
 * gnn_tensor_random_:
 * @self: the tensor to fill (any dtype but bool)
 * @low: the smallest value
 * @high: the bound, not included (> @low)
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator
 * @error: return location for a #GError
 *
 * Fills @self with integers drawn uniformly from [@low, @high) (like
 * `self.random_(low, high, generator=generator)`, what `torch.randint`
 * fills its result with), in row-major order.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_random_ (GnnTensor    *self,
                    gint64        low,
                    gint64        high,
                    GnnGenerator *generator,
                    GError      **error)
{
  GnnTensorPrivate *p;
  const gint64 *strides[1];
  GnnGenerator *draw;
  gsize size;
  GnnNdIter it;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);
  GNN_CHECK_STORAGE ("random_", self, error, FALSE);
  p = gnn_tensor_priv (self);
  if (low >= high)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "random_ expects 'from' to be less than 'to', but got from=%" G_GINT64_FORMAT
                   " >= to=%" G_GINT64_FORMAT, low, high);
      return FALSE;
    }
  if (p->dtype == GNN_DTYPE_BOOL && (low < 0 || high > 2))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "random_: bool tensors take values in [0, 2)");
      return FALSE;
    }
  size = gnn_dtype_get_size (p->dtype);
  strides[0] = p->strides;
  draw = gnn_generator_acquire (generator);
  gnn_nditer_init (&it, p->shape, p->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    for (gint64 i = 0; i < it.inner_size; i++)
      {
        gint64 v = low + (gint64) gnn_generator_next_below (draw, (guint64) high - (guint64) low);
        guint8 *dst = gnn_tensor_priv_data (p) + (it.offsets[0] + i * it.inner_strides[0]) *
                      (gint64) size;

        gnn_strided_copy (p->dtype, dst, NULL, GNN_DTYPE_I64, (const guint8 *) &v, NULL, NULL, 0);
      }
  gnn_generator_release (generator);
  return TRUE;
}

/**
 * gnn_tensor_randperm:
 * @n: the number of values
 * @dtype: the result's dtype (torch's default: int64)
 * @generator: (nullable): the random number generator to draw from, or
 *   %NULL for the default generator
 * @error: return location for a #GError
 *
 * A random permutation of 0 .. @n - 1 (like `torch.randperm (n)`), drawn
 * by a Fisher-Yates shuffle.
 *
 * Returns: (transfer full): a new 1-d tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_randperm (gint64        n,
                     GnnDType      dtype,
                     GnnGenerator *generator,
                     GError      **error)
{
  g_autoptr(GnnTensor) perm = NULL;
  GnnGenerator *draw;
  gint64 *v;

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  if (n < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "n must be non-negative, got%" G_GINT64_FORMAT, n);
      return NULL;
    }
  perm = gnn_tensor_empty (&n, 1, GNN_DTYPE_I64, error);
  if (perm == NULL)
    return NULL;
  v = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (perm));
  for (gint64 i = 0; i < n; i++)
    v[i] = i;
  draw = gnn_generator_acquire (generator);
  for (gint64 i = n; i > 1; i--)
    {
      gint64 j = (gint64) gnn_generator_next_below (draw, (guint64) i);
      gint64 t = v[i - 1];

      v[i - 1] = v[j];
      v[j] = t;
    }
  gnn_generator_release (generator);
  if (dtype == GNN_DTYPE_I64)
    return g_steal_pointer (&perm);
  return gnn_tensor_to_dtype (perm, dtype, error);
}
