/* gnn-tensor-embedding.c: embedding lookup (torch.nn.functional.embedding)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/**
 * gnn_tensor_embedding:
 * @weight: the embedding table `[num_embeddings, embedding_dim]`, any dtype
 * @indices: the rows to look up, int64 or int32, any shape
 * @error: return location for a #GError
 *
 * Looks up rows of @weight, `torch.nn.functional.embedding (indices,
 * weight)`: the result has the shape of @indices followed by
 * `embedding_dim`, and the dtype of @weight.
 *
 * Fails with %GNN_ERROR_INDEX "index out of range in self" when an index is
 * negative or not below `num_embeddings`, with %GNN_ERROR_DTYPE when
 * @indices is not an integer tensor of 32 or 64 bits, and with
 * %GNN_ERROR_SHAPE "'weight' must be 2-D".
 *
 * Returns: (transfer full): the embeddings, or %NULL on error
 *
 * Since: 0.1
 */
static GnnTensor *
embedding (GnnTensor *weight,
           GnnTensor *indices,
           gint64     padding_row,
           gboolean   scale_grad_by_freq,
           GError   **error)
{
  GNN_CHECK_STORAGE ("embedding", weight, error, NULL);
  GNN_CHECK_STORAGE ("embedding", indices, error, NULL);
  GnnTensorPrivate *wp, *ip;
  g_autoptr(GnnTensor) wc = NULL;
  g_autoptr(GnnTensor) idx = NULL;
  gint64 out_shape[GNN_MAX_DIMS];
  gint64 rows, dim;
  gsize row_bytes;
  const gint64 *iv;
  const guint8 *src;
  GnnTensor *out;
  guint8 *dst;

  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (indices), NULL);
  wp = gnn_tensor_priv (weight);
  ip = gnn_tensor_priv (indices);

  if (ip->dtype != GNN_DTYPE_I64 && ip->dtype != GNN_DTYPE_I32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "Expected tensor for argument #1 'indices' to have one of the following scalar "
                   "types: Long, Int; but got %s instead (while checking arguments for embedding)",
                   gnn_dtype_get_name (ip->dtype));
      return NULL;
    }
  if (wp->ndim != 2)
    {
      g_autofree char *ws = gnn_shape_to_string (wp->shape, wp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "'weight' must be 2-D, but got weight of size %s", ws);
      return NULL;
    }
  if (ip->ndim + 1 > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "embedding: indices have %u dims, the result would exceed %d dims",
                   ip->ndim, GNN_MAX_DIMS);
      return NULL;
    }
  rows = wp->shape[0];
  dim = wp->shape[1];

  idx = gnn_tensor_to_dtype (indices, GNN_DTYPE_I64, error);
  if (idx == NULL)
    return NULL;
  if (!gnn_tensor_is_contiguous (idx))
    {
      GnnTensor *c = gnn_tensor_contiguous_checked (idx, error);

      g_object_unref (idx);
      idx = c;
      if (idx == NULL)
        return NULL;
    }
  iv = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (idx));
  for (gint64 i = 0; i < ip->numel; i++)
    if (iv[i] < 0 || iv[i] >= rows)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "index out of range in self (index %" G_GINT64_FORMAT " at position %"
                     G_GINT64_FORMAT ", num_embeddings %" G_GINT64_FORMAT ")", iv[i], i, rows);
        return NULL;
      }

  memcpy (out_shape, ip->shape, sizeof (gint64) * ip->ndim);
  out_shape[ip->ndim] = dim;
  out = gnn_tensor_new_contiguous_checked (wp->dtype, out_shape, ip->ndim + 1, FALSE, error);
  if (out == NULL)
    return NULL;
  if (gnn_tensor_priv (out)->numel == 0)
    return out;

  wc = gnn_tensor_contiguous_checked (weight, error);
  if (wc == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  src = gnn_tensor_priv_data (gnn_tensor_priv (wc));
  dst = gnn_tensor_priv_data (gnn_tensor_priv (out));
  row_bytes = gnn_dtype_get_size (wp->dtype) * (gsize) dim;
  for (gint64 i = 0; i < ip->numel; i++)
    memcpy (dst + (gsize) i * row_bytes, src + (gsize) iv[i] * row_bytes, row_bytes);
  return gnn_tensor_record (GNN_OP_EMBEDDING, out, &weight, 1,
                            &(GnnOpParams) { .extra = { indices }, .ints = { padding_row }, .n_ints = 1,
                                             .flag = scale_grad_by_freq });
}

GnnTensor *
gnn_tensor_embedding (GnnTensor *weight,
                      GnnTensor *indices,
                      GError   **error)
{
  return embedding (weight, indices, -1, FALSE, error);
}

/* torch's check and normalization of padding_idx against @rows. */
static gboolean
padding_row (gboolean  has_padding_idx,
             gint64    padding_idx,
             gint64    rows,
             gint64   *row,
             GError  **error)
{
  *row = -1;
  if (!has_padding_idx)
    return TRUE;
  if (padding_idx >= rows || padding_idx < -rows)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "Padding_idx must be within num_embeddings");
      return FALSE;
    }
  *row = padding_idx < 0 ? padding_idx + rows : padding_idx;
  return TRUE;
}

/**
 * gnn_tensor_embedding_full:
 * @weight: the embedding table `[num_embeddings, embedding_dim]`
 * @indices: the rows to look up, int64 or int32, any shape
 * @has_padding_idx: whether @padding_idx names a padding row
 * @padding_idx: with @has_padding_idx, the row that gets no gradient (its
 *   entries do not contribute to the weight's gradient), negative counting
 *   from the end
 * @scale_grad_by_freq: whether each row's gradient is divided by the
 *   number of times @indices look it up
 * @error: return location for a #GError
 *
 * [method@Gnn.Tensor.embedding] with the gradient options of
 * `torch.nn.functional.embedding (indices, weight, padding_idx,
 * scale_grad_by_freq=…)`. Its `max_norm` is
 * [method@Gnn.Tensor.embedding_renorm_] on @weight first.
 *
 * Returns: (transfer full): the embeddings, or %NULL on error
 *   ("Padding_idx must be within num_embeddings")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_embedding_full (GnnTensor *weight,
                           GnnTensor *indices,
                           gboolean   has_padding_idx,
                           gint64     padding_idx,
                           gboolean   scale_grad_by_freq,
                           GError   **error)
{
  gint64 row;

  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (indices), NULL);
  if (!padding_row (has_padding_idx, padding_idx, gnn_tensor_priv (weight)->ndim > 0
                    ? gnn_tensor_priv (weight)->shape[0] : 0, &row, error))
    return NULL;
  return embedding (weight, indices, row, scale_grad_by_freq, error);
}

/**
 * gnn_tensor_embedding_renorm_:
 * @weight: the embedding table `[num_embeddings, embedding_dim]`, float32
 *   or float64, changed in place
 * @indices: the rows to look at, int64 or int32, any shape (out-of-range
 *   ones are refused as by [method@Gnn.Tensor.embedding])
 * @max_norm: the largest norm a row may keep
 * @norm_type: the p of the p-norm
 * @error: return location for a #GError
 *
 * Rescales, in place and outside the autograd graph, each row of @weight
 * named by @indices whose @norm_type-norm exceeds @max_norm to the norm
 * @max_norm (`row · max_norm / (norm + 1e-7)`), torch's
 * `embedding_renorm_` (an Embedding with `max_norm` runs it before each
 * lookup).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_embedding_renorm_ (GnnTensor *weight,
                              GnnTensor *indices,
                              double     max_norm,
                              double     norm_type,
                              GError   **error)
{
  GNN_CHECK_STORAGE ("embedding_renorm_", weight, error, FALSE);
  GNN_CHECK_STORAGE ("embedding_renorm_", indices, error, FALSE);
  g_autoptr(GnnTensor) idx = NULL;
  GnnTensorPrivate *wp, *ip;
  g_autofree guint8 *seen = NULL;
  gint64 rows, dim;
  const gint64 *iv;

  g_return_val_if_fail (GNN_IS_TENSOR (weight), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (indices), FALSE);
  wp = gnn_tensor_priv (weight);
  ip = gnn_tensor_priv (indices);
  if (wp->ndim != 2 || !gnn_tensor_is_contiguous (weight) ||
      (wp->dtype != GNN_DTYPE_F32 && wp->dtype != GNN_DTYPE_F64))
    {
      g_autofree char *ws = gnn_shape_to_string (wp->shape, wp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "embedding_renorm_: expected a contiguous 2-D float weight, but got weight of size %s", ws);
      return FALSE;
    }
  if (ip->dtype != GNN_DTYPE_I64 && ip->dtype != GNN_DTYPE_I32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, "
                   "Int; but got %s instead (while checking arguments for embedding_renorm_)",
                   gnn_dtype_get_name (ip->dtype));
      return FALSE;
    }
  rows = wp->shape[0];
  dim = wp->shape[1];
  if ((idx = gnn_tensor_copy_checked (indices, GNN_DTYPE_I64, error)) == NULL)
    return FALSE;
  iv = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (idx));
  for (gint64 i = 0; i < ip->numel; i++)
    if (iv[i] < 0 || iv[i] >= rows)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "index out of range in self (index %" G_GINT64_FORMAT " at position %" G_GINT64_FORMAT
                     ", num_embeddings %" G_GINT64_FORMAT ")", iv[i], i, rows);
        return FALSE;
      }
  seen = g_try_malloc0 ((gsize) MAX (rows, 1));
  if (seen == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_MEMORY, "embedding_renorm_: out of memory");
      return FALSE;
    }
  for (gint64 i = 0; i < ip->numel; i++)
    {
      guint8 *row = gnn_tensor_priv_data (wp) + (gsize) (iv[i] * dim) * gnn_dtype_get_size (wp->dtype);
      double norm = 0;

      if (seen[iv[i]]++)
        continue;
      for (gint64 j = 0; j < dim; j++)
        {
          double v = fabs (wp->dtype == GNN_DTYPE_F32 ? ((float *) row)[j] : ((double *) row)[j]);

          norm += norm_type == 1.0 ? v : norm_type == 2.0 ? v * v : isinf (norm_type) ? 0 : pow (v, norm_type);
          if (isinf (norm_type))
            norm = MAX (norm, v);
        }
      norm = norm_type == 1.0 || isinf (norm_type) ? norm : norm_type == 2.0 ? sqrt (norm) : pow (norm, 1.0 / norm_type);
      if (norm > max_norm)
        {
          double scale = max_norm / (norm + 1e-7);

          for (gint64 j = 0; j < dim; j++)
            if (wp->dtype == GNN_DTYPE_F32)
              ((float *) row)[j] = (float) (((float *) row)[j] * scale);
            else
              ((double *) row)[j] *= scale;
        }
    }
  return TRUE;
}
