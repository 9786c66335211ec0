/* gnn-tensor-nll.c: the negative log-likelihood loss over class scores
 * (torch.nn.functional.nll_loss), for [C], [N, C] and [N, C, d1, ...]
 * inputs, with class weights and an ignored target value; its gradient is
 * in lib/autograd/gnn-backward-loss.c
 *
 * The input is read in place as [N, C, inner] (no permute of the class
 * dimension), the loss gathered in one pass. Built with -O3.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-nn-ops-private.h"
#include "tensor/gnn-dtype-check-private.h"

/* PyTorch's checks of nll_loss_nd, in its order and words. */
static gboolean
check_shapes (GnnTensorPrivate *ip,
              GnnTensorPrivate *tp,
              GError          **error)
{
  gint64 expect[GNN_MAX_DIMS];
  guint en = 0;

  if (ip->ndim < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected 1 or more dimensions (got %u)", ip->ndim);
      return FALSE;
    }
  if (ip->ndim != 1 && (tp->ndim == 0 || ip->shape[0] != tp->shape[0]))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected input batch_size (%" G_GINT64_FORMAT ") to match target "
                   "batch_size (%" G_GINT64_FORMAT ").", ip->shape[0],
                   tp->ndim > 0 ? tp->shape[0] : 1);
      return FALSE;
    }
  if (ip->ndim <= 2 && tp->ndim > 1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "0D or 1D target tensor expected, multi-target not supported");
      return FALSE;
    }
  for (guint d = 0; d < ip->ndim; d++)
    if (d != (ip->ndim == 1 ? 0u : 1u))
      expect[en++] = ip->shape[d];
  if (tp->ndim != en || memcmp (tp->shape, expect, sizeof (gint64) * en) != 0)
    {
      g_autofree char *es = gnn_shape_to_string (expect, en);
      g_autofree char *ts = gnn_shape_to_string (tp->shape, tp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "Expected target size %s, got %s", es, ts);
      return FALSE;
    }
  return TRUE;
}

#define NLL_LOOP(T)                                                             \
  G_STMT_START {                                                                \
    const T *x = (const T *) gnn_tensor_priv_data (gnn_tensor_priv (xc));       \
    const T *w = wc != NULL ? (const T *) gnn_tensor_priv_data (gnn_tensor_priv (wc)) : NULL; \
    T *y = reduction == GNN_REDUCTION_NONE ? (T *) gnn_tensor_priv_data (gnn_tensor_priv (out)) \
                                           : NULL;                              \
    for (gint64 b = 0; b < batch; b++)                                          \
      for (gint64 k = 0; k < inner; k++)                                        \
        {                                                                       \
          gint64 m = b * inner + k, c = t[m];                                   \
          double wc_ = 0, l = 0;                                                \
          if (c != ignore_index)                                                \
            {                                                                   \
              wc_ = w != NULL ? (double) w[c] : 1.0;                            \
              l = -wc_ * (double) x[(b * classes + c) * inner + k];             \
            }                                                                   \
          if (y != NULL)                                                        \
            y[m] = (T) l;                                                       \
          sum += l;                                                             \
          total_weight += wc_;                                                  \
        }                                                                       \
  } G_STMT_END

GnnTensor *
gnn_tensor_nll_loss (GnnTensor     *input,
                     GnnTensor     *target,
                     GnnTensor     *weight,
                     gint64         ignore_index,
                     GnnReduction   reduction,
                     GError       **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input), *tp = gnn_tensor_priv (target);
  gint64 batch, classes, inner = 1, n;
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) tc = NULL;
  g_autoptr(GnnTensor) wc = NULL;
  GnnOpParams params = { .n_ints = 3, .ints = { reduction, ip->ndim, ignore_index } };
  const gint64 *t;
  double sum = 0, total_weight = 0;
  GnnTensor *out;

  if (!check_shapes (ip, tp, error))
    return NULL;
  if (!gnn_dtype_is_floating (ip->dtype) || ip->dtype == GNN_DTYPE_F16 || ip->dtype == GNN_DTYPE_BF16)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "nll_loss: expected a float32 or float64 input, got %s",
                   gnn_dtype_get_name (ip->dtype));
      return NULL;
    }
  if (tp->dtype != GNN_DTYPE_I64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "expected scalar type Long but found %s", gnn_torch_scalar_name (tp->dtype));
      return NULL;
    }
  batch = ip->ndim == 1 ? 1 : ip->shape[0];
  classes = ip->shape[ip->ndim == 1 ? 0 : 1];
  for (guint d = 2; d < ip->ndim; d++)
    inner *= ip->shape[d];
  n = batch * inner;
  if (weight != NULL)
    {
      GnnTensorPrivate *wp = gnn_tensor_priv (weight);

      if (wp->ndim != 1 || wp->numel != classes)
        {
          g_autofree char *ws = gnn_shape_to_string (wp->shape, wp->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "weight tensor should be defined either for all %" G_GINT64_FORMAT
                       " classes or no classes but got weight tensor of shape: %s", classes, ws);
          return NULL;
        }
      if ((wc = gnn_tensor_copy_checked (weight, ip->dtype, error)) == NULL)
        return NULL;
    }
  if ((tc = gnn_tensor_copy_checked (target, GNN_DTYPE_I64, error)) == NULL ||
      (xc = gnn_tensor_contiguous_checked (input, error)) == NULL)
    return NULL;
  t = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (tc));
  for (gint64 m = 0; m < n; m++)
    if (t[m] != ignore_index && (t[m] < 0 || t[m] >= classes))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "Target %" G_GINT64_FORMAT " is out of bounds.",
                     t[m]);
        return NULL;
      }

  out = reduction == GNN_REDUCTION_NONE
        ? gnn_tensor_new_contiguous_checked (ip->dtype, tp->shape, tp->ndim, FALSE, error)
        : gnn_tensor_new_contiguous_checked (ip->dtype, NULL, 0, FALSE, error);
  if (out == NULL)
    return NULL;
  if (ip->dtype == GNN_DTYPE_F32)
    NLL_LOOP (float);
  else
    NLL_LOOP (double);
  if (reduction != GNN_REDUCTION_NONE)
    gnn_dtype_write (ip->dtype, gnn_tensor_priv_data (gnn_tensor_priv (out)),
                     reduction == GNN_REDUCTION_SUM ? sum : sum / total_weight);
  params.scalar = total_weight;
  params.extra[0] = tc;
  params.extra[1] = wc;
  return gnn_tensor_record (GNN_OP_NLL_LOSS, out, &input, 1, &params);
}
