/* gnn-tensor-group-norm.c: group and instance normalization
 * (torch.nn.functional.group_norm, instance_norm)
 *
 * Both normalize each sample over groups of channels (instance norm: one
 * channel a group) with the plane loops of gnn-norm-kernels.c, and share
 * one node, whose backward is batch norm's with per-sample statistics.
 * Instance norm with running statistics in evaluation is batch norm in
 * evaluation, as torch computes it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-norm-kernels-private.h"

/* A per-channel @t (or NULL) packed in @dtype. */
static gboolean
channel_operand (GnnTensor  *t,
                 GnnDType    dtype,
                 GnnTensor **out,
                 GError    **error)
{
  *out = NULL;
  if (t == NULL)
    return TRUE;
  *out = gnn_tensor_copy_checked (t, dtype, error);
  return *out != NULL;
}

/* Normalizes @input per sample over @groups groups of channels with
 * statistics taken from it, writes the statistics to @mean / @var when
 * not NULL (n · groups each), and records the node (@instance names it as
 * torch's instance_norm). */
static GnnTensor *
normalize_groups (GnnTensor  *input,
                  gint64      groups,
                  GnnTensor  *weight,
                  GnnTensor  *bias,
                  double      eps,
                  gboolean    instance,
                  double     *mean_out,
                  double     *var_out,
                  GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) wc = NULL;
  g_autoptr(GnnTensor) bc = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autofree double *mean = NULL;
  g_autofree double *var = NULL;
  GnnNormGeom g = { p->shape[0], p->shape[1], 1, groups };

  for (guint d = 2; d < p->ndim; d++)
    g.s *= p->shape[d];
  out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  if (p->numel > 0)
    {
      if ((xc = gnn_tensor_contiguous_checked (input, error)) == NULL ||
          !channel_operand (weight, p->dtype, &wc, error) || !channel_operand (bias, p->dtype, &bc, error))
        return NULL;
      mean = g_new (double, gnn_norm_n_stats (&g));
      var = g_new (double, gnn_norm_n_stats (&g));
      if (p->dtype == GNN_DTYPE_F32)
        {
          gnn_norm_stats_f32 (&g, gnn_tensor_data_or_null (xc), mean, var);
          gnn_norm_apply_f32 (&g, gnn_tensor_data_or_null (xc), mean, var, eps, gnn_tensor_data_or_null (wc),
                              gnn_tensor_data_or_null (bc), gnn_tensor_data_or_null (out));
        }
      else
        {
          gnn_norm_stats_f64 (&g, gnn_tensor_data_or_null (xc), mean, var);
          gnn_norm_apply_f64 (&g, gnn_tensor_data_or_null (xc), mean, var, eps, gnn_tensor_data_or_null (wc),
                              gnn_tensor_data_or_null (bc), gnn_tensor_data_or_null (out));
        }
      if (mean_out != NULL)
        memcpy (mean_out, mean, sizeof (double) * (gsize) gnn_norm_n_stats (&g));
      if (var_out != NULL)
        memcpy (var_out, var, sizeof (double) * (gsize) gnn_norm_n_stats (&g));
    }
  return gnn_tensor_record (GNN_OP_GROUP_NORM, g_steal_pointer (&out), (GnnTensor *[]) { input, weight, bias }, 3,
                            &(GnnOpParams) { .scalar = eps, .ints = { groups }, .n_ints = 1, .flag = instance });
}

/* Overwrites the @n elements of @t (any dtype) with @values, outside the
 * graph (a running statistic). */
static gboolean
write_doubles (GnnTensor    *t,
               const double *values,
               gint64        n,
               GError      **error)
{
  g_autoptr(GnnTensor) src = gnn_tensor_new_from_doubles (values, (gsize) n, gnn_tensor_priv (t)->shape,
                                                          gnn_tensor_priv (t)->ndim, error);

  return src != NULL && gnn_tensor_copy_values_ (t, src, error);
}

/* A per-channel operand must have C elements: torch's message, which
 * (sic) shows the weight's shape for the bias too ([0] without one). */
static gboolean
check_channels (const char   *name,
                GnnTensor    *t,
                GnnTensor    *shown,
                GnnTensor    *input,
                GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);

  if (t == NULL || (gnn_tensor_priv (t)->ndim == 1 && gnn_tensor_priv (t)->numel == p->shape[1]))
    return TRUE;
  {
    gint64 none = 0;
    g_autofree char *ts = shown != NULL ? gnn_shape_to_string (gnn_tensor_priv (shown)->shape,
                                                               gnn_tensor_priv (shown)->ndim)
                                        : gnn_shape_to_string (&none, 1);
    g_autofree char *is = gnn_shape_to_string (p->shape, p->ndim);

    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                 "Expected %s to be a vector of size equal to the number of channels in input, but got "
                 "%s of shape %s and input of shape %s", name, name, ts, is);
  }
  return FALSE;
}

/**
 * gnn_tensor_group_norm:
 * @input: the input, `[N, C, *]`, float32 or float64
 * @num_groups: the number of groups the channels are split into (divides C)
 * @weight: (nullable): a `[C]` scale, or %NULL
 * @bias: (nullable): a `[C]` offset, or %NULL
 * @eps: the value added to the variance
 * @error: return location for a #GError
 *
 * Group normalization, `torch.nn.functional.group_norm`: each sample's
 * channels, in @num_groups consecutive groups, are normalized by the mean
 * and (biased) variance of their group, then scaled and shifted per
 * channel.
 *
 * Returns: (transfer full): the normalized tensor, or %NULL on error (with
 *   PyTorch's messages, e.g. "Expected number of channels in input to be
 *   divisible by num_groups, but got input of shape [2, 3] and
 *   num_groups=2")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_group_norm (GnnTensor *input,
                       gint64     num_groups,
                       GnnTensor *weight,
                       GnnTensor *bias,
                       double     eps,
                       GError   **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_CHECK_STORAGE ("group_norm", input, error, NULL);
  GNN_CHECK_STORAGE ("group_norm", weight, error, NULL);
  GNN_CHECK_STORAGE ("group_norm", bias, error, NULL);

  p = gnn_tensor_priv (input);
  if (p->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [-%u, %d], but got 1)",
                   MAX (p->ndim, 1), (int) MAX (p->ndim, 1) - 1);
      return NULL;
    }
  if (num_groups <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_ZERO_DIVISION, "integer division or modulo by zero (num_groups=%"
                   G_GINT64_FORMAT ")", num_groups);
      return NULL;
    }
  if (p->shape[1] % num_groups != 0)
    {
      g_autofree char *is = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected number of channels in input to be divisible by num_groups, but got input of "
                   "shape %s and num_groups=%" G_GINT64_FORMAT, is, num_groups);
      return NULL;
    }
  if (!check_channels ("weight", weight, weight, input, error) ||
      !check_channels ("bias", bias, weight, input, error) ||
      !gnn_check_float_dtype ("group_norm", input, error))
    return NULL;
  return normalize_groups (input, num_groups, weight, bias, eps, FALSE, NULL, NULL, error);
}

/**
 * gnn_tensor_instance_norm:
 * @input: the input, `[N, C, *]`, float32 or float64
 * @running_mean: (nullable): the `[C]` running mean, or %NULL
 * @running_var: (nullable): the `[C]` running variance, or %NULL
 * @weight: (nullable): a `[C]` scale, or %NULL
 * @bias: (nullable): a `[C]` offset, or %NULL
 * @use_input_stats: whether to normalize by each sample's channel
 *   statistics (and update the running ones, when given, by @momentum), or
 *   by the running statistics
 * @momentum: the weight of the batch's statistics in the running update
 * @eps: the value added to the variance
 * @error: return location for a #GError
 *
 * Instance normalization, `torch.nn.functional.instance_norm`: each
 * sample's channels are normalized by their own mean and (biased)
 * variance, then scaled and shifted per channel. The running statistics
 * move towards the mean over the batch of the samples' means and
 * (unbiased) variances.
 *
 * Returns: (transfer full): the normalized tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_instance_norm (GnnTensor *input,
                          GnnTensor *running_mean,
                          GnnTensor *running_var,
                          GnnTensor *weight,
                          GnnTensor *bias,
                          gboolean   use_input_stats,
                          double     momentum,
                          double     eps,
                          GError   **error)
{
  GnnTensorPrivate *p;
  gint64 n, c, s = 1;
  g_autofree double *mean = NULL;
  g_autofree double *var = NULL;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (running_mean == NULL || GNN_IS_TENSOR (running_mean), NULL);
  g_return_val_if_fail (running_var == NULL || GNN_IS_TENSOR (running_var), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_CHECK_STORAGE ("instance_norm", input, error, NULL);

  p = gnn_tensor_priv (input);
  if (p->ndim < 2)
    {
      g_autofree char *is = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "instance_norm: expected an input of at least 2 dims [N, C, *], but got input of size %s", is);
      return NULL;
    }
  if (!use_input_stats)
    return gnn_tensor_batch_norm (input, running_mean, running_var, weight, bias, FALSE, momentum, eps, error);
  n = p->shape[0];
  c = p->shape[1];
  for (guint d = 2; d < p->ndim; d++)
    s *= p->shape[d];
  if (s <= 1 && p->numel > 0)
    {
      g_autofree char *is = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected more than 1 spatial element when training, got input size torch.Size(%s)", is);
      return NULL;
    }
  /* torch repeats the per-channel tensors over the batch: its message */
  for (guint i = 0; i < 4; i++)
    {
      GnnTensor *t = (GnnTensor *[]) { weight, bias, running_mean, running_var }[i];

      if (t != NULL && gnn_tensor_priv (t)->numel != c)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s should contain %" G_GINT64_FORMAT " elements not %"
                       G_GINT64_FORMAT, (const char *[]) { "weight", "bias", "running_mean", "running_var" }[i],
                       n * c, n * gnn_tensor_priv (t)->numel);
          return NULL;
        }
    }
  if (!gnn_check_float_dtype ("instance_norm", input, error))
    return NULL;
  mean = g_new0 (double, MAX (n * c, 1));
  var = g_new0 (double, MAX (n * c, 1));
  out = normalize_groups (input, c, weight, bias, eps, TRUE, mean, var, error);
  if (out == NULL)
    return NULL;
  if (n > 0 && (running_mean != NULL || running_var != NULL))
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
      g_autofree double *rm = running_mean != NULL ? gnn_tensor_to_doubles (running_mean, NULL) : NULL;
      g_autofree double *rv = running_var != NULL ? gnn_tensor_to_doubles (running_var, NULL) : NULL;

      for (gint64 ch = 0; ch < c; ch++)
        {
          double m = 0, v = 0;

          for (gint64 b = 0; b < n; b++)
            {
              m += mean[b * c + ch];
              v += var[b * c + ch] * (double) s / (double) (s - 1);
            }
          if (rm != NULL)
            rm[ch] = (1 - momentum) * rm[ch] + momentum * m / (double) n;
          if (rv != NULL)
            rv[ch] = (1 - momentum) * rv[ch] + momentum * v / (double) n;
        }
      if ((rm != NULL && !write_doubles (running_mean, rm, c, error)) ||
          (rv != NULL && !write_doubles (running_var, rv, c, error)))
        {
          g_object_unref (out);
          return NULL;
        }
    }
  return out;
}
