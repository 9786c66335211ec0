/* gnn-index-walk.c: gather / scatter / scatter_add loops over the positions
 * of an index tensor, and torch's checks of such an index
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-index-walk-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-parallel-private.h"

gboolean
gnn_check_index_geometry (const char *op,
                          GnnTensor  *self,
                          guint       dim,
                          GnnTensor  *index,
                          GnnTensor  *src,
                          GError    **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *ip = gnn_tensor_priv (index);
  GnnTensorPrivate *rp = src != NULL ? gnn_tensor_priv (src) : NULL;

  if (ip->dtype != GNN_DTYPE_I64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s(): Expected dtype int64 for index", op);
      return FALSE;
    }
  if (MAX (ip->ndim, 1) != MAX (sp->ndim, 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Index tensor must have the same number of dimensions as %s tensor",
                   src != NULL ? "self" : "input");
      return FALSE;
    }
  if (rp != NULL && rp->ndim != 0 && MAX (rp->ndim, 1) != MAX (ip->ndim, 1))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Index tensor must have the same number of dimensions as src tensor");
      return FALSE;
    }
  for (guint d = 0; d < ip->ndim; d++)
    {
      gboolean bad_self = d != dim && ip->shape[d] > sp->shape[d];
      gboolean bad_src = rp != NULL && rp->ndim != 0 && ip->shape[d] > rp->shape[d];

      if (bad_self || bad_src)
        {
          g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);
          g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);

          if (rp == NULL)
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "Size does not match at dimension %u expected index %s to be smaller "
                         "than self %s apart from dimension %u", d, is, ss, dim);
          else
            {
              g_autofree char *rs = gnn_shape_to_string (rp->shape, rp->ndim);

              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Expected index %s to be smaller than self %s apart from dimension "
                           "%u and to be smaller size than src %s", is, ss, dim, rs);
            }
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
gnn_check_index_bounds (GnnTensor  *index,
                        guint       dim,
                        gint64      size,
                        GError    **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (index);
  const gint64 *strides[1] = { ip->strides };
  const gint64 *data = (const gint64 *) gnn_tensor_priv_data (ip);
  GnnNdIter it;

  gnn_nditer_init (&it, ip->shape, ip->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    for (gint64 i = 0; i < it.inner_size; i++)
      {
        gint64 v = data[it.offsets[0] + i * it.inner_strides[0]];

        if (v < 0 || v >= size)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                         "index %" G_GINT64_FORMAT " is out of bounds for dimension %u with size %"
                         G_GINT64_FORMAT, v, dim, size);
            return FALSE;
          }
      }
  return TRUE;
}

/* self[q] += v for the arithmetic dtypes (bool: or) */
static inline void
add_element (GnnDType      dtype,
             guint8       *dst,
             const guint8 *src)
{
  switch (dtype)
    {
    case GNN_DTYPE_F32: *(float *) dst += *(const float *) src; break;
    case GNN_DTYPE_F64: *(double *) dst += *(const double *) src; break;
    case GNN_DTYPE_I64: *(gint64 *) dst = (gint64) ((guint64) *(gint64 *) dst + (guint64) *(const gint64 *) src); break;
    case GNN_DTYPE_I32: *(gint32 *) dst = (gint32) ((guint32) *(gint32 *) dst + (guint32) *(const gint32 *) src); break;
    case GNN_DTYPE_I16: *(gint16 *) dst = (gint16) (*(gint16 *) dst + *(const gint16 *) src); break;
    case GNN_DTYPE_I8: *(gint8 *) dst = (gint8) (*(gint8 *) dst + *(const gint8 *) src); break;
    case GNN_DTYPE_U8: *dst = (guint8) (*dst + *src); break;
    case GNN_DTYPE_BOOL: *dst = *dst | *src; break;
    default:
      gnn_dtype_write (dtype, dst, gnn_dtype_read (dtype, dst) + gnn_dtype_read (dtype, src));
      break;
    }
}

/* One block of the walk: positions of @shape from the given base pointers
 * (strides in elements: index, self with 0 along dim, other). */
typedef struct
{
  GnnIndexWalk  walk;
  GnnDType      dtype;
  gsize         size;
  gint64        dim_stride;
  guint         ndim, split;
  gint64        shape[GNN_MAX_DIMS];
  gint64        strides[3][GNN_MAX_DIMS];
  const gint64 *idx;
  guint8       *s, *o;
} Walk;

static void
walk_range (gint64   begin,
            gint64   end,
            gpointer data)
{
  const Walk *w = data;
  gint64 shape[GNN_MAX_DIMS];
  const gint64 *strides[3] = { w->strides[0], w->strides[1], w->strides[2] };
  gsize size = w->size;
  gint64 dim_stride = w->dim_stride;
  const gint64 *idx = w->idx;
  guint8 *s = w->s, *o = w->o;
  GnnNdIter it;

  memcpy (shape, w->shape, sizeof (gint64) * w->ndim);
  if (w->ndim > 0)
    {
      shape[w->split] = end - begin;
      idx += begin * w->strides[0][w->split];
      s += begin * w->strides[1][w->split] * (gint64) size;
      o += begin * w->strides[2][w->split] * (gint64) size;
    }
  gnn_nditer_init (&it, shape, w->ndim, 3, strides);
  while (gnn_nditer_next (&it))
    {
      const gint64 *ix = idx + it.offsets[0];
      guint8 *sb = s + it.offsets[1] * (gint64) size;
      guint8 *ob = o + it.offsets[2] * (gint64) size;
      gint64 is = it.inner_strides[0], ss = it.inner_strides[1], os = it.inner_strides[2];

      switch (w->walk)
        {
        case GNN_INDEX_GATHER:
          if (size == 4)
            for (gint64 i = 0; i < it.inner_size; i++)
              ((guint32 *) ob)[i * os] = ((const guint32 *) sb)[i * ss + ix[i * is] * dim_stride];
          else if (size == 8)
            for (gint64 i = 0; i < it.inner_size; i++)
              ((guint64 *) ob)[i * os] = ((const guint64 *) sb)[i * ss + ix[i * is] * dim_stride];
          else
            for (gint64 i = 0; i < it.inner_size; i++)
              memcpy (ob + i * os * (gint64) size,
                      sb + (i * ss + ix[i * is] * dim_stride) * (gint64) size, size);
          break;
        case GNN_INDEX_SCATTER:
          for (gint64 i = 0; i < it.inner_size; i++)
            memcpy (sb + (i * ss + ix[i * is] * dim_stride) * (gint64) size,
                    ob + i * os * (gint64) size, size);
          break;
        case GNN_INDEX_SCATTER_ADD:
          if (w->dtype == GNN_DTYPE_F32)
            for (gint64 i = 0; i < it.inner_size; i++)
              ((float *) sb)[i * ss + ix[i * is] * dim_stride] += ((const float *) ob)[i * os];
          else
            for (gint64 i = 0; i < it.inner_size; i++)
              add_element (w->dtype, sb + (i * ss + ix[i * is] * dim_stride) * (gint64) size,
                           ob + i * os * (gint64) size);
          break;
        }
    }
}

/* The positions are split among the threads along the index's largest dim
 * — other than @dim for a scatter, so that every element of self is
 * written by one thread, in the serial order: the same bits at every
 * thread count. */
void
gnn_index_walk (GnnIndexWalk walk,
                GnnTensor   *self,
                guint        dim,
                GnnTensor   *index,
                GnnTensor   *other)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *ip = gnn_tensor_priv (index);
  GnnTensorPrivate *op = gnn_tensor_priv (other);
  Walk w = { walk, sp->dtype, gnn_dtype_get_size (sp->dtype), sp->ndim > 0 ? sp->strides[dim] : 0,
             ip->ndim, 0 };
  gint64 along = 1;

  w.idx = (const gint64 *) gnn_tensor_priv_data (ip);
  w.s = gnn_tensor_priv_data (sp);
  w.o = gnn_tensor_priv_data (op);
  for (guint d = 0; d < ip->ndim; d++)
    {
      w.shape[d] = ip->shape[d];
      w.strides[0][d] = ip->strides[d];
      w.strides[1][d] = d == dim ? 0 : sp->strides[d];
      w.strides[2][d] = op->ndim == 0 ? 0 : op->strides[d];
      if ((d != dim || walk == GNN_INDEX_GATHER) && ip->shape[d] > along)
        {
          w.split = d;
          along = ip->shape[d];
        }
    }
  if (ip->numel == 0)
    return;
  if (along < 2)
    walk_range (0, ip->ndim > 0 ? ip->shape[w.split] : 1, &w);
  else
    gnn_parallel_for (along, gnn_parallel_grain (ip->numel / along), walk_range, &w);
}
