/* gnn-linalg-common.c: torch's checks of linalg inputs and the packed
 * column-major copies LAPACK works on (gnn-linalg-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-linalg-private.h"
#include "tensor/gnn-dtype-check-private.h"

gboolean
gnn_linalg_check_matrix (const char *op,
                         GnnTensor  *a,
                         GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (a);

  if (!gnn_dtype_is_floating (p->dtype) || p->dtype == GNN_DTYPE_F16 ||
      p->dtype == GNN_DTYPE_BF16)
    {
      if (gnn_dtype_is_floating (p->dtype))
        g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                     "%s: Low precision dtypes not supported. Got %s", op,
                     gnn_torch_scalar_name (p->dtype));
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                     "%s: Expected a floating point or complex tensor as input. Got %s", op,
                     gnn_torch_scalar_name (p->dtype));
      return FALSE;
    }
  if (p->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: The input tensor A must have at least 2 dimensions.", op);
      return FALSE;
    }
  if (p->shape[p->ndim - 1] > G_MAXINT32 / 2 || p->shape[p->ndim - 2] > G_MAXINT32 / 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: matrices of size %" G_GINT64_FORMAT " by %" G_GINT64_FORMAT
                   " exceed LAPACK's int", op, p->shape[p->ndim - 2], p->shape[p->ndim - 1]);
      return FALSE;
    }
  return gnn_check_storage (op, a, error);
}

gboolean
gnn_linalg_check_square (const char *op,
                         GnnTensor  *a,
                         GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (a);

  if (!gnn_linalg_check_matrix (op, a, error))
    return FALSE;
  if (p->shape[p->ndim - 1] != p->shape[p->ndim - 2])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: A must be batches of square matrices, but they are %" G_GINT64_FORMAT
                   " by %" G_GINT64_FORMAT " matrices", op, p->shape[p->ndim - 2],
                   p->shape[p->ndim - 1]);
      return FALSE;
    }
  return TRUE;
}

/* A packed copy of @a's matrices broadcast to @batch (@nb dims), each
 * stored column-major: shape [batch..., cols, rows] row-major. Not recorded. */
GnnTensor *
gnn_linalg_colmajor_copy (GnnTensor     *a,
                          const gint64  *batch,
                          guint          nb,
                          GError       **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (a);
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) view = NULL;
  gint64 rows = p->shape[p->ndim - 2], cols = p->shape[p->ndim - 1];

  memcpy (shape, batch, sizeof (gint64) * nb);
  shape[nb] = rows;
  shape[nb + 1] = cols;
  gnn_broadcast_strides (a, shape, nb + 2, strides);
  shape[nb] = cols;
  shape[nb + 1] = rows;
  { gint64 s = strides[nb]; strides[nb] = strides[nb + 1]; strides[nb + 1] = s; }
  view = gnn_tensor_new_view (a, shape, strides, nb + 2, p->offset);
  return gnn_tensor_copy_checked (view, p->dtype, error);
}

/* @buf ([batch..., cols, rows] packed) as the [batch..., rows, cols] tensor
 * it holds column-major: torch's layout of linalg results. */
GnnTensor *
gnn_linalg_as_matrices (GnnTensor *buf)
{
  GnnTensorPrivate *p = gnn_tensor_priv (buf);
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint nd = p->ndim;

  memcpy (shape, p->shape, sizeof (gint64) * nd);
  memcpy (strides, p->strides, sizeof (gint64) * nd);
  shape[nd - 2] = p->shape[nd - 1];
  shape[nd - 1] = p->shape[nd - 2];
  strides[nd - 2] = 1;
  strides[nd - 1] = p->shape[nd - 1];
  return gnn_tensor_new_with_storage (p->storage, p->dtype, shape, strides, nd, p->offset);
}

gint64
gnn_linalg_batch_count (const gint64 *batch,
                        guint         nb)
{
  gint64 count = 1;

  for (guint i = 0; i < nb; i++)
    count *= batch[i];
  return count;
}

/* "(Batch element i): " when @a is a batch, else "". */
char *
gnn_linalg_batch_prefix (guint  ndim,
                         gint64 index)
{
  if (ndim <= 2)
    return g_strdup ("");
  return g_strdup_printf ("(Batch element %" G_GINT64_FORMAT "): ", index);
}
