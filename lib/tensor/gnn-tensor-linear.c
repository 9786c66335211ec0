/* gnn-tensor-linear.c: y = x·Wᵀ + b in one step, for Linear's forward when
 * autograd records nothing
 *
 * The recorded path (transpose view, matmul, in-place add) builds three graph
 * nodes' worth of tensors; with grad off a 1×16 Linear spent most of its time
 * creating and destroying the intermediate view and dispatching the add.
 * Here the output is the only tensor created and the bias is folded into the
 * product (the small kernel adds it, OpenBLAS starts from it with beta = 1).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <cblas.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-gemm-small-private.h"

/* Whether the leading dims of @p fold into rows @row_stride apart (the last
 * dim having stride 1), so @p is an m × k row-major matrix. */
static gboolean
rows_fold (GnnTensorPrivate *p,
           gint64            k,
           gint64           *row_stride)
{
  gint64 expect;

  if (k > 1 && p->strides[p->ndim - 1] != 1)
    return FALSE;
  *row_stride = k;
  if (p->ndim < 2)
    return TRUE;
  expect = p->shape[p->ndim - 2] > 1 ? p->strides[p->ndim - 2] : k;
  if (expect < k)
    return FALSE;
  *row_stride = expect;
  for (gint d = (gint) p->ndim - 2; d >= 0; d--)
    {
      if (p->shape[d] == 1)
        continue;
      if (p->strides[d] != expect)
        return FALSE;
      expect *= p->shape[d];
    }
  return TRUE;
}

/* Computes x·Wᵀ + b into a new tensor without recording it. Returns FALSE,
 * with *out NULL and no error, when the operands are not float32 tensors of
 * a layout it handles or the shapes do not fit (the caller then takes the
 * general path, which reports errors); TRUE with *out set, or with *out NULL
 * and @error set when the output cannot be allocated. */
gboolean
gnn_tensor_linear_nograd (GnnTensor  *input,
                          GnnTensor  *weight,
                          GnnTensor  *bias,
                          GnnTensor **out,
                          GError    **error)
{
  GnnTensorPrivate *xp = gnn_tensor_priv (input);
  GnnTensorPrivate *wp = gnn_tensor_priv (weight);
  GnnTensorPrivate *bp = bias != NULL ? gnn_tensor_priv (bias) : NULL;
  gint64 shape[GNN_MAX_DIMS];
  gint64 m, n, k, lda, ldb;
  gboolean trans_b;
  const float *x, *w, *b;
  float *c;

  *out = NULL;
  if (xp->dtype != GNN_DTYPE_F32 || wp->dtype != GNN_DTYPE_F32 || xp->ndim == 0 ||
      wp->ndim != 2 || (bp != NULL && (bp->dtype != GNN_DTYPE_F32 || bp->ndim != 1)))
    return FALSE;
  n = wp->shape[0];
  k = wp->shape[1];
  if (xp->shape[xp->ndim - 1] != k || k == 0 || n == 0 || xp->numel == 0 ||
      (bp != NULL && (bp->shape[0] != n || (n > 1 && bp->strides[0] != 1))))
    return FALSE;
  /* W row-major is Bᵀ (trans_b); a transposed view of a row-major matrix is B */
  if (wp->strides[1] == 1 || k == 1)
    trans_b = TRUE, ldb = n > 1 ? wp->strides[0] : k;
  else if (wp->strides[0] == 1 || n == 1)
    trans_b = FALSE, ldb = wp->strides[1];
  else
    return FALSE;
  if (ldb < (trans_b ? k : n) || !rows_fold (xp, k, &lda))
    return FALSE;
  m = xp->numel / k;

  memcpy (shape, xp->shape, sizeof (gint64) * xp->ndim);
  shape[xp->ndim - 1] = n;
  *out = gnn_tensor_new_contiguous_checked (GNN_DTYPE_F32, shape, xp->ndim, FALSE, error);
  if (*out == NULL)
    return TRUE;
  x = (const float *) gnn_tensor_priv_data (xp);
  w = (const float *) gnn_tensor_priv_data (wp);
  b = bp != NULL ? (const float *) gnn_tensor_priv_data (bp) : NULL;
  c = (float *) gnn_tensor_priv_data (gnn_tensor_priv (*out));

  if (gnn_sgemm_small_fits (FALSE, trans_b, m, n, k))
    {
      gnn_sgemm_small (FALSE, trans_b, m, n, k, x, lda, w, ldb, b, c, n);
      return TRUE;
    }
  if (b != NULL)
    for (gint64 i = 0; i < m; i++)
      memcpy (c + i * n, b, sizeof (float) * (gsize) n);
  if (m == 1)
    cblas_sgemv (CblasRowMajor, trans_b ? CblasNoTrans : CblasTrans, trans_b ? n : k,
                 trans_b ? k : n, 1.0f, w, ldb, x, 1, b != NULL ? 1.0f : 0.0f, c, 1);
  else
    gnn_parallel_gemm_f32 (CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, m, n, k,
                           1.0f, x, lda, w, ldb, b != NULL ? 1.0f : 0.0f, c, n);
  return TRUE;
}

/**
 * gnn_tensor_linear:
 * @input: the input, (*, in_features)
 * @weight: the weight, (out_features, in_features)
 * @bias: (nullable): the bias, (out_features), or %NULL
 * @error: return location for a #GError
 *
 * `torch.nn.functional.linear`: y = input · weightᵀ + bias, over the
 * input's last dim. Leading dims fold into the rows of one matrix product
 * (a view when the input's layout allows), so the weight's gradient is one
 * GEMM whatever the input's rank; without autograd the bias is folded into
 * the product and the output is the only tensor allocated.
 *
 * Returns: (transfer full): the output, (*, out_features), or %NULL with
 *   @error set ("mat1 and mat2 shapes cannot be multiplied (6x4 and 5x3)")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linear (GnnTensor  *input,
                   GnnTensor  *weight,
                   GnnTensor  *bias,
                   GError    **error)
{
  GnnTensorPrivate *xp;
  g_autoptr(GnnTensor) output = NULL;
  g_autoptr(GnnTensor) weight_t = NULL;
  g_autoptr(GnnTensor) rows = NULL;
  gint64 shape[GNN_MAX_DIMS];
  guint nd;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_CHECK_STORAGE ("linear", input, error, NULL);
  GNN_CHECK_STORAGE ("linear", weight, error, NULL);
  GNN_CHECK_STORAGE ("linear", bias, error, NULL);

  /* Nothing to record: one fused product with the bias. */
  if (!gnn_tensor_would_record ((GnnTensor *[]) { input, weight, bias }, 3) &&
      gnn_tensor_linear_nograd (input, weight, bias, &output, error))
    return g_steal_pointer (&output);

  xp = gnn_tensor_priv (input);
  weight_t = gnn_tensor_transpose (weight, 0, 1, error);
  if (weight_t == NULL)
    return NULL;
  nd = xp->ndim;
  if (nd > 2)
    {
      /* [*, k] as one [m, k] matrix: torch folds the same way */
      gint64 k = xp->shape[nd - 1], m = 1;

      for (guint d = 0; d + 1 < nd; d++)
        m *= xp->shape[d];
      rows = gnn_tensor_reshape (input, (gint64[]) { m, k }, 2, error);
    }
  else
    rows = g_object_ref (input);
  if (rows == NULL || (output = gnn_tensor_matmul (rows, weight_t, error)) == NULL)
    return NULL;
  if (bias != NULL && !gnn_tensor_add_ (output, bias, error))
    return NULL;
  if (nd <= 2)
    return g_steal_pointer (&output);
  memcpy (shape, xp->shape, sizeof (gint64) * nd);
  shape[nd - 1] = gnn_tensor_priv (output)->shape[1];
  return gnn_tensor_reshape (output, shape, nd, error);
}
