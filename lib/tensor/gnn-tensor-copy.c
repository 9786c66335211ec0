/* gnn-tensor-copy.c: strided copies, dtype conversion, fill
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-parallel-private.h"

void
gnn_strided_copy (GnnDType      dst_dtype,
                  guint8       *dst,
                  const gint64 *dst_strides,
                  GnnDType      src_dtype,
                  const guint8 *src,
                  const gint64 *src_strides,
                  const gint64 *shape,
                  guint         ndim)
{
  const gint64 *strides[2] = { dst_strides, src_strides };
  gsize dsize = gnn_dtype_get_size (dst_dtype);
  gsize ssize = gnn_dtype_get_size (src_dtype);
  GnnNdIter it;

  gnn_nditer_init (&it, shape, ndim, 2, strides);
  while (gnn_nditer_next (&it))
    {
      guint8 *d = dst + it.offsets[0] * (gint64) dsize;
      const guint8 *s = src + it.offsets[1] * (gint64) ssize;
      gint64 ds = it.inner_strides[0], ss = it.inner_strides[1];
      gint64 n = it.inner_size;

      if (dst_dtype == src_dtype)
        {
          if (ds == 1 && ss == 1)
            memmove (d, s, (gsize) n * dsize);
          else
            for (gint64 i = 0; i < n; i++)
              memcpy (d + i * ds * (gint64) dsize, s + i * ss * (gint64) ssize, dsize);
        }
      else if (dst_dtype == GNN_DTYPE_F32 && src_dtype == GNN_DTYPE_U8)
        {
          /* the image path: uint8 pixels to float */
          for (gint64 i = 0; i < n; i++)
            ((float *) d)[i * ds] = (float) s[i * ss];
        }
      else if (dst_dtype == GNN_DTYPE_F64 && src_dtype == GNN_DTYPE_F32)
        {
          /* float32 to double (to_doubles, allclose): the casts
           * gnn_dtype_read and gnn_dtype_write make, without their switch
           * per element (a fifth of a VGG-11 model-file test) */
          for (gint64 i = 0; i < n; i++)
            ((double *) d)[i * ds] = (double) ((const float *) s)[i * ss];
        }
      else if (dst_dtype == GNN_DTYPE_F32 && src_dtype == GNN_DTYPE_F64)
        {
          for (gint64 i = 0; i < n; i++)
            ((float *) d)[i * ds] = (float) ((const double *) s)[i * ss];
        }
      else if (!gnn_dtype_is_floating (dst_dtype) && dst_dtype != GNN_DTYPE_BOOL &&
               !gnn_dtype_is_floating (src_dtype))
        {
          /* integer to integer without a trip through double: exact for
           * int64, and narrower types wrap around as in torch */
          for (gint64 i = 0; i < n; i++)
            {
              const guint8 *sp = s + i * ss * (gint64) ssize;
              guint8 *dp = d + i * ds * (gint64) dsize;
              gint64 v;

              switch (src_dtype)
                {
                case GNN_DTYPE_I64: v = *(const gint64 *) sp; break;
                case GNN_DTYPE_I32: v = *(const gint32 *) sp; break;
                case GNN_DTYPE_I16: v = *(const gint16 *) sp; break;
                case GNN_DTYPE_I8: v = *(const gint8 *) sp; break;
                case GNN_DTYPE_BOOL: v = *sp != 0; break;
                default: v = *sp; break;
                }
              switch (dst_dtype)
                {
                case GNN_DTYPE_I64: *(gint64 *) dp = v; break;
                case GNN_DTYPE_I32: *(gint32 *) dp = (gint32) v; break;
                case GNN_DTYPE_I16: *(gint16 *) dp = (gint16) v; break;
                case GNN_DTYPE_I8: *(gint8 *) dp = (gint8) v; break;
                default: *dp = (guint8) v; break;
                }
            }
        }
      else
        for (gint64 i = 0; i < n; i++)
          gnn_dtype_write (dst_dtype, d + i * ds * (gint64) dsize,
                           gnn_dtype_read (src_dtype, s + i * ss * (gint64) ssize));
    }
}

/**
 * gnn_tensor_contiguous:
 * @self: a #GnnTensor
 *
 * Returns @self (with a new reference) when it is already contiguous, or a
 * packed copy otherwise.
 *
 * The copy of an expanded view can need far more memory than @self; use
 * gnn_tensor_to_dtype() (with the same dtype after gnn_tensor_clone()) or
 * check for %NULL when that may fail.
 *
 * Returns: (transfer full) (nullable): a contiguous tensor with the same
 *   elements, or %NULL if memory for the copy cannot be allocated
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_contiguous (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (gnn_tensor_is_contiguous (self))
    return g_object_ref (self);
  return gnn_tensor_clone (self);
}

GnnTensor *
gnn_tensor_contiguous_checked (GnnTensor *self,
                               GError   **error)
{
  if (gnn_tensor_is_contiguous (self))
    return g_object_ref (self);
  return gnn_tensor_copy_checked (self, gnn_tensor_priv (self)->dtype, error);
}

typedef struct
{
  guint8       *dst;
  const guint8 *src;
} BlockCopy;

static void
copy_bytes (gint64   begin,
            gint64   end,
            gpointer data)
{
  const BlockCopy *c = data;

  memcpy (c->dst + begin, c->src + begin, (gsize) (end - begin));
}

GnnTensor *
gnn_tensor_copy_checked (GnnTensor *self,
                         GnnDType   dtype,
                         GError   **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnTensor *out;
  GnnTensorPrivate *op;

  /* clone and contiguous of a meta tensor: a meta tensor, as in PyTorch */
  if (gnn_tensor_priv_is_meta (p))
    return gnn_tensor_new_meta (GNN_TYPE_TENSOR, dtype, p->shape, p->ndim);
  out = gnn_tensor_new_contiguous_checked (dtype, p->shape, p->ndim, FALSE, error);

  /* an expanded view can be far larger than its storage */
  if (out == NULL)
    return NULL;
  op = gnn_tensor_priv (out);

  if (dtype == p->dtype && gnn_tensor_is_contiguous (self))
    {
      /* a clone: one memcpy, large ones split among the threads */
      BlockCopy c = { gnn_tensor_priv_data (op), gnn_tensor_priv_data (p) };

      gnn_parallel_for ((gint64) ((gsize) p->numel * gnn_dtype_get_size (dtype)),
                        4 * GNN_PARALLEL_GRAIN_ELEMS, copy_bytes, &c);
      return out;
    }
  gnn_strided_copy (dtype, gnn_tensor_priv_data (op), op->strides,
                    p->dtype, gnn_tensor_priv_data (p), p->strides, p->shape, p->ndim);
  return out;
}

/**
 * gnn_tensor_clone:
 * @self: a #GnnTensor
 *
 * Copies the elements into a new contiguous tensor of the same dtype.
 *
 * Returns: (transfer full) (nullable): the copy, or %NULL if memory for it
 *   cannot be allocated (an expanded view can be far larger than its storage)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_clone (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_record (GNN_OP_CLONE,
                            gnn_tensor_copy_checked (self, gnn_tensor_priv (self)->dtype, NULL),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_to_dtype:
 * @self: a #GnnTensor
 * @dtype: the element type of the result
 * @error: return location for a #GError
 *
 * Converts to @dtype (like `tensor.to(dtype)`): returns @self with a new
 * reference if it already has that dtype, else a converted copy. Floats
 * become integers by truncation toward zero, as in PyTorch.
 *
 * Returns: (transfer full): the converted tensor, or %NULL for an invalid dtype
 *   or when memory for the copy cannot be allocated (%GNN_ERROR_MEMORY)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_to_dtype (GnnTensor *self,
                     GnnDType   dtype,
                     GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("to_dtype", self, error, NULL);
  if (gnn_dtype_get_size (dtype) == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "invalid dtype %d", (int) dtype);
      return NULL;
    }
  if (gnn_tensor_priv (self)->dtype == dtype)
    return g_object_ref (self);
  return gnn_tensor_record (GNN_OP_TO_DTYPE, gnn_tensor_copy_checked (self, dtype, error), &self, 1, NULL);
}

/* Writes @pattern (one element of @p's dtype) into every element of @p. */
static void
fill_pattern (GnnTensorPrivate *p,
              const guint8     *pattern)
{
  gsize elsize;
  const gint64 *strides[1];
  GnnNdIter it;

  if (gnn_tensor_priv_is_meta (p))   /* nothing to fill, as in PyTorch */
    return;
  elsize = gnn_dtype_get_size (p->dtype);
  strides[0] = p->strides;
  gnn_nditer_init (&it, p->shape, p->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    {
      guint8 *d = gnn_tensor_priv_data (p) + it.offsets[0] * (gint64) elsize;
      gint64 s = it.inner_strides[0];

      if (p->dtype == GNN_DTYPE_F32 && s == 1)
        {
          float v = *(float *) pattern;
          for (gint64 i = 0; i < it.inner_size; i++)
            ((float *) d)[i] = v;
        }
      else if (elsize == 1 && s == 1)
        memset (d, pattern[0], (gsize) it.inner_size);
      else
        for (gint64 i = 0; i < it.inner_size; i++)
          memcpy (d + i * s * (gint64) elsize, pattern, elsize);
    }
}

/**
 * gnn_tensor_fill_:
 * @self: a #GnnTensor
 * @value: the value, converted to the tensor's dtype
 * @error: return location for a #GError
 *
 * Sets every element of @self (which may be a view) to @value. In the
 * autograd graph the values before get no gradient (`FillBackward2`). As
 * in PyTorch a value that @self's dtype cannot hold is refused, not
 * wrapped: NaN, ±inf or an out-of-range value for an integer dtype, a
 * finite value beyond a float dtype's range (1e39 for float32); fractions
 * are truncated toward zero for integer dtypes.
 *
 * Returns: %TRUE, or %FALSE with @error set: %GNN_ERROR_INVALID_ARGUMENT
 *   ("value cannot be converted to type int64_t without overflow"), or
 *   %GNN_ERROR_AUTOGRAD if @self is a leaf that requires grad (or a view of
 *   one) and grad mode is on
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_fill_ (GnnTensor *self,
                  double     value,
                  GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  if (!gnn_check_scalar_fits (gnn_tensor_priv (self)->dtype, value, error) ||
      !gnn_tensor_record_inplace (GNN_OP_FILL, self, NULL, error))
    return FALSE;
  gnn_tensor_fill_fresh (self, value);
  return TRUE;
}

/**
 * gnn_tensor_fill_int_:
 * @self: a #GnnTensor
 * @value: the value, an integer
 * @error: return location for a #GError
 *
 * Sets every element of @self (which may be a view) to the integer @value,
 * exactly for int64 elements beyond 2^53 (where [method@Gnn.Tensor.fill_]'s
 * double would round), with PyTorch's rules for an integer scalar: a
 * value outside an integer dtype's range fails, except that an unsigned
 * dtype takes a negative value that wraps once, as torch's uint8 takes -1
 * as 255.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT
 *   "value cannot be converted to type int8_t without overflow", or
 *   %GNN_ERROR_AUTOGRAD as for fill_)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_fill_int_ (GnnTensor *self,
                      gint64     value,
                      GError   **error)
{
  GnnTensorPrivate *p;
  guint8 pattern[8];

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  p = gnn_tensor_priv (self);
  if (!gnn_check_int_fits (p->dtype, value, error) ||
      !gnn_tensor_record_inplace (GNN_OP_FILL, self, NULL, error))
    return FALSE;
  switch (p->dtype)
    {
    case GNN_DTYPE_I64:  memcpy (pattern, &value, 8); break;
    case GNN_DTYPE_I32:  *(gint32 *) pattern = (gint32) value; break;
    case GNN_DTYPE_I16:  *(gint16 *) pattern = (gint16) value; break;
    case GNN_DTYPE_I8:   *(gint8 *) pattern = (gint8) value; break;
    case GNN_DTYPE_U8:   *pattern = (guint8) value; break;   /* -1 wraps to 255 */
    default:             gnn_dtype_write (p->dtype, pattern, (double) value); break;
    }
  fill_pattern (p, pattern);
  return TRUE;
}

/* The fill itself; on its own for a tensor just made (creation, gradient
 * seeds), which nobody else holds: no version, no recording. */
void
gnn_tensor_fill_fresh (GnnTensor *self,
                       double     value)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  guint8 pattern[8];

  gnn_dtype_write (p->dtype, pattern, value);
  fill_pattern (p, pattern);
}

/**
 * gnn_tensor_zero_:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Sets every element of @self (which may be a view) to zero (like
 * `tensor.zero_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (autograd refusing the write,
 *   as for [method@Gnn.Tensor.fill_])
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_zero_ (GnnTensor *self,
                  GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  if (!gnn_tensor_record_inplace (GNN_OP_ZERO, self, NULL, error))
    return FALSE;
  gnn_tensor_fill_fresh (self, 0.0);
  return TRUE;
}

/**
 * gnn_tensor_copy_:
 * @self: the destination
 * @src: the source, broadcastable to the shape of @self; any dtype
 * @error: return location for a #GError
 *
 * Copies the elements of @src into @self (converting the dtype and
 * broadcasting @src like `self.copy_(src)`).
 *
 * Returns: %TRUE, or %FALSE with @error set if @src does not broadcast to
 *   the shape of @self
 *
 * Since: 0.1
 */
/* @src must broadcast to the shape of @self. */
static gboolean
check_copy_shapes (GnnTensorPrivate *dp,
                   GnnTensorPrivate *sp,
                   GError          **error)
{
  gint64 out_shape[GNN_MAX_DIMS];
  guint out_ndim;

  if (gnn_broadcast_shapes (dp->shape, dp->ndim, sp->shape, sp->ndim, out_shape, &out_ndim, NULL) &&
      out_ndim == dp->ndim && memcmp (out_shape, dp->shape, sizeof (gint64) * out_ndim) == 0)
    return TRUE;
  {
    g_autofree char *ds = gnn_shape_to_string (dp->shape, dp->ndim);
    g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);

    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                 "copy_: source of shape %s cannot be broadcast to destination shape %s", ss, ds);
  }
  return FALSE;
}

static gboolean copy_elements (GnnTensor *self, GnnTensor *src, GError **error);

gboolean
gnn_tensor_copy_ (GnnTensor *self,
                  GnnTensor *src,
                  GError   **error)
{
  GNN_CHECK_STORAGE ("copy_", self, error, FALSE);
  GNN_CHECK_STORAGE ("copy_", src, error, FALSE);
  GnnTensorPrivate *dp, *sp;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (src), FALSE);
  dp = gnn_tensor_priv (self);
  sp = gnn_tensor_priv (src);
  if (!check_copy_shapes (dp, sp, error))
    return FALSE;
  /* In the graph (torch's CopyBackwards): the gradient goes to @src, none
   * to the values overwritten. A leaf that requires grad is refused (the
   * library's own copies into parameters use gnn_tensor_copy_values_). */
  if (!gnn_tensor_record_inplace (GNN_OP_COPY, self, src, error))
    return FALSE;
  return copy_elements (self, src, error);
}

/* copy_ without autograd, for the library's own copies (loading a state
 * dict, packing shared memory, gradients): torch makes them under no_grad.
 * The version moves as for copy_. */
gboolean
gnn_tensor_copy_values_ (GnnTensor *self,
                         GnnTensor *src,
                         GError   **error)
{
  if (!check_copy_shapes (gnn_tensor_priv (self), gnn_tensor_priv (src), error))
    return FALSE;
  gnn_tensor_priv_bump_version (gnn_tensor_priv (self));
  return copy_elements (self, src, error);
}

/* copy_values_ for an in-place op's own write of its result, after
 * gnn_tensor_record_inplace() moved the version: not moved again (a node
 * that saved the output saved it at that version). */
gboolean
gnn_tensor_write_values_ (GnnTensor *self,
                          GnnTensor *src,
                          GError   **error)
{
  if (!check_copy_shapes (gnn_tensor_priv (self), gnn_tensor_priv (src), error))
    return FALSE;
  return copy_elements (self, src, error);
}

/* The copy itself; shapes already checked. */
static gboolean
copy_elements (GnnTensor *self,
               GnnTensor *src,
               GError   **error)
{
  GnnTensorPrivate *dp = gnn_tensor_priv (self), *sp = gnn_tensor_priv (src);
  gint64 src_strides[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) src_safe = NULL;

  /* The same elements (self, or a detached view of it, as loading a module's
   * own state_dict gives): nothing to copy, and no temporary to allocate. */
  if (dp->storage == sp->storage && dp->offset == sp->offset && dp->dtype == sp->dtype &&
      dp->ndim == sp->ndim && memcmp (dp->shape, sp->shape, sizeof (gint64) * dp->ndim) == 0 &&
      memcmp (dp->strides, sp->strides, sizeof (gint64) * dp->ndim) == 0)
    return TRUE;

  /* Overlapping views of one storage: copy through a temporary. */
  if (dp->storage == sp->storage)
    {
      src_safe = gnn_tensor_copy_checked (src, sp->dtype, error);
      if (src_safe == NULL)
        return FALSE;
      sp = gnn_tensor_priv (src_safe);
      src = src_safe;
    }

  gnn_broadcast_strides (src, dp->shape, dp->ndim, src_strides);
  gnn_strided_copy (dp->dtype, gnn_tensor_priv_data (dp), dp->strides,
                    sp->dtype, gnn_tensor_priv_data (sp), src_strides, dp->shape, dp->ndim);
  return TRUE;
}
