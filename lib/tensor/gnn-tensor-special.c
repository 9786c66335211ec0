/* gnn-tensor-special.c: torch's special functions — erfc, erfinv, lgamma,
 * digamma, logit — and nan_to_num, out of place and in place (the unary
 * kernels are in gnn-tensor-unary-kernels.c, the gradients in
 * lib/autograd/gnn-backward-pointwise.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"

/* op (self, param), recorded with the param as the node's scalar */
static GnnTensor *
special (GnnUnaryId   id,
         GnnOpKind    kind,
         GnnTensor   *self,
         double       param,
         GError     **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE (gnn_unary_op (id)->name, self, error, NULL);
  return gnn_tensor_record (kind, gnn_ew_unary (gnn_unary_op (id), self, param, error), &self, 1,
                            &(GnnOpParams) { .scalar = param });
}

static gboolean
special_ (GnnUnaryId   id,
          GnnOpKind    kind,
          GnnTensor   *self,
          double       param,
          GError     **error)
{
  g_autoptr(GnnTensor) values = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE (gnn_unary_op (id)->name, self, error, FALSE);
  values = gnn_ew_unary (gnn_unary_op (id), self, param, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, kind, NULL, 0, &(GnnOpParams) { .scalar = param }, error);
}

/**
 * gnn_tensor_erfc:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the complementary error function `1 - erf (x)`, accurate where erf
 * is near 1 elementwise (like `torch.erfc`). Integer and bool tensors
 * are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_erfc (GnnTensor *self,
                 GError   **error)
{
  return special (GNN_UNARY_ERFC, GNN_OP_ERFC, self, 0.0, error);
}

/**
 * gnn_tensor_erfc_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.erfc] (like `self.erfc_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_erfc_ (GnnTensor *self,
                  GError   **error)
{
  return special_ (GNN_UNARY_ERFC, GNN_OP_ERFC, self, 0.0, error);
}

/**
 * gnn_tensor_erfinv:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the inverse error function (NaN outside [-1, 1], ±inf at ±1)
 * elementwise (like `torch.erfinv`). Integer and bool tensors
 * are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_erfinv (GnnTensor *self,
                   GError   **error)
{
  return special (GNN_UNARY_ERFINV, GNN_OP_ERFINV, self, 0.0, error);
}

/**
 * gnn_tensor_erfinv_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.erfinv] (like `self.erfinv_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_erfinv_ (GnnTensor *self,
                    GError   **error)
{
  return special_ (GNN_UNARY_ERFINV, GNN_OP_ERFINV, self, 0.0, error);
}

/**
 * gnn_tensor_lgamma:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the natural logarithm of the absolute value of the gamma function
 * elementwise (like `torch.lgamma`). Integer and bool tensors
 * are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lgamma (GnnTensor *self,
                   GError   **error)
{
  return special (GNN_UNARY_LGAMMA, GNN_OP_LGAMMA, self, 0.0, error);
}

/**
 * gnn_tensor_lgamma_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.lgamma] (like `self.lgamma_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_lgamma_ (GnnTensor *self,
                    GError   **error)
{
  return special_ (GNN_UNARY_LGAMMA, GNN_OP_LGAMMA, self, 0.0, error);
}

/**
 * gnn_tensor_digamma:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the digamma function ψ, the derivative of lgamma (-inf at 0, NaN
 * at the negative integers) elementwise (like `torch.digamma`). Integer and
 * bool tensors
 * are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_digamma (GnnTensor *self,
                    GError   **error)
{
  return special (GNN_UNARY_DIGAMMA, GNN_OP_DIGAMMA, self, 0.0, error);
}

/**
 * gnn_tensor_digamma_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.digamma] (like `self.digamma_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_digamma_ (GnnTensor *self,
                     GError   **error)
{
  return special_ (GNN_UNARY_DIGAMMA, GNN_OP_DIGAMMA, self, 0.0, error);
}


/**
 * gnn_tensor_logit:
 * @self: a #GnnTensor of probabilities
 * @eps: the clamp bound: inputs are clamped to [@eps, 1 - @eps] first; a
 *   negative @eps is torch's `eps=None` (no clamp; NaN outside [0, 1])
 * @error: return location for a #GError
 *
 * Computes `log (x / (1 - x))` elementwise (like `torch.logit (self, eps)`).
 * Integer and bool tensors are computed in float32, as in torch. The
 * gradient is 0 where the clamp applied, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logit (GnnTensor *self,
                  double     eps,
                  GError   **error)
{
  return special (GNN_UNARY_LOGIT, GNN_OP_LOGIT, self, eps < 0 ? -1.0 : eps, error);
}

/**
 * gnn_tensor_logit_:
 * @self: the tensor to update, possibly a view
 * @eps: as for [method@Gnn.Tensor.logit] (negative: none)
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.logit] (like `self.logit_(eps)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_logit_ (GnnTensor *self,
                   double     eps,
                   GError   **error)
{
  return special_ (GNN_UNARY_LOGIT, GNN_OP_LOGIT, self, eps < 0 ? -1.0 : eps, error);
}

/* --- nan_to_num ----------------------------------------------------------------- */

#define NAN_TO_NUM_LOOP(T, LOWEST, HIGHEST)                                     \
  G_STMT_START {                                                               \
    const T *s = (const T *) src;                                              \
    T *o = (T *) dst;                                                          \
    T vn = (T) nan, vp = isnan (posinf) ? HIGHEST : (T) posinf;                \
    T vm = isnan (neginf) ? LOWEST : (T) neginf;                               \
    for (gint64 i = 0; i < n; i++)                                             \
      {                                                                        \
        T x = s[i];                                                            \
        o[i] = x != x ? vn : x == (T) INFINITY ? vp : x == (T) -INFINITY ? vm : x; \
      }                                                                        \
  } G_STMT_END

/* @self's values with NaN and ±inf replaced: a new contiguous tensor of
 * @self's dtype (integers and bools: a copy, as in torch). Records nothing. */
static GnnTensor *
nan_to_num_values (GnnTensor  *self,
                   double      nan,
                   double      posinf,
                   double      neginf,
                   GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) in = NULL;
  GnnTensor *out;
  const void *src;
  void *dst;
  gint64 n = p->numel;

  if (p->dtype == GNN_DTYPE_F16 || p->dtype == GNN_DTYPE_BF16)
    {
      gnn_set_not_implemented (error, "nan_to_num", p->dtype);
      return NULL;
    }
  if ((in = gnn_tensor_contiguous_checked (self, error)) == NULL ||
      (out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error)) == NULL)
    return NULL;
  src = gnn_tensor_priv_data (gnn_tensor_priv (in));
  dst = gnn_tensor_priv_data (gnn_tensor_priv (out));
  if (p->dtype == GNN_DTYPE_F32)
    NAN_TO_NUM_LOOP (float, -FLT_MAX, FLT_MAX);
  else if (p->dtype == GNN_DTYPE_F64)
    NAN_TO_NUM_LOOP (double, -DBL_MAX, DBL_MAX);
  else if (n > 0)
    memcpy (dst, src, n * gnn_dtype_get_size (p->dtype));
  return out;
}

/**
 * gnn_tensor_nan_to_num:
 * @self: a #GnnTensor
 * @nan: the value that replaces NaN (torch's default: 0)
 * @posinf: the value that replaces +inf; NaN: the dtype's largest finite value
 *   (torch's `posinf=None`)
 * @neginf: the value that replaces -inf; NaN: the dtype's lowest finite value
 *   (torch's `neginf=None`)
 * @error: return location for a #GError
 *
 * Replaces NaN, positive and negative infinity (like `torch.nan_to_num`);
 * integer and bool tensors are copied unchanged. The replaced elements get
 * no gradient, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor of @self's dtype, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nan_to_num (GnnTensor *self,
                       double     nan,
                       double     posinf,
                       double     neginf,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("nan_to_num", self, error, NULL);
  return gnn_tensor_record (GNN_OP_NAN_TO_NUM, nan_to_num_values (self, nan, posinf, neginf, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_nan_to_num_:
 * @self: the tensor to update, possibly a view
 * @nan: as for [method@Gnn.Tensor.nan_to_num]
 * @posinf: as for [method@Gnn.Tensor.nan_to_num] (NaN: the largest value)
 * @neginf: as for [method@Gnn.Tensor.nan_to_num] (NaN: the lowest value)
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.nan_to_num] (like `self.nan_to_num_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_nan_to_num_ (GnnTensor *self,
                        double     nan,
                        double     posinf,
                        double     neginf,
                        GError   **error)
{
  g_autoptr(GnnTensor) values = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("nan_to_num_", self, error, FALSE);
  values = nan_to_num_values (self, nan, posinf, neginf, error);
  return values != NULL && gnn_ew_assign_ (self, values, GNN_OP_NAN_TO_NUM, NULL, 0, NULL, error);
}
