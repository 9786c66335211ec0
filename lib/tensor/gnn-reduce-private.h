/* gnn-reduce-private.h: the reduction machinery of gnn-tensor-reduce.c for
 * the other reducing files (argmax, softmax, stats, scans): dims and
 * output geometry, the unrecorded reductions, and shared kernel pieces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-cpu-private.h"

G_BEGIN_DECLS

#define GNN_ISNAN(v) ((v) != (v))
#define GNN_LOAD_PLAIN(v) (v)
#define GNN_LOAD_HALF(v) ((double) gnn_half_to_float (v))
#define GNN_LOAD_BF16(v) ((double) gnn_bfloat16_to_float (v))

/* gnn_hsum_TAG (x, stride, n): the sum of a run in 8 independent lanes, so
 * that it vectorizes and gives the same bits at every CPU level. */
#define GNN_DEFINE_HSUM(TAG, CTYPE, ATYPE, LOAD)                                \
GNN_KERNEL_INLINE ATYPE                                                         \
hsum_##TAG (const CTYPE *x, gint64 s, gint64 n)                                 \
{                                                                               \
  ATYPE a[8] = { 0 };                                                           \
  ATYPE t = 0;                                                                  \
  gint64 i = 0;                                                                 \
                                                                                \
  if (s == 1)                                                                   \
    for (; i + 8 <= n; i += 8)                                                  \
      for (int j = 0; j < 8; j++)                                               \
        a[j] += (ATYPE) LOAD (x[i + j]);                                        \
  for (; i < n; i++)                                                            \
    t += (ATYPE) LOAD (x[i * s]);                                               \
  return t + ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])); \
}

typedef enum
{
  GNN_RED_SUM,
  GNN_RED_MEAN,
  GNN_RED_MAX,
  GNN_RED_MIN,
  GNN_RED_PROD,
} GnnRedOp;

/* @dims (empty: all) as a mask over the dims of @p; torch's errors for a
 * dim out of range or listed twice. */
gboolean   gnn_reduce_resolve_dims (GnnTensorPrivate *p, const gint *dims, guint n_dims,
                                    gboolean *reduce, GError **error);

/* The output shape (reduced dims dropped, or kept as 1) and contiguous
 * accumulator strides over @p's dims (0 along reduced ones). */
void       gnn_reduce_geometry     (GnnTensorPrivate *p, const gboolean *reduce,
                                    gboolean keepdim, gint64 *out_shape, guint *out_ndim,
                                    gint64 *acc_strides);

/* The reduction @op over @dims, not recorded. */
GnnTensor *gnn_reduce              (GnnRedOp op, GnnTensor *self, const gint *dims,
                                    guint n_dims, gboolean keepdim, GError **error);

/* Records @out as @op over @dims of @self (params dims, n_dims, keepdim). */
GnnTensor *gnn_record_reduce       (GnnOpKind op, GnnTensor *out, GnnTensor *self,
                                    const gint *dims, guint n_dims, gboolean keepdim);

/* The sizes of a contiguous @shape before, at and after @dim: the
 * [outer, n, inner] view of the dim-wise kernels. */
static inline void
gnn_split_at_dim (const gint64 *shape,
                  guint         ndim,
                  guint         dim,
                  gint64       *outer,
                  gint64       *n,
                  gint64       *inner)
{
  *outer = *n = *inner = 1;
  for (guint i = 0; i < ndim; i++)
    {
      if (i < dim)
        *outer *= shape[i];
      else if (i == dim)
        *n = shape[i];
      else
        *inner *= shape[i];
    }
}

G_END_DECLS
