/* gnn-functional-dropout.c: channel-wise and alpha dropout
 * (torch's _VF.feature_dropout, alpha_dropout, feature_alpha_dropout),
 * composed of differentiable ops as torch composes them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"

/* torch's alpha_dropout constant: -scale · alpha of SELU. */
#define ALPHA_PRIME 1.7580993408473766

static gboolean
check_p (double   p,
         GError **error)
{
  if (p >= 0 && p <= 1)
    return TRUE;
  {
    g_autofree char *text = gnn_nn_format_float (p);

    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "dropout probability has to be between 0 and 1, but got %s", text);
  }
  return FALSE;
}

/* The keep mask (1 kept, 0 dropped, probability 1 - p) of @input's dtype,
 * of its shape or, for @feature, [N, C, 1, …]. */
static GnnTensor *
keep_mask (GnnTensor     *input,
           double         p,
           gboolean       feature,
           GnnGenerator  *generator,
           GError       **error)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (input, &ndim);
  gint64 mask_shape[GNN_MAX_DIMS];
  GnnDType dtype = gnn_tensor_get_dtype (input);
  g_autoptr(GnnTensor) mask = NULL;
  GnnGenerator *gen;
  gint64 n;

  for (guint d = 0; d < ndim; d++)
    mask_shape[d] = feature && d >= 2 ? 1 : shape[d];
  if ((mask = gnn_tensor_empty (mask_shape, ndim, dtype, error)) == NULL)
    return NULL;
  n = gnn_tensor_get_numel (mask);
  gen = generator != NULL ? generator : gnn_nn_default_generator_lock ();
  if (dtype == GNN_DTYPE_F32)
    {
      float *data = gnn_tensor_get_data (mask);

      for (gint64 i = 0; i < n; i++)
        data[i] = gnn_generator_next_double (gen) >= p ? 1.0f : 0.0f;
    }
  else
    {
      double *data = gnn_tensor_get_data (mask);

      for (gint64 i = 0; i < n; i++)
        data[i] = gnn_generator_next_double (gen) >= p ? 1.0 : 0.0;
    }
  if (generator == NULL)
    gnn_nn_default_generator_unlock ();
  return g_steal_pointer (&mask);
}

/* The dropout of @input (checked by the callers) by @mask: x · m / (1 − p),
 * or alpha dropout's a (x · m) + a α′ (p − (1 − m)), written into @input
 * when @inplace. */
static GnnTensor *
apply_mask (GnnTensor  *input,
            GnnTensor  *mask,
            double      p,
            gboolean    alpha,
            gboolean    inplace,
            GError    **error)
{
  g_autoptr(GnnTensor) noise = NULL;
  g_autoptr(GnnTensor) dropped = NULL;
  g_autoptr(GnnTensor) shift = NULL;
  double a = alpha ? 1.0 / sqrt ((ALPHA_PRIME * ALPHA_PRIME * p + 1) * (1 - p)) : 0.0;

  /* outside the graph: noise = m / (1 − p), or a m and shift = (m − 1) a α′ + a α′ p */
  if ((noise = gnn_tensor_mul_scalar (mask, alpha ? a : p < 1 ? 1.0 / (1.0 - p) : 0.0, error)) == NULL)
    return NULL;
  if (alpha && ((dropped = gnn_tensor_mul_scalar (mask, a * ALPHA_PRIME, error)) == NULL ||
                (shift = gnn_tensor_add_scalar (dropped, a * ALPHA_PRIME * (p - 1.0), error)) == NULL))
    return NULL;
  if (inplace)
    return gnn_tensor_mul_ (input, noise, error) && (shift == NULL || gnn_tensor_add_ (input, shift, error))
           ? g_object_ref (input) : NULL;
  {
    g_autoptr(GnnTensor) scaled = gnn_tensor_mul (input, noise, error);

    if (scaled == NULL || shift == NULL)
      return g_steal_pointer (&scaled);
    return gnn_tensor_add (scaled, shift, error);
  }
}

static GnnTensor *
dropout (GnnTensor     *input,
         double         p,
         gboolean       training,
         gboolean       feature,
         gboolean       alpha,
         gboolean       inplace,
         GnnGenerator  *generator,
         GError       **error)
{
  g_autoptr(GnnTensor) mask = NULL;
  GnnDType dtype = gnn_tensor_get_dtype (input);

  if (!check_p (p, error))
    return NULL;
  if (!training || p == 0.0 || gnn_tensor_get_numel (input) == 0)
    return g_object_ref (input);
  if (p == 1.0)
    {
      /* everything dropped: zeros, still in the graph (torch's input * 0) */
      g_autoptr(GnnTensor) zero = gnn_tensor_new_scalar (0.0, dtype);

      if (inplace)
        return gnn_tensor_mul_ (input, zero, error) ? g_object_ref (input) : NULL;
      return gnn_tensor_mul (input, zero, error);
    }
  if (dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "dropout expects a float32 or float64 input, got %s",
                   gnn_dtype_get_name (dtype));
      return NULL;
    }
  if (feature && gnn_tensor_get_ndim (input) < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Feature dropout requires at least 2 dimensions in the input");
      return NULL;
    }
  if ((mask = keep_mask (input, p, feature, generator, error)) == NULL)
    return NULL;
  return apply_mask (input, mask, p, alpha, inplace, error);
}

/**
 * gnn_tensor_feature_dropout:
 * @input: the input, `[N, C, *]`, float32 or float64
 * @p: the probability of zeroing a channel, in [0, 1]
 * @training: whether to drop (%FALSE returns @input itself)
 * @alpha: %FALSE for dropout (kept channels scaled by `1 / (1 − p)`),
 *   %TRUE for alpha dropout (dropped channels set to SELU's negative
 *   saturation, then an affine map keeps the mean and variance)
 * @inplace: whether to write the result into @input
 * @generator: (nullable): the generator of the mask, or %NULL for the
 *   library's default one
 * @error: return location for a #GError
 *
 * Channel-wise dropout, torch's `feature_dropout` (under
 * `F.dropout1d/2d/3d`) and `feature_alpha_dropout`: each channel of each
 * sample is dropped whole, with probability @p.
 *
 * Returns: (transfer full): the result (@input itself when not
 *   @training, when @p is 0 or when @inplace), or %NULL with @error set
 *   ("dropout probability has to be between 0 and 1, but got 1.5")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_feature_dropout (GnnTensor     *input,
                            double         p,
                            gboolean       training,
                            gboolean       alpha,
                            gboolean       inplace,
                            GnnGenerator  *generator,
                            GError       **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return dropout (input, p, training, TRUE, alpha, inplace, generator, error);
}

/**
 * gnn_tensor_alpha_dropout:
 * @input: the input, float32 or float64
 * @p: the probability of dropping an element, in [0, 1]
 * @training: whether to drop (%FALSE returns @input itself)
 * @inplace: whether to write the result into @input
 * @generator: (nullable): the generator of the mask, or %NULL for the
 *   library's default one
 * @error: return location for a #GError
 *
 * Alpha dropout, `torch.nn.functional.alpha_dropout`: each element is set
 * to SELU's negative saturation with probability @p, then the whole is
 * mapped `a · x + b` so that a standard normal input keeps its mean and
 * variance.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_alpha_dropout (GnnTensor     *input,
                          double         p,
                          gboolean       training,
                          gboolean       inplace,
                          GnnGenerator  *generator,
                          GError       **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return dropout (input, p, training, FALSE, TRUE, inplace, generator, error);
}
