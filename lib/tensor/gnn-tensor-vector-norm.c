/* gnn-tensor-vector-norm.c: the p-norm over dims (torch.norm with a dim,
 * torch.linalg.vector_norm), behind normalize, pairwise_distance,
 * cosine_similarity, clip_grad_norm_ and the norm-based weight
 * reparametrizations; its gradient is in lib/autograd/gnn-backward-reduce.c
 *
 * The reduced dims are moved last and packed, so every output element
 * reduces one contiguous row, accumulated in double. Built with -O3.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-nn-ops-private.h"
#include "tensor/gnn-dtype-check-private.h"

#define ROW_LOOP(T, INIT, STEP, FINISH)                                         \
  G_STMT_START {                                                                \
    const T *x = xp;                                                            \
    T *y = yp;                                                                  \
    for (gint64 r = 0; r < rows; r++)                                           \
      {                                                                         \
        const T *row = x + r * inner;                                           \
        double acc = (INIT);                                                    \
        for (gint64 k = 0; k < inner; k++)                                      \
          {                                                                     \
            const double v = fabs ((double) row[k]);                            \
            acc = (STEP);                                                       \
          }                                                                     \
        y[r] = (T) (FINISH);                                                    \
      }                                                                         \
  } G_STMT_END

#define NORM_LOOPS(T)                                                           \
  G_STMT_START {                                                                \
    if (p == 2)                                                                 \
      ROW_LOOP (T, 0.0, acc + v * v, sqrt (acc));                               \
    else if (p == 1)                                                            \
      ROW_LOOP (T, 0.0, acc + v, acc);                                          \
    else if (p == INFINITY)                                                     \
      ROW_LOOP (T, 0.0, v > acc || isnan (v) ? v : acc, acc);                   \
    else if (p == -INFINITY)                                                    \
      ROW_LOOP (T, INFINITY, v < acc || isnan (v) ? v : acc, acc);              \
    else if (p == 0)                                                            \
      ROW_LOOP (T, 0.0, acc + (v != 0), acc);                                   \
    else                                                                        \
      ROW_LOOP (T, 0.0, acc + pow (v, p), pow (acc, 1.0 / p));                  \
  } G_STMT_END

/**
 * gnn_tensor_norm:
 * @self: a floating-point #GnnTensor
 * @p: the order: any real number, `INFINITY` (the largest |x|), `-INFINITY`
 *   (the smallest) or 0 (the number of non-zero elements)
 * @dims: (array length=n_dims) (nullable): the dims to reduce (negative
 *   counts from the end)
 * @n_dims: the number of dims; 0 reduces over all of them
 * @keepdim: whether reduced dims stay in the result with size 1
 * @error: return location for a #GError
 *
 * The vector p-norm `(Σ |x|^p)^(1/p)` over @dims, like
 * `torch.norm (self, p, dims, keepdim)` and `torch.linalg.vector_norm`.
 * Differentiable (where the norm is 0 the gradient is 0, as PyTorch's; for
 * ±inf it is shared among the elements that reach the norm).
 *
 * Returns: (transfer full): the norms, or %NULL with @error set for a
 *   non-float @self or a dim out of range or listed twice
 *
 * Since: 1.0
 */
GnnTensor *
gnn_tensor_norm (GnnTensor  *self,
                 double      p,
                 const gint *dims,
                 guint       n_dims,
                 gboolean    keepdim,
                 GError    **error)
{
  GnnTensorPrivate *sp;
  gboolean reduce[GNN_MAX_DIMS] = { FALSE, };
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS], out_shape[GNN_MAX_DIMS];
  guint k = 0, out_ndim = 0;
  gint64 rows = 1, inner = 1;
  g_autoptr(GnnTensor) moved = NULL;
  g_autoptr(GnnTensor) packed = NULL;
  GnnTensor *out;
  GnnOpParams params = { .n_dims = MIN (n_dims, GNN_MAX_DIMS), .keepdim = keepdim, .scalar = p };
  gconstpointer xp;
  gpointer yp;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("norm", self, error, NULL);
  sp = gnn_tensor_priv (self);
  if (sp->dtype != GNN_DTYPE_F32 && sp->dtype != GNN_DTYPE_F64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "norm(): input dtype should be either floating point or complex. Got %s "
                   "instead.", gnn_torch_scalar_name (sp->dtype));
      return NULL;
    }
  if (isnan (p))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "norm: the order p is NaN");
      return NULL;
    }
  if (!gnn_reduce_resolve_dims (sp, dims, n_dims, reduce, error))
    return NULL;

  /* kept dims first, reduced dims last: a view, not recorded */
  for (guint d = 0; d < sp->ndim; d++)
    if (!reduce[d])
      {
        shape[k] = sp->shape[d], strides[k++] = sp->strides[d];
        rows *= sp->shape[d];
      }
  for (guint d = 0; d < sp->ndim; d++)
    if (reduce[d])
      {
        shape[k] = sp->shape[d], strides[k++] = sp->strides[d];
        inner *= sp->shape[d];
      }
  for (guint d = 0; d < sp->ndim; d++)
    if (!reduce[d] || keepdim)
      out_shape[out_ndim++] = reduce[d] ? 1 : sp->shape[d];
  moved = gnn_tensor_new_view (self, shape, strides, sp->ndim, sp->offset);
  if ((packed = gnn_tensor_contiguous_checked (moved, error)) == NULL ||
      (out = gnn_tensor_new_contiguous_checked (sp->dtype, out_shape, out_ndim, FALSE, error)) == NULL)
    return NULL;
  xp = gnn_tensor_priv_data (gnn_tensor_priv (packed));
  yp = gnn_tensor_priv_data (gnn_tensor_priv (out));
  if (sp->dtype == GNN_DTYPE_F32)
    NORM_LOOPS (float);
  else
    NORM_LOOPS (double);
  for (guint i = 0; i < params.n_dims; i++)
    params.dims[i] = dims[i];
  return gnn_tensor_record (GNN_OP_NORM, out, &self, 1, &params);
}
