/* gnn-tensor-norm.c: layer and batch normalization (functional forms)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-norm-kernels-private.h"

/* The storage offset (in elements) of the @i-th element in row-major order. */
static gint64
element_offset (GnnTensorPrivate *p,
                gint64            i)
{
  gint64 off = p->offset;

  for (gint d = (gint) p->ndim - 1; d >= 0; d--)
    {
      off += (i % p->shape[d]) * p->strides[d];
      i /= p->shape[d];
    }
  return off;
}

static double
read_at (GnnTensor *t,
         gint64     i)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  return gnn_dtype_read (p->dtype, p->storage->data + element_offset (p, i) * (gint64) gnn_dtype_get_size (p->dtype));
}

static void
write_at (GnnTensor *t,
          gint64     i,
          double     v)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  gnn_dtype_write (p->dtype, p->storage->data + element_offset (p, i) * (gint64) gnn_dtype_get_size (p->dtype), v);
}

/* Reads @t (any layout and dtype, @n elements) into a new double array, or
 * fills with @fallback when @t is %NULL. */
static double *
read_doubles (GnnTensor *t,
              gint64     n,
              double     fallback)
{
  double *v = g_new (double, MAX (n, 1));

  for (gint64 i = 0; i < n; i++)
    v[i] = t != NULL ? read_at (t, i) : fallback;
  return v;
}

/* --- layer norm ------------------------------------------------------------ */

static gboolean
check_affine_shape (const char   *what,
                    GnnTensor    *t,
                    const gint64 *normalized_shape,
                    guint         n,
                    GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  g_autofree char *ts = NULL;
  g_autofree char *ns = NULL;

  if (p->ndim == n && memcmp (p->shape, normalized_shape, sizeof (gint64) * n) == 0)
    return TRUE;
  ts = gnn_shape_to_string (p->shape, p->ndim);
  ns = gnn_shape_to_string (normalized_shape, n);
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
               "Expected %s to be of same shape as normalized_shape, but got %s of shape %s and "
               "normalized_shape = %s", what, what, ts, ns);
  return FALSE;
}

/**
 * gnn_tensor_layer_norm:
 * @input: the input, float32 or float64, whose trailing dims equal
 *   @normalized_shape
 * @normalized_shape: (array length=n): the shape of the trailing dims to
 *   normalize over
 * @n: the length of @normalized_shape (at least 1)
 * @weight: (nullable): a scale of shape @normalized_shape, or %NULL
 * @bias: (nullable): an offset of shape @normalized_shape, or %NULL
 * @eps: the value added to the variance for numerical stability
 * @error: return location for a #GError
 *
 * Layer normalization, `torch.nn.functional.layer_norm`: every slice over
 * the last @n dims is shifted to mean 0 and scaled by `1 / sqrt(var + eps)`
 * (biased variance), then multiplied by @weight and shifted by @bias.
 * Statistics are accumulated in double precision.
 *
 * Returns: (transfer full): the normalized tensor (shape and dtype of
 *   @input), or %NULL on error ("Given normalized_shape=[16], expected input
 *   with shape [*, 16], but got input of size[2, 15]")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_layer_norm (GnnTensor    *input,
                       const gint64 *normalized_shape,
                       guint         n,
                       GnnTensor    *weight,
                       GnnTensor    *bias,
                       double        eps,
                       GError      **error)
{
  GnnTensorPrivate *ip;
  g_autoptr(GnnTensor) xc = NULL;
  g_autofree double *w = NULL;
  g_autofree double *b = NULL;
  gint64 inner = 1, outer;
  GnnTensor *out;
  const guint8 *x;
  guint8 *o;
  gboolean f32;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (normalized_shape != NULL || n == 0, NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_CHECK_STORAGE ("layer_norm", input, error, NULL);
  GNN_CHECK_STORAGE ("layer_norm", weight, error, NULL);
  GNN_CHECK_STORAGE ("layer_norm", bias, error, NULL);
  ip = gnn_tensor_priv (input);

  if (n == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                   "least one element, but got normalized_shape = []");
      return NULL;
    }
  if (weight != NULL && !check_affine_shape ("weight", weight, normalized_shape, n, error))
    return NULL;
  if (bias != NULL && !check_affine_shape ("bias", bias, normalized_shape, n, error))
    return NULL;
  if (n > ip->ndim ||
      memcmp (ip->shape + ip->ndim - n, normalized_shape, sizeof (gint64) * n) != 0)
    {
      g_autofree char *ns = gnn_shape_to_string (normalized_shape, n);
      g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);
      g_autofree char *tail = g_strndup (ns + 1, strlen (ns) - 2);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Given normalized_shape=%s, expected input with shape [*, %s], but got input "
                   "of size%s", ns, tail, is);
      return NULL;
    }
  if (!gnn_check_float_dtype ("LayerNormKernelImpl", input, error))
    return NULL;

  for (guint d = 0; d < n; d++)
    inner *= normalized_shape[d];
  outer = inner > 0 ? ip->numel / inner : 0;
  out = gnn_tensor_new_contiguous_checked (ip->dtype, ip->shape, ip->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  if (ip->numel == 0)
    return out;

  w = read_doubles (weight, inner, 1.0);
  b = read_doubles (bias, inner, 0.0);
  xc = gnn_tensor_contiguous_checked (input, error);
  if (xc == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  x = gnn_tensor_priv_data (gnn_tensor_priv (xc));
  o = gnn_tensor_priv_data (gnn_tensor_priv (out));
  f32 = ip->dtype == GNN_DTYPE_F32;

  for (gint64 r = 0; r < outer; r++)
    {
      double mean = 0, var = 0, rstd;

      if (f32)
        {
          const float *xr = (const float *) x + r * inner;
          float *orow = (float *) o + r * inner;

          for (gint64 i = 0; i < inner; i++)
            mean += xr[i];
          mean /= (double) inner;
          for (gint64 i = 0; i < inner; i++)
            var += (xr[i] - mean) * (xr[i] - mean);
          rstd = 1.0 / sqrt (var / (double) inner + eps);
          for (gint64 i = 0; i < inner; i++)
            orow[i] = (float) ((xr[i] - mean) * rstd * w[i] + b[i]);
        }
      else
        {
          const double *xr = (const double *) x + r * inner;
          double *orow = (double *) o + r * inner;

          for (gint64 i = 0; i < inner; i++)
            mean += xr[i];
          mean /= (double) inner;
          for (gint64 i = 0; i < inner; i++)
            var += (xr[i] - mean) * (xr[i] - mean);
          rstd = 1.0 / sqrt (var / (double) inner + eps);
          for (gint64 i = 0; i < inner; i++)
            orow[i] = (xr[i] - mean) * rstd * w[i] + b[i];
        }
    }
  {
    GnnOpParams params = { .scalar = eps, .n_ints = MIN (n, G_N_ELEMENTS (params.ints)) };

    memcpy (params.ints, normalized_shape, sizeof (gint64) * params.n_ints);
    return gnn_tensor_record (GNN_OP_LAYER_NORM, out, (GnnTensor *[]) { input, weight, bias }, 3, &params);
  }
}

/* --- batch norm ------------------------------------------------------------ */

static gboolean
check_channel_tensor (const char *name,
                      GnnTensor  *t,
                      gint64      channels,
                      GError    **error)
{
  gint64 numel;

  if (t == NULL)
    return TRUE;
  numel = gnn_tensor_priv (t)->numel;
  if (numel == channels)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
               "%s should contain %" G_GINT64_FORMAT " elements not %" G_GINT64_FORMAT,
               name, channels, numel);
  return FALSE;
}

/**
 * gnn_tensor_batch_norm:
 * @input: the input `[N, C, *]`, float32 or float64
 * @running_mean: (nullable): the running mean `[C]`, updated in place when
 *   @training, or %NULL
 * @running_var: (nullable): the running variance `[C]`, updated in place
 *   when @training, or %NULL
 * @weight: (nullable): the per-channel scale `[C]`, or %NULL
 * @bias: (nullable): the per-channel offset `[C]`, or %NULL
 * @training: whether to normalize with the statistics of this batch (and
 *   update the running ones) rather than with the running statistics
 * @momentum: the weight of the batch statistics in the running update
 * @eps: the value added to the variance for numerical stability
 * @error: return location for a #GError
 *
 * Batch normalization, `torch.nn.functional.batch_norm`: each channel is
 * normalized over the batch and spatial dims. In training, the batch mean
 * and biased variance normalize the input, and the running statistics
 * (when given) become `(1 − momentum) × running + momentum × batch`, using
 * the unbiased batch variance for @running_var. In evaluation the running
 * statistics normalize the input and nothing is updated.
 *
 * Returns: (transfer full): the normalized tensor (shape and dtype of
 *   @input), or %NULL on error ("running_mean should contain 4 elements not
 *   3", "running_mean must be defined in evaluation mode", "Expected more
 *   than 1 value per channel when training, got input size [1, 3]")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_batch_norm (GnnTensor *input,
                       GnnTensor *running_mean,
                       GnnTensor *running_var,
                       GnnTensor *weight,
                       GnnTensor *bias,
                       gboolean   training,
                       double     momentum,
                       double     eps,
                       GError   **error)
{
  GNN_CHECK_STORAGE ("batch_norm", input, error, NULL);
  GNN_CHECK_STORAGE ("batch_norm", running_mean, error, NULL);
  GNN_CHECK_STORAGE ("batch_norm", running_var, error, NULL);
  GNN_CHECK_STORAGE ("batch_norm", weight, error, NULL);
  GNN_CHECK_STORAGE ("batch_norm", bias, error, NULL);
  GnnTensorPrivate *ip;
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) wc = NULL;
  g_autoptr(GnnTensor) bc = NULL;
  g_autofree double *mean = NULL;
  g_autofree double *var = NULL;
  GnnNormGeom geom;
  gint64 n, c, s, count;
  GnnTensor *out;
  const guint8 *x;
  guint8 *o;
  gboolean f32;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (running_mean == NULL || GNN_IS_TENSOR (running_mean), NULL);
  g_return_val_if_fail (running_var == NULL || GNN_IS_TENSOR (running_var), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  ip = gnn_tensor_priv (input);

  if (ip->ndim < 2)
    {
      g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "batch_norm: expected an input of at least 2 dims [N, C, *], but got input of size %s",
                   is);
      return NULL;
    }
  n = ip->shape[0];
  c = ip->shape[1];
  s = c > 0 && n > 0 ? ip->numel / (n * c) : 0;
  count = n * s;
  if (!check_channel_tensor ("running_mean", running_mean, c, error) ||
      !check_channel_tensor ("running_var", running_var, c, error) ||
      !check_channel_tensor ("weight", weight, c, error) ||
      !check_channel_tensor ("bias", bias, c, error))
    return NULL;
  if (!training && (running_mean == NULL || running_var == NULL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s must be defined in evaluation mode",
                   running_mean == NULL ? "running_mean" : "running_var");
      return NULL;
    }
  if (!gnn_check_float_dtype ("batch_norm", input, error))
    return NULL;
  if (training && count <= 1 && ip->numel > 0)
    {
      g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected more than 1 value per channel when training, got input size %s", is);
      return NULL;
    }

  out = gnn_tensor_new_contiguous_checked (ip->dtype, ip->shape, ip->ndim, FALSE, error);

  if (out == NULL)

    return NULL;
  if (ip->numel == 0)
    return out;
  geom = (GnnNormGeom) { n, c, s, 0 };
  if ((xc = gnn_tensor_contiguous_checked (input, error)) == NULL ||
      (weight != NULL && (wc = gnn_tensor_copy_checked (weight, ip->dtype, error)) == NULL) ||
      (bias != NULL && (bc = gnn_tensor_copy_checked (bias, ip->dtype, error)) == NULL))
    {
      g_object_unref (out);
      return NULL;
    }
  x = gnn_tensor_priv_data (gnn_tensor_priv (xc));
  o = gnn_tensor_priv_data (gnn_tensor_priv (out));
  f32 = ip->dtype == GNN_DTYPE_F32;

  if (training)
    {
      /* the running statistics are updated in place */
      if (running_mean != NULL)
        gnn_tensor_priv_bump_version (gnn_tensor_priv (running_mean));
      if (running_var != NULL)
        gnn_tensor_priv_bump_version (gnn_tensor_priv (running_var));
      mean = g_new0 (double, c);
      var = g_new0 (double, c);
      if (f32)
        gnn_norm_stats_f32 (&geom, (const float *) x, mean, var);
      else
        gnn_norm_stats_f64 (&geom, (const double *) x, mean, var);
      for (gint64 ch = 0; ch < c; ch++)
        {
          if (running_mean != NULL)
            write_at (running_mean, ch, (1 - momentum) * read_at (running_mean, ch) + momentum * mean[ch]);
          if (running_var != NULL)
            write_at (running_var, ch, (1 - momentum) * read_at (running_var, ch) +
                      momentum * var[ch] * (double) count / (double) (count - 1));
        }
    }
  else
    {
      mean = read_doubles (running_mean, c, 0.0);
      var = read_doubles (running_var, c, 1.0);
    }
  if (f32)
    gnn_norm_apply_f32 (&geom, (const float *) x, mean, var, eps, gnn_tensor_data_or_null (wc), gnn_tensor_data_or_null (bc),
                        (float *) o);
  else
    gnn_norm_apply_f64 (&geom, (const double *) x, mean, var, eps, gnn_tensor_data_or_null (wc), gnn_tensor_data_or_null (bc),
                        (double *) o);
  return gnn_tensor_record (GNN_OP_BATCH_NORM, out, (GnnTensor *[]) { input, weight, bias }, 3,
                            &(GnnOpParams) { .scalar = eps, .flag = training,
                                             .extra = { training ? NULL : running_mean,
                                                        training ? NULL : running_var } });
}
