/* gnn-tensor-argmax.c: argmax / argmin along a dim or over all elements,
 * and max / min along a dim with their indices (torch.max (x, dim))
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-reduce-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-index-walk-private.h"
#include "tensor/gnn-dtype-check-private.h"

#define LOAD_PLAIN GNN_LOAD_PLAIN
#define LOAD_HALF  GNN_LOAD_HALF
#define LOAD_BF16  GNN_LOAD_BF16

/* Scans runs of output positions; @sd is the stride along the reduced dim.
 * When the reduced dim is the tighter one each position is scanned in turn,
 * otherwise the whole run advances one step of the dim at a time (rows
 * compared against a row of running extremes). The first extreme wins;
 * the first NaN beats everything, as in PyTorch. */
#define DEFINE_ARGMAX(NAME, TAG, CTYPE, ATYPE, LOAD, CMP)                                  \
static void                                                                    \
NAME##_runs_##TAG (const CTYPE *x, const gint64 *x_strides, gint64 sd,         \
                   gint64 n, gint64 *out, const gint64 *o_strides,             \
                   const gint64 *shape, guint ndim)                            \
{                                                                              \
  const gint64 *strides[2] = { o_strides, x_strides };                         \
  g_autofree ATYPE *best = NULL;                                               \
  GnnNdIter it;                                                                \
                                                                               \
  gnn_nditer_init (&it, shape, ndim, 2, strides);                              \
  while (gnn_nditer_next (&it))                                                \
    {                                                                          \
      gint64 *o = out + it.offsets[0];                                         \
      const CTYPE *p = x + it.offsets[1];                                      \
      gint64 os = it.inner_strides[0], xs = it.inner_strides[1];               \
      gint64 m = it.inner_size;                                                \
                                                                               \
      if (m == 1 || ABS (sd) <= ABS (xs))                                      \
        for (gint64 i = 0; i < m; i++)                                         \
          {                                                                    \
            const CTYPE *q = p + i * xs;                                       \
            ATYPE b = (ATYPE) LOAD (q[0]);                                     \
            gint64 bi = 0;                                                     \
                                                                               \
            for (gint64 k = 1; k < n && !GNN_ISNAN (b); k++)                   \
              {                                                                \
                ATYPE v = (ATYPE) LOAD (q[k * sd]);                            \
                if (v CMP b || GNN_ISNAN (v))                                    \
                  {                                                            \
                    b = v;                                                     \
                    bi = k;                                                    \
                  }                                                            \
              }                                                                \
            o[i * os] = bi;                                                    \
          }                                                                    \
      else                                                                     \
        {                                                                      \
          if (best == NULL)                                                    \
            best = g_new (ATYPE, it.inner_size);                               \
          for (gint64 i = 0; i < m; i++)                                       \
            {                                                                  \
              best[i] = (ATYPE) LOAD (p[i * xs]);                              \
              o[i * os] = 0;                                                   \
            }                                                                  \
          for (gint64 k = 1; k < n; k++)                                       \
            {                                                                  \
              const CTYPE *q = p + k * sd;                                     \
              for (gint64 i = 0; i < m; i++)                                   \
                {                                                              \
                  ATYPE v = (ATYPE) LOAD (q[i * xs]);                          \
                  if ((v CMP best[i] || GNN_ISNAN (v)) && !GNN_ISNAN (best[i]))  \
                    {                                                          \
                      best[i] = v;                                             \
                      o[i * os] = k;                                           \
                    }                                                          \
                }                                                              \
            }                                                                  \
        }                                                                      \
    }                                                                          \
}

DEFINE_ARGMAX (argmax, f32, float, float, LOAD_PLAIN, >)
DEFINE_ARGMAX (argmin, f32, float, float, LOAD_PLAIN, <)
DEFINE_ARGMAX (argmax, f64, double, double, LOAD_PLAIN, >)
DEFINE_ARGMAX (argmin, f64, double, double, LOAD_PLAIN, <)
DEFINE_ARGMAX (argmax, f16, guint16, double, LOAD_HALF, >)
DEFINE_ARGMAX (argmin, f16, guint16, double, LOAD_HALF, <)
DEFINE_ARGMAX (argmax, bf16, guint16, double, LOAD_BF16, >)
DEFINE_ARGMAX (argmin, bf16, guint16, double, LOAD_BF16, <)
DEFINE_ARGMAX (argmax, i64, gint64, gint64, LOAD_PLAIN, >)
DEFINE_ARGMAX (argmin, i64, gint64, gint64, LOAD_PLAIN, <)
DEFINE_ARGMAX (argmax, i32, gint32, gint64, LOAD_PLAIN, >)
DEFINE_ARGMAX (argmin, i32, gint32, gint64, LOAD_PLAIN, <)
DEFINE_ARGMAX (argmax, i16, gint16, gint64, LOAD_PLAIN, >)
DEFINE_ARGMAX (argmin, i16, gint16, gint64, LOAD_PLAIN, <)
DEFINE_ARGMAX (argmax, i8, gint8, gint64, LOAD_PLAIN, >)
DEFINE_ARGMAX (argmin, i8, gint8, gint64, LOAD_PLAIN, <)
DEFINE_ARGMAX (argmax, u8, guint8, gint64, LOAD_PLAIN, >)
DEFINE_ARGMAX (argmin, u8, guint8, gint64, LOAD_PLAIN, <)


#define RUN(NAME, TAG, CTYPE)                                                   \
  NAME##_runs_##TAG ((const CTYPE *) x, p->strides, sd, n, o, o_strides, kshape, p->ndim)

#define RUN_ALL(NAME)                                                           \
  switch (p->dtype)                                                             \
    {                                                                           \
    case GNN_DTYPE_F32: RUN (NAME, f32, float); break;                          \
    case GNN_DTYPE_F64: RUN (NAME, f64, double); break;                         \
    case GNN_DTYPE_F16: RUN (NAME, f16, guint16); break;                        \
    case GNN_DTYPE_BF16: RUN (NAME, bf16, guint16); break;                      \
    case GNN_DTYPE_I64: RUN (NAME, i64, gint64); break;                         \
    case GNN_DTYPE_I32: RUN (NAME, i32, gint32); break;                         \
    case GNN_DTYPE_I16: RUN (NAME, i16, gint16); break;                         \
    case GNN_DTYPE_I8: RUN (NAME, i8, gint8); break;                            \
    default: RUN (NAME, u8, guint8); break;                                     \
    }

/* The positions of the extremes along @dim (wrapped into *@d). */
static GnnTensor *
arg_extreme (gboolean    max,
             const char *name,
             GnnTensor  *self,
             gint        dim,
             gboolean    keepdim,
             guint      *d,
             GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gboolean reduce[GNN_MAX_DIMS] = { FALSE };
  gint64 out_shape[GNN_MAX_DIMS], o_strides[GNN_MAX_DIMS], kshape[GNN_MAX_DIMS];
  guint out_ndim;
  gint64 n, sd;
  GnnTensor *out;
  gint64 *o;
  guint8 *x;

  if (!gnn_wrap_dim (dim, p->ndim, d, error))
    return NULL;
  if (p->dtype == GNN_DTYPE_BOOL && name[0] == 'a')
    {
      g_autofree char *cpu = g_strdup_printf ("%s_cpu", name);

      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"%s\" not implemented for 'Bool'", cpu);
      return NULL;
    }
  n = p->ndim > 0 ? p->shape[*d] : 1;
  sd = p->ndim > 0 ? p->strides[*d] : 0;
  if (n == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "%s(): Expected reduction dim %u to have non-zero size.", name, *d);
      return NULL;
    }
  reduce[*d] = TRUE;
  gnn_reduce_geometry (p, reduce, keepdim, out_shape, &out_ndim, o_strides);
  memcpy (kshape, p->shape, sizeof (gint64) * p->ndim);
  if (p->ndim > 0)
    kshape[*d] = 1;

  out = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, out_shape, out_ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  o = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  x = gnn_tensor_priv_data (p);
  if (max)
    RUN_ALL (argmax)
  else
    RUN_ALL (argmin)
  return out;
}

/* Over the flattened tensor (torch's dim=None). */
static GnnTensor *
arg_extreme_all (gboolean    max,
                 const char *name,
                 GnnTensor  *self,
                 gboolean    keepdim,
                 GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) packed = NULL;
  g_autoptr(GnnTensor) flat = NULL;
  g_autoptr(GnnTensor) index = NULL;
  gint64 ones[GNN_MAX_DIMS];
  guint d;

  if (p->numel == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "%s(): Expected reduction dim to be specified for input.numel() == 0.", name);
      return NULL;
    }
  packed = gnn_tensor_contiguous_checked (self, error);
  if (packed == NULL)
    return NULL;
  flat = gnn_tensor_new_view (packed, &p->numel, (gint64[]) { 1 }, 1,
                              gnn_tensor_priv (packed)->offset);
  index = arg_extreme (max, name, flat, 0, FALSE, &d, error);
  if (index == NULL || !keepdim)
    return g_steal_pointer (&index);
  for (guint i = 0; i < p->ndim; i++)
    ones[i] = 1;
  return gnn_tensor_new_view (index, ones, ones, p->ndim, 0);
}

/**
 * gnn_tensor_argmax:
 * @self: a #GnnTensor
 * @dim: the dim to reduce (may be negative)
 * @keepdim: whether @dim stays in the result with size 1
 * @error: return location for a #GError
 *
 * The position of the largest value along @dim, like
 * `torch.argmax (self, dim, keepdim)`. Ties give the first position; a NaN
 * counts as the largest value.
 *
 * Returns: (transfer full): an int64 tensor of positions, or %NULL if @dim is
 *   out of range or has size 0
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_argmax (GnnTensor *self,
                   gint       dim,
                   gboolean   keepdim,
                   GError   **error)
{
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("argmax", self, error, NULL);
  return arg_extreme (TRUE, "argmax", self, dim, keepdim, &d, error);
}

/**
 * gnn_tensor_argmin:
 * @self: a #GnnTensor
 * @dim: the dim to reduce (may be negative)
 * @keepdim: whether @dim stays in the result with size 1
 * @error: return location for a #GError
 *
 * The position of the smallest value along @dim, like
 * `torch.argmin (self, dim, keepdim)`; ties give the first position, a NaN
 * counts as the smallest.
 *
 * Returns: (transfer full): an int64 tensor of positions, or %NULL if @dim is
 *   out of range or has size 0
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_argmin (GnnTensor *self,
                   gint       dim,
                   gboolean   keepdim,
                   GError   **error)
{
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("argmin", self, error, NULL);
  return arg_extreme (FALSE, "argmin", self, dim, keepdim, &d, error);
}

/**
 * gnn_tensor_argmax_all:
 * @self: a #GnnTensor
 * @keepdim: whether the result keeps @self's dims, all of size 1
 * @error: return location for a #GError
 *
 * The position of the largest value in the flattened tensor (like
 * `torch.argmax (self)` without a dim).
 *
 * Returns: (transfer full): a 0-d int64 tensor (or one of @self's rank with
 *   @keepdim), or %NULL for an empty @self
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_argmax_all (GnnTensor *self,
                       gboolean   keepdim,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("argmax", self, error, NULL);
  return arg_extreme_all (TRUE, "argmax", self, keepdim, error);
}

/**
 * gnn_tensor_argmin_all:
 * @self: a #GnnTensor
 * @keepdim: whether the result keeps @self's dims, all of size 1
 * @error: return location for a #GError
 *
 * The position of the smallest value in the flattened tensor (like
 * `torch.argmin (self)` without a dim).
 *
 * Returns: (transfer full): a 0-d int64 tensor, or %NULL for an empty @self
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_argmin_all (GnnTensor *self,
                       gboolean   keepdim,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("argmin", self, error, NULL);
  return arg_extreme_all (FALSE, "argmin", self, keepdim, error);
}

/* max / min along @dim with the positions: the values are gathered at the
 * positions, and their gradient goes back to them (torch's MaxBackward0). */
static GnnTensor *
extreme_dim (gboolean     max,
             GnnTensor   *self,
             gint         dim,
             gboolean     keepdim,
             GnnTensor  **indices,
             GError     **error)
{
  const char *name = max ? "max" : "min";
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) index = NULL;
  g_autoptr(GnnTensor) values = NULL;
  GnnTensor *out;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE (name, self, error, NULL);
  p = gnn_tensor_priv (self);
  index = arg_extreme (max, name, self, dim, TRUE, &d, error);
  if (index == NULL)
    return NULL;
  values = gnn_tensor_new_contiguous_checked (p->dtype, gnn_tensor_priv (index)->shape,
                                              gnn_tensor_priv (index)->ndim, FALSE, error);
  if (values == NULL)
    return NULL;
  if (!gnn_index_walk (GNN_INDEX_GATHER, self, d, index, values, NULL, error))
    return NULL;
  if (keepdim || p->ndim == 0)
    out = g_object_ref (values);
  else
    {
      GnnTensorPrivate *vp = gnn_tensor_priv (values);
      gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
      guint n = 0;

      for (guint i = 0; i < vp->ndim; i++)
        if (i != d)
          shape[n++] = vp->shape[i];
      gnn_contiguous_strides (shape, n, strides);
      out = gnn_tensor_new_view (values, shape, strides, n, 0);
      if (indices != NULL)
        *indices = gnn_tensor_new_view (index, shape, strides, n, 0);
    }
  if (indices != NULL && *indices == NULL)
    *indices = g_object_ref (index);
  return gnn_tensor_record (max ? GNN_OP_MAX_DIM : GNN_OP_MIN_DIM, out, &self, 1,
                            &(GnnOpParams) { .dim = (gint) d, .keepdim = keepdim,
                                             .extra = { index } });
}

/**
 * gnn_tensor_max_dim:
 * @self: a #GnnTensor
 * @dim: the dim to reduce (may be negative)
 * @keepdim: whether @dim stays in the results with size 1
 * @indices: (out) (optional) (transfer full): the positions of the maxima (int64)
 * @error: return location for a #GError
 *
 * The largest values along @dim and their positions, like `torch.max
 * (self, dim, keepdim)`'s (values, indices); ties give the first position,
 * NaN counts as the largest. The gradient goes to the chosen elements.
 *
 * Returns: (transfer full): the values, or %NULL with @error set if @dim
 *   is out of range or has size 0
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_dim (GnnTensor  *self,
                    gint        dim,
                    gboolean    keepdim,
                    GnnTensor **indices,
                    GError    **error)
{
  if (indices != NULL)
    *indices = NULL;
  return extreme_dim (TRUE, self, dim, keepdim, indices, error);
}

/**
 * gnn_tensor_min_dim:
 * @self: a #GnnTensor
 * @dim: the dim to reduce (may be negative)
 * @keepdim: whether @dim stays in the results with size 1
 * @indices: (out) (optional) (transfer full): the positions of the minima (int64)
 * @error: return location for a #GError
 *
 * The smallest values along @dim and their positions, like `torch.min
 * (self, dim, keepdim)`; see [method@Gnn.Tensor.max_dim].
 *
 * Returns: (transfer full): the values, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_min_dim (GnnTensor  *self,
                    gint        dim,
                    gboolean    keepdim,
                    GnnTensor **indices,
                    GError    **error)
{
  if (indices != NULL)
    *indices = NULL;
  return extreme_dim (FALSE, self, dim, keepdim, indices, error);
}
