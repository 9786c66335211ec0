/* gnn-backward-helpers.c: shapes and copies the backward functions share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"

GnnTensor *
gnn_ag_sum_to (GnnTensor     *grad,
               const GnnMeta *meta,
               GError       **error)
{
  GnnTensorPrivate *gp = gnn_tensor_priv (grad);
  gint dims[GNN_MAX_DIMS];
  guint n = 0, lead;
  g_autoptr(GnnTensor) summed = NULL;

  if (gp->ndim == meta->ndim && memcmp (gp->shape, meta->shape, sizeof (gint64) * gp->ndim) == 0)
    return g_object_ref (grad);
  lead = gp->ndim - meta->ndim;
  for (guint d = 0; d < gp->ndim; d++)
    if (d < lead || (meta->shape[d - lead] == 1 && gp->shape[d] != 1))
      dims[n++] = (gint) d;
  if (n == 0)
    return gnn_tensor_reshape (grad, meta->shape, meta->ndim, error);
  summed = gnn_tensor_sum (grad, dims, n, TRUE, error);
  if (summed == NULL)
    return NULL;
  return gnn_tensor_reshape (summed, meta->shape, meta->ndim, error);
}

GnnTensor *
gnn_ag_zeros (const GnnMeta *meta)
{
  return gnn_tensor_new_contiguous (meta->dtype, meta->shape, meta->ndim, TRUE);
}

double *
gnn_ag_doubles (GnnTensor *t)
{
  return gnn_tensor_to_doubles (t, NULL);
}

GnnTensor *
gnn_ag_from_doubles (double        *values,
                     const GnnMeta *meta)
{
  GnnTensor *out = gnn_tensor_new_contiguous (meta->dtype, meta->shape, meta->ndim, FALSE);
  GnnTensorPrivate *p = gnn_tensor_priv (out);

  if (p->dtype == GNN_DTYPE_F64)
    memcpy (gnn_tensor_priv_data (p), values, sizeof (double) * (gsize) p->numel);
  else
    {
      float *o = (float *) gnn_tensor_priv_data (p);

      for (gint64 i = 0; i < p->numel; i++)
        o[i] = (float) values[i];
    }
  g_free (values);
  return out;
}
