/* gnn-tensor-embedding.c: embedding lookup (torch.nn.functional.embedding)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
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
GnnTensor *
gnn_tensor_embedding (GnnTensor *weight,
                      GnnTensor *indices,
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
  return gnn_tensor_record (GNN_OP_EMBEDDING, out, &weight, 1, &(GnnOpParams) { .extra = { indices } });
}
