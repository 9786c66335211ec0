/* gnn-tensor-unpool.c: max unpooling (torch.nn.functional.max_unpool1d/2d/3d)
 * and channel shuffle
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-unpool-private.h"

gint64
gnn_unpool_move (gboolean      scatter,
                 gint64        planes,
                 gint64        n_small,
                 gint64        n_large,
                 const gint64 *idx,
                 const void   *src,
                 void         *dst,
                 gsize         elem_size)
{
  const guint8 *s = src;
  guint8 *d = dst;

  for (gint64 p = 0; p < planes; p++)
    for (gint64 k = 0; k < n_small; k++)
      {
        gint64 at = idx[p * n_small + k];

        if (at < 0 || at >= n_large)
          return at;
        if (scatter)
          memcpy (d + (gsize) (p * n_large + at) * elem_size, s + (gsize) (p * n_small + k) * elem_size,
                  elem_size);
        else
          memcpy (d + (gsize) (p * n_small + k) * elem_size, s + (gsize) (p * n_large + at) * elem_size,
                  elem_size);
      }
  return -1;
}

/* torch's checks of max_unpooling2d/3d_forward_out_cpu, in its order. */
static gboolean
unpool_check (GnnTensor     *input,
              GnnTensor     *indices,
              guint          n,
              GError       **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input), *xp = gnn_tensor_priv (indices);
  const char *fn = n == 3 ? "max_unpooling3d_forward_out_cpu(): " : "max_unpooling2d_forward_out_cpu(): ";
  gboolean same = ip->ndim == xp->ndim;

  if (xp->dtype != GNN_DTYPE_I64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "elements in indices should be type int64%s%s",
                   n == 3 ? "" : " but got: ", n == 3 ? "" : gnn_torch_scalar_name (xp->dtype));
      return FALSE;
    }
  if (ip->ndim != n + 1 && ip->ndim != n + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Input to max_unpooling%ud should be a %ud or %ud Tensor, but got a tensor with %u dimensions.",
                   n, n + 1, n + 2, ip->ndim);
      return FALSE;
    }
  for (guint d = 0; same && d < ip->ndim; d++)
    same = ip->shape[d] == xp->shape[d];
  if (!same)
    {
      g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);
      g_autofree char *xs = gnn_shape_to_string (xp->shape, xp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected shape of indices to be same as that of the input tensor (%s) but got indices "
                   "tensor with shape: %s", is, xs);
      return FALSE;
    }
  for (guint d = 1; d < ip->ndim; d++)
    if (ip->shape[d] <= 0)
      {
        g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%sExpected input to have non-zero size for non-batch dimensions, but got %s with "
                     "dimension %u being empty.", fn, is, d);
        return FALSE;
      }
  return TRUE;
}

static GnnTensor *
max_unpool_nd (GnnTensor     *input,
               GnnTensor     *indices,
               const gint64  *output_size,
               guint          n,
               GError       **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) ic = NULL;
  gint64 shape[GNN_MAX_DIMS], planes = 1, n_small = 1, n_large = 1, bad;
  GnnTensor *out;

  if (!unpool_check (input, indices, n, error))
    return NULL;
  memcpy (shape, ip->shape, sizeof (gint64) * ip->ndim);
  for (guint d = 0; d < n; d++)
    {
      shape[ip->ndim - n + d] = output_size[d];
      if (!gnn_checked_mul (n_large, MAX (output_size[d], 0), &n_large))
        n_large = G_MAXINT64;
      n_small *= ip->shape[ip->ndim - n + d];
    }
  for (guint d = 0; d < ip->ndim - n; d++)
    planes *= ip->shape[d];
  out = gnn_tensor_new_contiguous_checked (ip->dtype, shape, ip->ndim, TRUE, error);
  if (out == NULL)
    return NULL;
  xc = gnn_tensor_contiguous_checked (input, error);
  ic = xc != NULL ? gnn_tensor_contiguous_checked (indices, error) : NULL;
  if (ic == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  bad = gnn_unpool_move (TRUE, planes, n_small, n_large, gnn_tensor_data_or_null (ic),
                         gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out),
                         gnn_dtype_get_size (ip->dtype));
  if (bad >= 0 || bad < -1)
    {
      if (n == 3)
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "Found an invalid max index: %" G_GINT64_FORMAT " (output volumes are of size %"
                     G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT, bad, output_size[0],
                     output_size[1], output_size[2]);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "Found an invalid max index: %" G_GINT64_FORMAT " (output volumes are of size %"
                     G_GINT64_FORMAT "x%" G_GINT64_FORMAT, bad, output_size[0], output_size[1]);
      g_object_unref (out);
      return NULL;
    }
  return gnn_tensor_record (GNN_OP_MAX_UNPOOL, out, &input, 1,
                            &(GnnOpParams) { .dim = (gint) n, .extra = { indices } });
}

/**
 * gnn_tensor_max_unpool:
 * @input: the pooled values, `[N, C, *spatial]` or `[C, *spatial]`
 * @indices: the positions [method@Gnn.Tensor.max_pool2d_with_indices]
 *   returned (int64, @input's shape)
 * @output_size: (array length=n_output_size): the size of each spatial
 *   dimension of the output
 * @n_output_size: the number of spatial dimensions, 1 to 3
 * @error: return location for a #GError
 *
 * Max unpooling, `torch.nn.functional.max_unpool1d/2d/3d` with an explicit
 * output size: a zero output where each value of @input lands at its index
 * (flattened over the spatial dimensions of its plane). The 1-d form runs
 * as the 2-d one over a width of 1, as torch's.
 *
 * Returns: (transfer full): the unpooled tensor, or %NULL on error (torch's
 *   messages, e.g. "Found an invalid max index: 9 (output volumes are of
 *   size 2x2")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_unpool (GnnTensor     *input,
                       GnnTensor     *indices,
                       const gint64  *output_size,
                       guint          n_output_size,
                       GError       **error)
{
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) i = NULL;
  g_autoptr(GnnTensor) y = NULL;
  gint64 size2[2];

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (indices), NULL);
  g_return_val_if_fail (output_size != NULL && n_output_size >= 1 && n_output_size <= 3, NULL);
  GNN_CHECK_STORAGE ("max_unpool", input, error, NULL);
  GNN_CHECK_STORAGE ("max_unpool", indices, error, NULL);

  if (n_output_size > 1)
    return max_unpool_nd (input, indices, output_size, n_output_size, error);
  /* torch.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size + [1]).squeeze(-1) */
  size2[0] = output_size[0], size2[1] = 1;
  x = gnn_tensor_unsqueeze (input, -1, error);
  i = x != NULL ? gnn_tensor_unsqueeze (indices, -1, error) : NULL;
  y = i != NULL ? max_unpool_nd (x, i, size2, 2, error) : NULL;
  return y != NULL ? gnn_tensor_squeeze (y, -1, error) : NULL;
}

/**
 * gnn_tensor_channel_shuffle:
 * @input: the input, `[N, C, *]` with @groups dividing `C`
 * @groups: the number of groups (> 0)
 * @error: return location for a #GError
 *
 * `torch.nn.functional.channel_shuffle`: the channels, seen as `[groups,
 * C / groups]`, transposed: a reshape, a transpose and a reshape, as
 * torch's kernel computes it (whose backward torch 1.13 does not
 * implement; here it is that of the three ops).
 *
 * Returns: (transfer full): the shuffled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_channel_shuffle (GnnTensor  *input,
                            gint64      groups,
                            GError    **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS + 1];
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) t = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  GNN_CHECK_STORAGE ("channel_shuffle", input, error, NULL);
  p = gnn_tensor_priv (input);
  if (p->ndim <= 2)
    {
      g_autofree char *is = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "channel_shuffle expects input with > 2 dims, but got input with sizes %s", is);
      return NULL;
    }
  if (groups <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Number of groups to divide channels in must be positive. Value of groups:%" G_GINT64_FORMAT,
                   groups);
      return NULL;
    }
  if (p->shape[1] % groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Number of channels must be divisible by groups. Got %" G_GINT64_FORMAT
                   " channels and %" G_GINT64_FORMAT " groups.", p->shape[1], groups);
      return NULL;
    }
  if (p->ndim + 1 > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "channel_shuffle: too many dimensions (%u)", p->ndim);
      return NULL;
    }
  shape[0] = p->shape[0], shape[1] = groups, shape[2] = p->shape[1] / groups;
  memcpy (shape + 3, p->shape + 2, sizeof (gint64) * (p->ndim - 2));
  v = gnn_tensor_reshape (input, shape, p->ndim + 1, error);
  t = v != NULL ? gnn_tensor_transpose (v, 1, 2, error) : NULL;
  return t != NULL ? gnn_tensor_reshape (t, p->shape, p->ndim, error) : NULL;
}

/**
 * gnn_tensor_max_unpool_with_geometry:
 * @input: the pooled values, `[N, C, *spatial]` or `[C, *spatial]`
 * @indices: the positions the max pooling returned (int64, @input's shape)
 * @kernel_size: (array length=n): the pooling window of each spatial dimension
 * @stride: (array length=n): the pooling strides
 * @padding: (array length=n): the pooling paddings
 * @n: the number of spatial dimensions, 1 to 3
 * @output_size: (array length=n_output_size) (nullable): the output size:
 *   @n sizes, or @n + 2 (the leading two are ignored), or %NULL for the
 *   size the pooling came from, `(in - 1) · stride + kernel - 2 · padding`
 * @n_output_size: the length of @output_size
 * @error: return location for a #GError
 *
 * `torch.nn.functional.max_unpool1d/2d/3d (input, indices, kernel_size,
 * stride, padding, output_size)`: [method@Gnn.Tensor.max_unpool] with
 * torch's output size rule (a given size must be within a stride of the
 * default one).
 *
 * Returns: (transfer full): the unpooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_unpool_with_geometry (GnnTensor     *input,
                                     GnnTensor     *indices,
                                     const gint64  *kernel_size,
                                     const gint64  *stride,
                                     const gint64  *padding,
                                     guint          n,
                                     const gint64  *output_size,
                                     gsize          n_output_size,
                                     GError       **error)
{
  guint ndim;
  const gint64 *shape;
  gint64 size[3];

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (kernel_size != NULL && stride != NULL && padding != NULL, NULL);
  g_return_val_if_fail (n >= 1 && n <= 3, NULL);
  g_return_val_if_fail (output_size != NULL || n_output_size == 0, NULL);

  shape = gnn_tensor_get_shape (input, &ndim);
  if (ndim < n)
    return gnn_tensor_max_unpool (input, indices, kernel_size, n, error);   /* its rank error */
  if (output_size != NULL && n_output_size == n + 2)
    output_size += 2, n_output_size = n;
  if (output_size != NULL && n_output_size != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "output_size should be a sequence containing %u or %u elements, but it has a length of '%"
                   G_GSIZE_FORMAT "'", n, n + 2, n_output_size);
      return NULL;
    }
  for (guint d = 0; d < n; d++)
    {
      gint64 s = stride[d] == 0 ? kernel_size[d] : stride[d];
      gint64 def = (shape[ndim - n + d] - 1) * s + kernel_size[d] - 2 * padding[d];

      size[d] = output_size != NULL ? output_size[d] : def;
      if (output_size != NULL && !(def - s < size[d] && size[d] < def + s))
        {
          /* as Python prints the list torch's forward annotates */
          GString *given = g_string_new ("[");

          for (guint e = 0; e < n; e++)
            g_string_append_printf (given, e ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, output_size[e]);
          g_string_append (given, "]");
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "invalid output_size \"%s\" (dim %u must be between %" G_GINT64_FORMAT " and %"
                       G_GINT64_FORMAT ")", given->str, d, def - s, def + s);
          g_string_free (given, TRUE);
          return NULL;
        }
    }
  return gnn_tensor_max_unpool (input, indices, size, n, error);
}
