/* gnn-tensor-rrelu.c: the randomized leaky ReLU (torch.rrelu, torch.rrelu_,
 * torch.nn.functional.rrelu)
 *
 * In training each element x ≤ 0 is scaled by a slope drawn uniformly from
 * [lower, upper) with the generator; out of training every x ≤ 0 is
 * scaled by the mean slope (lower + upper) / 2 (PyTorch's leaky_relu).
 * The slopes (1 where x > 0) are kept as PyTorch keeps its `noise`: the
 * gradient is grad × slopes (lib/autograd/gnn-backward-margin.c), for
 * both forms and both modes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-nn-ops-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-elementwise-private.h"

#define SLOPES_LOOP(T)                                                          \
  G_STMT_START {                                                                \
    const T *x = (const T *) gnn_tensor_priv_data (gnn_tensor_priv (xc));                \
    T *s = (T *) gnn_tensor_priv_data (gnn_tensor_priv (slopes));                  \
    T *y = (T *) gnn_tensor_priv_data (gnn_tensor_priv (out));                     \
    for (gint64 i = 0; i < n; i++)                                              \
      {                                                                         \
        T r = 1;                                                                \
        if (training ? x[i] <= 0 : !(x[i] > 0))                                 \
          r = training ? (T) (lower + (upper - lower) * gnn_generator_next_double (gen)) \
                       : (T) mean;                                              \
        s[i] = r;                                                               \
        y[i] = x[i] * r;                                                        \
      }                                                                         \
  } G_STMT_END

/* The result of rrelu on @self in a new packed tensor (*out) and the
 * slopes (*slopes), not recorded. */
static gboolean
compute (GnnTensor     *self,
         double         lower,
         double         upper,
         gboolean       training,
         GnnGenerator  *generator,
         GnnTensor    **out_,
         GnnTensor    **slopes_,
         GError       **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  double mean = (lower + upper) / 2;
  gint64 n = p->numel;
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) slopes = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnGenerator *gen;

  if (!gnn_check_float_dtype (training ? "rrelu_with_noise_out_cpu" : "leaky_relu_cpu", self,
                              error))
    return FALSE;
  if (training && lower > upper)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Lower bound should be less than or equal to the upper bound");
      return FALSE;
    }
  if ((xc = gnn_tensor_contiguous_checked (self, error)) == NULL ||
      (slopes = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE,
                                                   error)) == NULL ||
      (out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE,
                                                error)) == NULL)
    return FALSE;
  gen = training ? gnn_generator_acquire (generator) : NULL;
  if (p->dtype == GNN_DTYPE_F32)
    SLOPES_LOOP (float);
  else
    SLOPES_LOOP (double);
  if (training)
    gnn_generator_release (generator);
  *out_ = g_steal_pointer (&out);
  *slopes_ = g_steal_pointer (&slopes);
  return TRUE;
}

/**
 * gnn_tensor_rrelu:
 * @self: a float32 or float64 #GnnTensor
 * @lower: the lowest slope (PyTorch's default is 1/8)
 * @upper: the highest slope (PyTorch's default is 1/3)
 * @training: whether to draw the slopes (%FALSE: the mean slope)
 * @generator: (nullable): where the slopes come from; %NULL for the
 *   default generator
 * @error: return location for a #GError
 *
 * `torch.nn.functional.rrelu(input, lower, upper, training)`: `x` for
 * `x > 0`, else `a × x` with `a` drawn uniformly from `[lower, upper)` per
 * element in training, `(lower + upper) / 2` otherwise. Differentiable
 * (the gradient is the slope used).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error
 *   set if @self is not float32 or float64 or @lower exceeds @upper in
 *   training (PyTorch's messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rrelu (GnnTensor     *self,
                  double         lower,
                  double         upper,
                  gboolean       training,
                  GnnGenerator  *generator,
                  GError       **error)
{
  g_autoptr(GnnTensor) slopes = NULL;
  GnnTensor *out = NULL;
  GnnOpParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  GNN_CHECK_STORAGE ("rrelu", self, error, NULL);
  if (!compute (self, lower, upper, training, generator, &out, &slopes, error))
    return NULL;
  params.extra[0] = slopes;
  return gnn_tensor_record (GNN_OP_RRELU, out, &self, 1, &params);
}

/**
 * gnn_tensor_rrelu_:
 * @self: a float32 or float64 #GnnTensor
 * @lower: the lowest slope (PyTorch's default is 1/8)
 * @upper: the highest slope (PyTorch's default is 1/3)
 * @training: whether to draw the slopes
 * @generator: (nullable): where the slopes come from; %NULL for the
 *   default generator
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.rrelu] (`torch.rrelu_`,
 * `F.rrelu(..., inplace=True)`). Differentiable when @self is not a leaf
 * that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set (as [method@Gnn.Tensor.rrelu],
 *   or @self has overlapping elements or is a leaf that requires grad)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_rrelu_ (GnnTensor     *self,
                   double         lower,
                   double         upper,
                   gboolean       training,
                   GnnGenerator  *generator,
                   GError       **error)
{
  g_autoptr(GnnTensor) slopes = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnOpParams params = { .flag = TRUE };

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);
  GNN_CHECK_STORAGE ("rrelu_", self, error, FALSE);
  if (!gnn_check_no_internal_overlap (self, error) ||
      !compute (self, lower, upper, training, generator, &out, &slopes, error))
    return FALSE;
  params.extra[0] = slopes;
  if (!gnn_tensor_record_inplace_full (GNN_OP_RRELU, self, NULL, 0, &params, error))
    return FALSE;
  return gnn_tensor_write_values_ (self, out, error);
}
