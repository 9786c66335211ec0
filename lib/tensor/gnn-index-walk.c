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

/* The first element of @index outside [0, @size), in the serial order:
 * the one torch's message names. */
static gboolean
first_bad_index (GnnTensor *index,
                 gint64     size,
                 gint64    *bad)
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
            *bad = v;
            return TRUE;
          }
      }
  return FALSE;
}

/* Sets torch's message for the first bad element of @index (after a
 * threaded pass found one). */
static gboolean
fail_out_of_bounds (GnnTensor  *index,
                    guint       dim,
                    gint64      size,
                    GError    **error)
{
  gint64 v = -1;

  if (first_bad_index (index, size, &v))
    g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                 "index %" G_GINT64_FORMAT " is out of bounds for dimension %u with size %"
                 G_GINT64_FORMAT, v, dim, size);
  else
    g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "index out of bounds");
  return FALSE;
}

/* Whether the @n entries of @ix (stride @is) lie in [0, @bound): one
 * unsigned comparison each, no early exit, so the loop vectorizes. */
static inline gboolean
run_in_bounds (const gint64 *ix,
               gint64        is,
               gint64        n,
               gint64        bound)
{
  gboolean bad = FALSE;

  if (is == 1)
    for (gint64 i = 0; i < n; i++)
      bad |= (guint64) ix[i] >= (guint64) bound;
  else
    for (gint64 i = 0; i < n; i++)
      bad |= (guint64) ix[i * is] >= (guint64) bound;
  return !bad;
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
 * (strides in elements: index, self with 0 along dim, other). Every run
 * of indices is checked against @bound before it is used; a bad one sets
 * @bad and stops the walk's writes (@check_only: nothing is written). */
typedef struct
{
  GnnIndexWalk  walk;
  gboolean      check_only;
  GnnDType      dtype;
  gsize         size;
  gint64        dim_stride, bound;
  gint          bad;
  guint         ndim, split;
  gint64        shape[GNN_MAX_DIMS];
  gint64        strides[3][GNN_MAX_DIMS];
  const gint64 *idx;
  guint8       *s, *o;
  /* fused copy: self's slabs along dim 0 come from here, just before the
   * walk writes into them (NULL: self is already set) */
  const guint8 *base;
  gsize         slab_bytes;
  gint64        base_rows;
} Walk;

static void
walk_block (gint64   begin,
            gint64   end,
            Walk    *w)
{
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
      if (!w->check_only)
        {
          s += begin * w->strides[1][w->split] * (gint64) size;
          o += begin * w->strides[2][w->split] * (gint64) size;
        }
    }
  gnn_nditer_init (&it, shape, w->ndim, 3, strides);
  while (gnn_nditer_next (&it))
    {
      const gint64 *ix = idx + it.offsets[0];
      gint64 is = it.inner_strides[0], ss = it.inner_strides[1], os = it.inner_strides[2];
      guint8 *sb, *ob;

      if (!run_in_bounds (ix, is, it.inner_size, w->bound))
        {
          g_atomic_int_set (&w->bad, TRUE);
          return;
        }
      if (w->check_only)
        continue;
      sb = s + it.offsets[1] * (gint64) size;
      ob = o + it.offsets[2] * (gint64) size;
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

/* Slabs of self copied at a time in a fused copy: the block stays in
 * cache for the writes that follow (the copy and the scatter read and
 * write self once instead of twice). */
#define COPY_BLOCK_BYTES ((gsize) 128 << 10)

static void
walk_range (gint64   begin,
            gint64   end,
            gpointer data)
{
  Walk *w = data;
  gint64 step;

  if (w->base == NULL)
    {
      walk_block (begin, end, w);
      return;
    }
  step = (gint64) MAX (COPY_BLOCK_BYTES / MAX (w->slab_bytes, 1), 1);
  for (gint64 b = begin; b < end && !g_atomic_int_get (&w->bad); b += step)
    {
      gint64 e = MIN (b + step, end);
      /* the last block also copies the slabs past the index's extent */
      gint64 hi = e == w->shape[0] ? w->base_rows : e;

      memcpy (w->s + b * (gint64) w->slab_bytes, w->base + b * (gint64) w->slab_bytes,
              (gsize) (hi - b) * w->slab_bytes);
      walk_block (b, e, w);
    }
}

/* Fills @w for the positions of @index; @self and @other may be NULL for
 * a check of the index alone. */
static void
walk_init (Walk         *w,
           GnnIndexWalk  walk,
           GnnTensor    *self,
           guint         dim,
           gint64        bound,
           GnnTensor    *index,
           GnnTensor    *other)
{
  GnnTensorPrivate *sp = self != NULL ? gnn_tensor_priv (self) : NULL;
  GnnTensorPrivate *ip = gnn_tensor_priv (index);
  GnnTensorPrivate *op = other != NULL ? gnn_tensor_priv (other) : NULL;
  gint64 along = 1;

  memset (w, 0, sizeof (Walk));
  w->walk = walk;
  w->check_only = self == NULL;
  w->bound = bound;
  w->ndim = ip->ndim;
  w->idx = (const gint64 *) gnn_tensor_priv_data (ip);
  if (sp != NULL)
    {
      w->dtype = sp->dtype;
      w->size = gnn_dtype_get_size (sp->dtype);
      w->dim_stride = sp->ndim > 0 ? sp->strides[dim] : 0;
      w->s = gnn_tensor_priv_data (sp);
      w->o = gnn_tensor_priv_data (op);
    }
  for (guint d = 0; d < ip->ndim; d++)
    {
      w->shape[d] = ip->shape[d];
      w->strides[0][d] = ip->strides[d];
      w->strides[1][d] = d == dim || sp == NULL ? 0 : sp->strides[d];
      w->strides[2][d] = op == NULL || op->ndim == 0 ? 0 : op->strides[d];
      if ((d != dim || walk == GNN_INDEX_GATHER) && ip->shape[d] > along)
        {
          w->split = d;
          along = ip->shape[d];
        }
    }
}

/* Runs @w over all its positions; FALSE when an index was out of bounds. */
static gboolean
walk_run (Walk      *w,
          GnnTensor *index)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (index);
  gint64 along = ip->ndim > 0 ? ip->shape[w->split] : 1;

  if (ip->numel == 0)
    return TRUE;
  if (along < 2)
    walk_range (0, along, w);
  else
    gnn_parallel_for (along, gnn_parallel_grain (ip->numel / along), walk_range, w);
  return !g_atomic_int_get (&w->bad);
}

gboolean
gnn_check_index_bounds (GnnTensor  *index,
                        guint       dim,
                        gint64      size,
                        GError    **error)
{
  Walk w;

  walk_init (&w, GNN_INDEX_GATHER, NULL, dim, size, index, NULL);
  return walk_run (&w, index) || fail_out_of_bounds (index, dim, size, error);
}

/* The positions are split among the threads along the index's largest dim
 * — other than @dim for a scatter, so that every element of self is
 * written by one thread, in the serial order: the same bits at every
 * thread count. Each thread checks the indices it uses just before using
 * them, so the check costs no pass of its own. */
gboolean
gnn_index_walk (GnnIndexWalk walk,
                GnnTensor   *self,
                guint        dim,
                GnnTensor   *index,
                GnnTensor   *other,
                GnnTensor   *base,
                GError     **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self);
  gint64 bound = sp->ndim > 0 ? sp->shape[dim] : 1;
  Walk w;

  walk_init (&w, walk, self, dim, bound, index, other);
  if (base != NULL)
    {
      GnnTensorPrivate *bp = gnn_tensor_priv (base);

      /* fused when whole slabs along dim 0 are one thread's: the walk
       * splits along dim 0, and both are contiguous */
      if (walk != GNN_INDEX_GATHER && sp->ndim > 0 && dim != 0 && w.split == 0 &&
          gnn_tensor_priv (index)->numel > 0 && gnn_tensor_is_contiguous (base) &&
          gnn_tensor_is_contiguous (self))
        {
          w.base = gnn_tensor_priv_data (bp);
          w.slab_bytes = (gsize) sp->strides[0] * w.size;
          w.base_rows = sp->shape[0];
        }
      else if (!gnn_tensor_copy_values_ (self, base, error))
        return FALSE;
    }
  return walk_run (&w, index) || fail_out_of_bounds (index, dim, bound, error);
}
