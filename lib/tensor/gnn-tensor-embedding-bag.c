/* gnn-tensor-embedding-bag.c: bags of embeddings
 * (torch.nn.functional.embedding_bag): sums, means or maxima of the rows
 * looked up by each bag of indices
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-embedding-bag-private.h"

/* torch's checkScalarTypes wording (it names 'indices' for the offsets too). */
static gboolean
check_index_dtype (GnnTensor  *t,
                   GError    **error)
{
  GnnDType dtype = gnn_tensor_priv (t)->dtype;

  if (dtype == GNN_DTYPE_I64 || dtype == GNN_DTYPE_I32)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
               "Int; but got torch.%sTensor instead (while checking arguments for embedding_bag)",
               gnn_dtype_get_name (dtype));
  return FALSE;
}

static char *
size_string (GnnTensor *t)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  GString *s = g_string_new ("torch.Size([");

  for (guint d = 0; d < p->ndim; d++)
    g_string_append_printf (s, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, p->shape[d]);
  g_string_append (s, "])");
  return g_string_free (s, FALSE);
}

/* F.embedding_bag's argument checks, in its order: the flattened indices,
 * the bag starts (n_bags + 1 of them, the last the end) and the mode. */
static gboolean
bags_setup (GnnTensor     *input,
            GnnTensor     *weight,
            GnnTensor     *offsets,
            const char    *mode,
            gboolean       scale_grad_by_freq,
            GnnTensor     *per_sample_weights,
            gboolean       include_last_offset,
            GnnTensor    **flat,
            gint64       **starts,
            gint64        *n_bags,
            int           *mode_id,
            GError       **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) idx = NULL;
  g_autoptr(GnnTensor) off = NULL;
  const gint64 *ov;
  gint64 n, n_off;

  if (per_sample_weights != NULL)
    {
      GnnTensorPrivate *pp = gnn_tensor_priv (per_sample_weights);
      gboolean same = pp->ndim == ip->ndim;

      for (guint d = 0; same && d < ip->ndim; d++)
        same = pp->shape[d] == ip->shape[d];
      if (!same)
        {
          g_autofree char *ps = size_string (per_sample_weights);
          g_autofree char *is = size_string (input);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "embedding_bag: If per_sample_weights (%s) is not None, then it must have the same shape "
                       "as the input (%s)", ps, is);
          return FALSE;
        }
    }
  if (ip->ndim == 2 && offsets != NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                   "length sequences. However, found offsets of type <class 'torch.Tensor'>");
      return FALSE;
    }
  if (ip->ndim == 1 && offsets == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "offsets has to be a 1D Tensor but got None");
      return FALSE;
    }
  if (ip->ndim == 1 && gnn_tensor_priv (offsets)->ndim != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "offsets has to be a 1D Tensor");
      return FALSE;
    }
  if (ip->ndim != 1 && ip->ndim != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "input has to be 1D or 2D Tensor, but got Tensor of dimension %u", ip->ndim);
      return FALSE;
    }
  *mode_id = g_strcmp0 (mode, "sum") == 0 ? GNN_EMBEDDING_BAG_SUM
             : g_strcmp0 (mode, "mean") == 0 ? GNN_EMBEDDING_BAG_MEAN
             : g_strcmp0 (mode, "max") == 0 ? GNN_EMBEDDING_BAG_MAX : -1;
  if (*mode_id < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "mode has to be one of sum, mean or max");
      return FALSE;
    }
  if (*mode_id == GNN_EMBEDDING_BAG_MAX && scale_grad_by_freq)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "max mode does not support scaling the gradient by the frequency");
      return FALSE;
    }
  if (per_sample_weights != NULL && *mode_id != GNN_EMBEDDING_BAG_SUM)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
                   "mode='sum' (got mode='%s'). Please open a feature request on GitHub.", mode);
      return FALSE;
    }
  if (!check_index_dtype (input, error) || (offsets != NULL && !check_index_dtype (offsets, error)))
    return FALSE;
  if (gnn_tensor_priv (weight)->ndim != 2 ||
      (gnn_tensor_priv (weight)->dtype != GNN_DTYPE_F32 && gnn_tensor_priv (weight)->dtype != GNN_DTYPE_F64))
    {
      g_autofree char *ws = gnn_shape_to_string (gnn_tensor_priv (weight)->shape, gnn_tensor_priv (weight)->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "embedding_bag: expected a 2-D float32 or float64 weight, but got weight of size %s", ws);
      return FALSE;
    }
  if ((idx = gnn_tensor_copy_checked (input, GNN_DTYPE_I64, error)) == NULL)
    return FALSE;
  n = ip->numel;
  if (ip->ndim == 2)
    {
      /* torch.arange(0, numel, columns): one bag per row */
      gint64 rows = ip->shape[0], cols = ip->shape[1];

      *n_bags = rows;
      *starts = g_new (gint64, rows + 1);
      for (gint64 b = 0; b <= rows; b++)
        (*starts)[b] = b * cols;
      *flat = g_steal_pointer (&idx);
      return TRUE;
    }
  if ((off = gnn_tensor_copy_checked (offsets, GNN_DTYPE_I64, error)) == NULL)
    return FALSE;
  ov = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (off));
  n_off = gnn_tensor_priv (off)->numel;
  if (n_off > 0 && ov[0] != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                   "position 0. However, got %" G_GINT64_FORMAT, ov[0]);
      return FALSE;
    }
  if (n_off > 0 && ov[n_off - 1] > n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "offsets[-1] can not be greater than input's length %" G_GINT64_FORMAT " but got offsets[-1] of %"
                   G_GINT64_FORMAT, n, ov[n_off - 1]);
      return FALSE;
    }
  for (gint64 b = 1; b < n_off; b++)
    if (ov[b] < ov[b - 1])
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "embedding_bag: offsets must be non-decreasing, but offsets[%" G_GINT64_FORMAT "] = %"
                     G_GINT64_FORMAT " < offsets[%" G_GINT64_FORMAT "] = %" G_GINT64_FORMAT,
                     b, ov[b], b - 1, ov[b - 1]);
        return FALSE;
      }
  *n_bags = include_last_offset ? MAX (n_off - 1, 0) : n_off;
  *starts = g_new (gint64, *n_bags + 1);
  memcpy (*starts, ov, sizeof (gint64) * (gsize) *n_bags);
  (*starts)[*n_bags] = include_last_offset && n_off > 0 ? ov[n_off - 1] : n;
  *flat = g_steal_pointer (&idx);
  return TRUE;
}

/* The bags in double: out[b] = sum/mean/max of the rows of the bag's
 * indices (the padding row skipped); for max the winning row of each
 * feature to @argmax, for sum and mean the bag of each position to @bag_of
 * (-1: padding). */
static void
bags_run (const GnnEmbeddingBagGeom *g,
          const gint64              *iv,
          const double              *w,
          const double              *psw,
          double                    *out,
          gint64                    *bag_of,
          gint64                    *argmax)
{
  for (gint64 b = 0; b < g->n_bags; b++)
    {
      double *o = out + b * g->dim;
      gint64 count = 0;

      for (gint64 j = 0; j < g->dim; j++)
        o[j] = g->mode == GNN_EMBEDDING_BAG_MAX ? -INFINITY : 0.0;
      if (argmax != NULL)
        for (gint64 j = 0; j < g->dim; j++)
          argmax[b * g->dim + j] = -1;
      for (gint64 i = g->starts[b]; i < g->starts[b + 1]; i++)
        {
          const double *row = w + iv[i] * g->dim;

          if (iv[i] == g->padding_row)
            continue;
          count++;
          if (bag_of != NULL)
            bag_of[i] = b;
          if (g->mode == GNN_EMBEDDING_BAG_MAX)
            {
              for (gint64 j = 0; j < g->dim; j++)
                if (argmax[b * g->dim + j] < 0 || row[j] > o[j] || isnan (row[j]))
                  o[j] = row[j], argmax[b * g->dim + j] = iv[i];
            }
          else
            {
              double k = psw != NULL ? psw[i] : 1.0;

              for (gint64 j = 0; j < g->dim; j++)
                o[j] += k * row[j];
            }
        }
      if (g->mode == GNN_EMBEDDING_BAG_MEAN && count > 0)
        for (gint64 j = 0; j < g->dim; j++)
          o[j] /= (double) count;
      if (g->mode == GNN_EMBEDDING_BAG_MAX && count == 0)
        for (gint64 j = 0; j < g->dim; j++)
          o[j] = 0.0;
    }
}

/**
 * gnn_tensor_embedding_bag:
 * @input: the indices: `[B, N]` (B bags of N) or `[n]` with @offsets
 *   (int64 or int32)
 * @weight: the table `[num_embeddings, embedding_dim]`, float32 or float64
 * @offsets: (nullable): for a 1-D @input, where each bag starts (int64 or
 *   int32, non-decreasing, the first 0)
 * @max_norm: rows of @weight looked up with a larger @norm_type-norm are
 *   rescaled to it in place first, as [method@Gnn.Tensor.embedding_renorm_];
 *   not finite: none (torch's `None`)
 * @norm_type: the p of that norm
 * @scale_grad_by_freq: whether the weight's gradient of each row is divided
 *   by the number of its lookups
 * @mode: "sum", "mean" or "max"
 * @per_sample_weights: (nullable): a weight per index (@input's shape),
 *   mode "sum" only
 * @include_last_offset: whether the last offset ends the last bag (torch's
 *   CSR layout) instead of starting one
 * @has_padding_idx: whether @padding_idx is set
 * @padding_idx: a row that bags skip (negative: from the end)
 * @error: return location for a #GError
 *
 * `torch.nn.functional.embedding_bag`: `[B, embedding_dim]`, each bag the
 * sum, mean or maximum of its rows; an empty bag gives zeros. Its node is
 * torch's `EmbeddingBagBackward0`, with gradients for @weight and
 * @per_sample_weights.
 *
 * Returns: (transfer full): the bags, or %NULL on error (torch's messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_embedding_bag (GnnTensor   *input,
                          GnnTensor   *weight,
                          GnnTensor   *offsets,
                          double       max_norm,
                          double       norm_type,
                          gboolean     scale_grad_by_freq,
                          const char  *mode,
                          GnnTensor   *per_sample_weights,
                          gboolean     include_last_offset,
                          gboolean     has_padding_idx,
                          gint64       padding_idx,
                          GError     **error)
{
  g_autoptr(GnnTensor) flat = NULL;
  g_autoptr(GnnTensor) bag_of = NULL;
  g_autoptr(GnnTensor) argmax = NULL;
  g_autofree gint64 *starts = NULL;
  g_autofree double *w = NULL;
  g_autofree double *psw = NULL;
  g_autofree double *out = NULL;
  GnnEmbeddingBagGeom g = { 0 };
  GnnTensor *inputs[2] = { weight, per_sample_weights };
  gint64 out_shape[2];
  const gint64 *iv;
  int mode_id = 0;
  GnnTensor *result;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (offsets == NULL || GNN_IS_TENSOR (offsets), NULL);
  g_return_val_if_fail (per_sample_weights == NULL || GNN_IS_TENSOR (per_sample_weights), NULL);
  GNN_CHECK_STORAGE ("embedding_bag", input, error, NULL);
  GNN_CHECK_STORAGE ("embedding_bag", weight, error, NULL);

  if (!bags_setup (input, weight, offsets, mode, scale_grad_by_freq, per_sample_weights, include_last_offset,
                   &flat, &starts, &g.n_bags, &mode_id, error))
    return NULL;
  g.mode = mode_id;
  g.rows = gnn_tensor_priv (weight)->shape[0];
  g.dim = gnn_tensor_priv (weight)->shape[1];
  g.starts = starts;
  g.padding_row = -1;
  if (has_padding_idx)
    {
      if (padding_idx >= g.rows || padding_idx < -g.rows)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "padding_idx must be within the number of embeddings, -%" G_GINT64_FORMAT " through %"
                       G_GINT64_FORMAT ", but got %" G_GINT64_FORMAT, g.rows, g.rows - 1, padding_idx);
          return NULL;
        }
      g.padding_row = padding_idx < 0 ? padding_idx + g.rows : padding_idx;
    }
  iv = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (flat));
  for (gint64 i = 0; i < gnn_tensor_priv (flat)->numel; i++)
    if (iv[i] < 0 || iv[i] >= g.rows)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "Index %" G_GINT64_FORMAT " is out of bounds: %" G_GINT64_FORMAT ", range 0 to %"
                     G_GINT64_FORMAT, i, iv[i], g.rows);
        return NULL;
      }
  if (isfinite (max_norm) && !gnn_tensor_embedding_renorm_ (weight, flat, max_norm, norm_type, error))
    return NULL;
  out_shape[0] = g.n_bags, out_shape[1] = g.dim;
  if (mode_id == GNN_EMBEDDING_BAG_MAX)
    argmax = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, out_shape, 2, FALSE, error);
  else
    bag_of = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, &gnn_tensor_priv (flat)->numel, 1, FALSE, error);
  if (argmax == NULL && bag_of == NULL)
    return NULL;
  if (bag_of != NULL)
    for (gint64 i = 0; i < gnn_tensor_priv (flat)->numel; i++)
      ((gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (bag_of)))[i] = -1;
  w = gnn_tensor_to_doubles (weight, NULL);
  psw = per_sample_weights != NULL ? gnn_tensor_to_doubles (per_sample_weights, NULL) : NULL;
  out = g_new0 (double, MAX (g.n_bags * g.dim, 1));
  bags_run (&g, iv, w, psw, out,
            bag_of != NULL ? (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (bag_of)) : NULL,
            argmax != NULL ? (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (argmax)) : NULL);
  result = gnn_tensor_new_from_doubles (out, (gsize) (g.n_bags * g.dim), out_shape, 2, error);
  if (result == NULL)
    return NULL;
  if (gnn_tensor_priv (weight)->dtype != GNN_DTYPE_F64)
    {
      GnnTensor *cast = gnn_tensor_copy_checked (result, gnn_tensor_priv (weight)->dtype, error);

      g_object_unref (result);
      if ((result = cast) == NULL)
        return NULL;
    }
  return gnn_tensor_record (GNN_OP_EMBEDDING_BAG, result, inputs, 2,
                            &(GnnOpParams) { .ints = { mode_id, g.padding_row, g.n_bags }, .n_ints = 3,
                                             .flag = scale_grad_by_freq,
                                             .extra = { flat, argmax != NULL ? argmax : bag_of } });
}
