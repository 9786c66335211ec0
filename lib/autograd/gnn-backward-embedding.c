/* gnn-backward-embedding.c: gradients of the embedding lookups (embedding,
 * embedding_bag)
 *
 * The weight's gradient is a scatter-add of gradient rows into the rows
 * they were looked up from, done in the weight's own dtype (a language
 * model's 10k × 650 table took a double copy of itself, twice, per step).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-embedding-bag-private.h"

/* dst[0 .. dim) += scale · src[0 .. dim), in @dtype (float32 or float64). */
static inline void
add_row (GnnDType      dtype,
         gint64        dim,
         guint8       *dst,
         const guint8 *src,
         double        scale)
{
  if (dtype == GNN_DTYPE_F32)
    {
      float *restrict d = (float *) dst;
      const float *restrict s = (const float *) src;
      float k = (float) scale;

      if (scale == 1.0)
        for (gint64 j = 0; j < dim; j++)
          d[j] += s[j];
      else
        for (gint64 j = 0; j < dim; j++)
          d[j] += k * s[j];
    }
  else
    {
      double *restrict d = (double *) dst;
      const double *restrict s = (const double *) src;

      for (gint64 j = 0; j < dim; j++)
        d[j] += scale * s[j];
    }
}

/* The saved indices as contiguous int64 (a new reference). */
static GnnTensor *
indices_of (GnnTensor  *saved,
            GError    **error)
{
  g_autoptr(GnnTensor) wide = gnn_tensor_to_dtype (saved, GNN_DTYPE_I64, error);

  return wide != NULL ? gnn_tensor_contiguous_checked (wide, error) : NULL;
}

/* The rows of the gradient are added to the weight rows they came from,
 * but the padding row's (params.ints[0], -1: none); with scale_grad_by_freq
 * (params.flag) each row's sum is divided by its number of lookups. */
gboolean
gnn_backward_embedding (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  const GnnMeta *wm = &node->inputs[0];
  /* float16/bfloat16 tables (storage-only dtypes) add up in float64 */
  GnnDType work = wm->dtype == GNN_DTYPE_F32 ? GNN_DTYPE_F32 : GNN_DTYPE_F64;
  GnnMeta acc = *wm;
  gint64 rows = wm->shape[0], dim = wm->shape[1], padding = node->params.ints[0];
  gsize row = gnn_dtype_get_size (work) * (gsize) dim;
  g_autoptr(GnnTensor) idx = NULL;
  g_autoptr(GnnTensor) gw = NULL;
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) gt = NULL;
  g_autofree gint64 *count = NULL;
  const gint64 *iv;
  const guint8 *gd;
  guint8 *wd;

  acc.dtype = work;
  if ((idx = indices_of (node->params.extra[0], error)) == NULL ||
      (gt = gnn_tensor_to_dtype (grad, work, error)) == NULL ||
      (g = gnn_tensor_contiguous_checked (gt, error)) == NULL)
    return FALSE;
  gw = gnn_ag_zeros (&acc);
  iv = gnn_tensor_get_data (idx);
  gd = gnn_tensor_priv_data (gnn_tensor_priv (g));
  wd = gnn_tensor_priv_data (gnn_tensor_priv (gw));
  if (node->params.flag)
    {
      count = g_new0 (gint64, MAX (rows, 1));
      for (gint64 k = 0; k < gnn_tensor_get_numel (idx); k++)
        if (iv[k] >= 0 && iv[k] < rows)
          count[iv[k]]++;
    }
  for (gint64 k = 0; k < gnn_tensor_get_numel (idx); k++)
    {
      /* the forward checked the indices; this guards against their being
       * changed in place since */
      if (iv[k] < 0 || iv[k] >= rows)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "index out of range in self (index %" G_GINT64_FORMAT
                       " at position %" G_GINT64_FORMAT ", num_embeddings %"
                       G_GINT64_FORMAT ")", iv[k], k, rows);
          return FALSE;
        }
      if (iv[k] == padding)
        continue;
      add_row (work, dim, wd + (gsize) iv[k] * row, gd + (gsize) k * row,
               count != NULL ? 1.0 / (double) count[iv[k]] : 1.0);
    }
  grads[0] = work == wm->dtype ? g_steal_pointer (&gw) : gnn_tensor_to_dtype (gw, wm->dtype, error);
  return grads[0] != NULL;
}

/* embedding_bag (gnn-embedding-bag-private.h): each bag's gradient row to
 * the rows it summed (scaled by the sample weight, divided by the bag's
 * size for a mean, by the row's lookups with scale_grad_by_freq), or, for
 * max, each feature to the row that won it; a sample weight's gradient is
 * its row dotted with its bag's gradient. In doubles. */
gboolean
gnn_backward_embedding_bag (GnnNode    *node,
                            GnnTensor  *grad,
                            GnnTensor **grads,
                            GError    **error)
{
  const GnnMeta *wm = &node->inputs[0];
  int mode = (int) node->params.ints[0];
  gint64 rows = wm->shape[0], dim = wm->shape[1], n_bags = node->params.ints[2];
  GnnTensor *flat = node->params.extra[0], *aux = node->params.extra[1];
  const gint64 *iv = gnn_tensor_get_data (flat), *av = gnn_tensor_get_data (aux);
  gint64 n = gnn_tensor_get_numel (flat);
  g_autofree double *g = gnn_ag_doubles (grad);
  g_autofree gint64 *count = NULL;
  g_autofree gint64 *freq = NULL;

  if (gnn_node_needs_grad (node, 0))
    {
      double *gw = g_new0 (double, MAX (rows * dim, 1));

      if (mode == GNN_EMBEDDING_BAG_MAX)
        {
          for (gint64 k = 0; k < n_bags * dim; k++)
            if (av[k] >= 0)
              gw[av[k] * dim + k % dim] += g[k];
        }
      else
        {
          g_autofree double *psw = node->n_inputs > 1 && node->saved != NULL && node->saved[1] != NULL
                                   ? gnn_ag_doubles (node->saved[1]) : NULL;

          count = g_new0 (gint64, MAX (n_bags, 1));
          for (gint64 i = 0; i < n; i++)
            if (av[i] >= 0)
              count[av[i]]++;
          if (node->params.flag)
            {
              freq = g_new0 (gint64, MAX (rows, 1));
              for (gint64 i = 0; i < n; i++)
                if (av[i] >= 0)
                  freq[iv[i]]++;
            }
          for (gint64 i = 0; i < n; i++)
            {
              gint64 b = av[i];
              double k = 1.0;

              if (b < 0)
                continue;
              if (psw != NULL)
                k *= psw[i];
              if (mode == GNN_EMBEDDING_BAG_MEAN)
                k /= (double) count[b];
              if (freq != NULL)
                k /= (double) freq[iv[i]];
              for (gint64 j = 0; j < dim; j++)
                gw[iv[i] * dim + j] += k * g[b * dim + j];
            }
        }
      grads[0] = gnn_ag_from_doubles (gw, wm);
    }
  if (node->n_inputs > 1 && gnn_node_needs_grad (node, 1))
    {
      g_autofree double *w = gnn_ag_doubles (node->saved[0]);
      double *gp = g_new0 (double, MAX (n, 1));

      for (gint64 i = 0; i < n; i++)
        if (av[i] >= 0)
          for (gint64 j = 0; j < dim; j++)
            gp[i] += g[av[i] * dim + j] * w[iv[i] * dim + j];
      grads[1] = gnn_ag_from_doubles (gp, &node->inputs[1]);
    }
  return TRUE;
}
