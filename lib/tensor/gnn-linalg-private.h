/* gnn-linalg-private.h: what torch.linalg's LAPACK-backed ops share
 * (gnn-linalg-lapack.c, gnn-linalg-decomp.c, gnn-linalg-lstsq.c,
 * gnn-linalg-norm.c): torch's input checks and messages, the packed
 * column-major copies LAPACK works on and the batch bookkeeping.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-lapack-private.h"

G_BEGIN_DECLS

/* torch's checks of a batch of matrices A [*, m, n] for @op: float32 or
 * float64, at least 2 dims, sizes within LAPACK's int, a valid storage. */
gboolean   gnn_linalg_check_matrix (const char *op, GnnTensor *a, GError **error);
/* The same, and the matrices are square. */
gboolean   gnn_linalg_check_square (const char *op, GnnTensor *a, GError **error);
/* A packed copy of @a's matrices broadcast to @batch (@nb dims), each
 * stored column-major: shape [batch..., cols, rows] row-major. Not recorded. */
GnnTensor *gnn_linalg_colmajor_copy (GnnTensor *a, const gint64 *batch, guint nb, GError **error);
/* @buf ([batch..., cols, rows] packed) as the [batch..., rows, cols] tensor
 * it holds column-major: torch's layout of linalg results. */
GnnTensor *gnn_linalg_as_matrices  (GnnTensor *buf);
gint64     gnn_linalg_batch_count  (const gint64 *batch, guint nb);
/* "(Batch element i): " when a tensor of @ndim dims is a batch, else "". */
char      *gnn_linalg_batch_prefix (guint ndim, gint64 index);

/* A LAPACK workspace query's answer (work[0]), read in either precision. */
typedef union
{
  double d[2];
  float  f[4];
} GnnLapackQuery;

static inline double
gnn_lapack_query_size (GnnDType              dtype,
                       const GnnLapackQuery *query)
{
  return MAX (dtype == GNN_DTYPE_F32 ? query->f[0] : query->d[0], 1.0);
}

G_END_DECLS
