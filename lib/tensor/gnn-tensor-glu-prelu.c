/* gnn-tensor-glu-prelu.c: the two activations with a second operand —
 * glu (the input's two halves) and prelu (a learned slope per channel)
 *
 * Their gradients are in lib/autograd/gnn-backward-activation.c. Built
 * with -O3.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-nn-ops-private.h"
#include "tensor/gnn-dtype-check-private.h"

/* out[o, j, i] = a * sigmoid (b), a = x[o, j, i], b = x[o, j + half, i] */
#define GLU_LOOP(T, EXP)                                                        \
  G_STMT_START {                                                                \
    const T *x = xp;                                                            \
    T *restrict out = op;                                                       \
    for (gint64 o = 0; o < outer; o++)                                          \
      {                                                                         \
        const T *a = x + o * 2 * half * inner, *b = a + half * inner;           \
        T *restrict y = out + o * half * inner;                                 \
        for (gint64 k = 0; k < half * inner; k++)                               \
          y[k] = a[k] * (1 / (1 + EXP (-b[k])));                                \
      }                                                                         \
  } G_STMT_END

/**
 * gnn_tensor_glu:
 * @self: a floating-point #GnnTensor
 * @dim: the dimension to halve (negative counts from the end; PyTorch's
 *   default is -1)
 * @error: return location for a #GError
 *
 * The gated linear unit, like `torch.nn.functional.glu(input, dim)`: with
 * a the first half of @self along @dim and b the second, `a × sigmoid (b)`.
 * Differentiable.
 *
 * Returns: (transfer full): a new tensor whose size along @dim is half of
 *   @self's, or %NULL with @error set for a 0-d tensor, an odd size ("Halving
 *   dimension must be even, but dimension 1 is size 3"), a @dim out of
 *   range or a dtype other than float32 and float64
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_glu (GnnTensor  *self,
                gint        dim,
                GError    **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) in = NULL;
  gint64 shape[GNN_MAX_DIMS], outer = 1, inner = 1, half;
  guint d;
  GnnTensor *out;
  gconstpointer xp;
  gpointer op;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("glu", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "glu does not support scalars because halving size must be even");
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  if (p->shape[d] % 2 != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Halving dimension must be even, but dimension %u is size %" G_GINT64_FORMAT,
                   d, p->shape[d]);
      return NULL;
    }
  if (!gnn_check_float_dtype ("glu_cpu", self, error))
    return NULL;
  for (guint k = 0; k < p->ndim; k++)
    {
      shape[k] = p->shape[k];
      if (k < d)
        outer *= p->shape[k];
      else if (k > d)
        inner *= p->shape[k];
    }
  half = p->shape[d] / 2;
  shape[d] = half;
  if ((in = gnn_tensor_contiguous_checked (self, error)) == NULL ||
      (out = gnn_tensor_new_contiguous_checked (p->dtype, shape, p->ndim, FALSE, error)) == NULL)
    return NULL;
  xp = gnn_tensor_priv_data (gnn_tensor_priv (in));
  op = gnn_tensor_priv_data (gnn_tensor_priv (out));
  if (p->dtype == GNN_DTYPE_F32)
    GLU_LOOP (float, expf);
  else
    GLU_LOOP (double, exp);
  return gnn_tensor_record (GNN_OP_GLU, out, &self, 1, &(GnnOpParams) { .dim = (gint) d });
}

/* out[k] = x > 0 ? x : w[channel] x, with channel (k / inner) % channels */
#define PRELU_LOOP(T)                                                           \
  G_STMT_START {                                                                \
    const T *x = xp, *w = wp;                                                   \
    T *restrict y = op;                                                         \
    for (gint64 o = 0; o < outer; o++)                                          \
      for (gint64 c = 0; c < channels; c++)                                     \
        {                                                                       \
          const T slope = w[wn == 1 ? 0 : c];                                   \
          const gint64 base = (o * channels + c) * inner;                       \
          for (gint64 k = base; k < base + inner; k++)                          \
            y[k] = x[k] > 0 ? x[k] : slope * x[k];                              \
        }                                                                       \
  } G_STMT_END

/**
 * gnn_tensor_prelu:
 * @self: a floating-point #GnnTensor
 * @weight: the slopes for x < 0: one element, or one per channel (@self's
 *   dimension 1), of @self's dtype
 * @error: return location for a #GError
 *
 * The parametric ReLU, like `torch.nn.functional.prelu(input, weight)`:
 * `x` for `x > 0`, `weight[c] × x` otherwise, c the channel of the element.
 * Differentiable with respect to both.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set for a
 *   @weight of more than 1 dimension, a number of slopes other than 1 or the
 *   channel count ("Mismatch of parameter numbers and input channel size.
 *   Found parameter numbers = 3 and channel size = 4."), a 0-d @self with
 *   several slopes, or different dtypes
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_prelu (GnnTensor  *self,
                  GnnTensor  *weight,
                  GError    **error)
{
  GnnTensorPrivate *p, *wpr;
  g_autoptr(GnnTensor) in = NULL;
  g_autoptr(GnnTensor) wc = NULL;
  gint64 outer = 1, inner = 1, channels = 1, wn;
  GnnTensor *out;
  gconstpointer xp, wp;
  gpointer op;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  GNN_CHECK_STORAGE ("prelu", self, error, NULL);
  GNN_CHECK_STORAGE ("prelu", weight, error, NULL);
  p = gnn_tensor_priv (self);
  wpr = gnn_tensor_priv (weight);
  wn = wpr->numel;
  if (wpr->ndim > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %u",
                   wpr->ndim);
      return NULL;
    }
  if (wn != 1)
    {
      if (p->ndim == 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "Not allow zero-dim input tensor.");
          return NULL;
        }
      channels = p->ndim > 1 ? p->shape[1] : 1;
      if (channels != wn)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Mismatch of parameter numbers and input channel size. Found parameter "
                       "numbers = %" G_GINT64_FORMAT " and channel size = %" G_GINT64_FORMAT ".",
                       wn, channels);
          return NULL;
        }
    }
  else if (p->ndim > 1)
    channels = p->shape[1];
  if (!gnn_check_same_dtype ("prelu", self, weight, error))
    return NULL;
  if (!gnn_check_float_dtype ("prelu_cpu", self, error))
    return NULL;
  if (p->ndim > 1)
    {
      outer = p->shape[0];
      for (guint k = 2; k < p->ndim; k++)
        inner *= p->shape[k];
    }
  else
    inner = p->numel;
  if (p->numel == 0)
    outer = inner = channels = 0;
  if ((in = gnn_tensor_contiguous_checked (self, error)) == NULL ||
      (wc = gnn_tensor_contiguous_checked (weight, error)) == NULL ||
      (out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error)) == NULL)
    return NULL;
  xp = gnn_tensor_priv_data (gnn_tensor_priv (in));
  wp = gnn_tensor_priv_data (gnn_tensor_priv (wc));
  op = gnn_tensor_priv_data (gnn_tensor_priv (out));
  if (p->dtype == GNN_DTYPE_F32)
    PRELU_LOOP (float);
  else
    PRELU_LOOP (double);
  return gnn_tensor_record (GNN_OP_PRELU, out, (GnnTensor *[]) { self, weight }, 2, NULL);
}
