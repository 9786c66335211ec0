/* gnn-tensor-matmul.c: matrix products (torch.matmul) on top of CBLAS
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <cblas.h>
#include <gnn/gnn-threads.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-matmul-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-gemm-small-private.h"

/* How a strided matrix (rows x cols, strides rs/cs in elements) can be handed
 * to row-major CBLAS without a copy: as is (NoTrans, ld = rs) or as the
 * transpose of a row-major matrix (Trans, ld = cs). Strides along dims of
 * size 1 do not matter. FALSE when neither fits (the caller packs it). */
static gboolean
blas_layout (gint64           rows,
             gint64           cols,
             gint64           rs,
             gint64           cs,
             CBLAS_TRANSPOSE *trans,
             gint64          *ld)
{
  if ((cs == 1 || cols <= 1) && (rows <= 1 || rs >= MAX (cols, 1)))
    {
      *trans = CblasNoTrans;
      *ld = rows <= 1 ? MAX (cols, 1) : rs;
      return TRUE;
    }
  if ((rs == 1 || rows <= 1) && (cols <= 1 || cs >= MAX (rows, 1)))
    {
      *trans = CblasTrans;
      *ld = cols <= 1 ? MAX (rows, 1) : cs;
      return TRUE;
    }
  return FALSE;
}

/* An operand seen as a batch of matrices: the batch dims are broadcast to the
 * common batch shape (stride 0 where broadcast). */
typedef struct
{
  GnnTensor      *owner;      /* holds the storage alive (maybe a packed copy) */
  const guint8   *data;
  gint64          rows, cols;
  CBLAS_TRANSPOSE trans;
  gint64          ld;
  gint64          batch_strides[GNN_MAX_DIMS];
} Operand;

/* Fills @op from @t viewed as [..., rows, cols] (@t has ndim >= 2). Packs
 * @t into a contiguous copy when its matrix layout does not suit CBLAS. */
static gboolean
operand_init (Operand      *op,
              GnnTensor    *t,
              const gint64 *mat_shape,
              const gint64 *mat_strides,
              guint         ndim,
              const gint64 *batch_shape,
              guint         batch_ndim,
              GnnTensor   **packed,
              GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint nb = ndim - 2;

  memcpy (shape, mat_shape, sizeof (gint64) * ndim);
  memcpy (strides, mat_strides, sizeof (gint64) * ndim);
  op->rows = shape[ndim - 2];
  op->cols = shape[ndim - 1];
  op->owner = t;

  if (!blas_layout (op->rows, op->cols, strides[ndim - 2], strides[ndim - 1],
                    &op->trans, &op->ld))
    {
      /* pack the (possibly viewed) operand into a contiguous buffer */
      GnnTensor *view = gnn_tensor_new_view (t, shape, strides, ndim, p->offset);

      *packed = gnn_tensor_copy_checked (view, p->dtype, error);
      g_object_unref (view);
      if (*packed == NULL)
        return FALSE;
      p = gnn_tensor_priv (*packed);
      memcpy (strides, p->strides, sizeof (gint64) * ndim);
      op->owner = *packed;
      blas_layout (op->rows, op->cols, strides[ndim - 2], strides[ndim - 1],
                   &op->trans, &op->ld);
    }
  op->data = gnn_tensor_priv_data (p);

  /* right-align the operand's batch dims with the common batch shape */
  for (guint d = 0; d < batch_ndim; d++)
    {
      gint od = (gint) d - (gint) (batch_ndim - nb);

      op->batch_strides[d] = (od < 0 || shape[od] == 1 || batch_shape[d] == 1) ? 0 : strides[od];
    }
  return TRUE;
}

/* Whether operand A's batch dims and rows fold into a single row dimension
 * (so a batch times one shared matrix is a single GEMM, as in PyTorch). */
static gboolean
can_fold_rows (const Operand *a,
               const gint64  *batch_shape,
               guint          batch_ndim)
{
  gint64 expect;

  if (a->trans != CblasNoTrans)
    return FALSE;
  expect = a->rows * a->ld;
  for (gint d = (gint) batch_ndim - 1; d >= 0; d--)
    {
      if (batch_shape[d] == 1)
        continue;
      if (a->batch_strides[d] != expect)
        return FALSE;
      expect *= batch_shape[d];
    }
  return TRUE;
}

static void
gemm (GnnDType        dtype,
      const Operand  *a,
      const guint8   *ap,
      const Operand  *b,
      const guint8   *bp,
      gint64          m,
      guint8         *c)
{
  gint64 k = a->cols, n = b->cols;

  /* a row vector times a matrix: y = B^T x, x has stride 1 (NoTrans) or ld (Trans) */
  gint64 incx = a->trans == CblasNoTrans ? 1 : a->ld;
  CBLAS_TRANSPOSE tb = b->trans == CblasNoTrans ? CblasTrans : CblasNoTrans;
  gint64 bm = b->trans == CblasNoTrans ? k : n, bn = b->trans == CblasNoTrans ? n : k;

  if (dtype == GNN_DTYPE_F32)
    {
      /* below the crossover OpenBLAS's dispatch costs more than the product */
      if (gnn_sgemm_small_fits (a->trans == CblasTrans, b->trans == CblasTrans, m, n, k))
        {
          gnn_sgemm_small (a->trans == CblasTrans, b->trans == CblasTrans, m, n, k,
                           (const float *) ap, a->ld, (const float *) bp, b->ld, NULL,
                           (float *) c, n);
          return;
        }
      if (m == 1 && n > 1)
        {
          cblas_sgemv (CblasRowMajor, tb, bm, bn, 1.0f, (const float *) bp, b->ld,
                       (const float *) ap, incx, 0.0f, (float *) c, 1);
          return;
        }
      if (n == 1 && b->ld >= 1)
        {
          /* matrix times vector: the column of B has stride ld (NoTrans) or 1 (Trans) */
          cblas_sgemv (CblasRowMajor, a->trans, a->trans == CblasNoTrans ? m : k,
                       a->trans == CblasNoTrans ? k : m, 1.0f, (const float *) ap, a->ld,
                       (const float *) bp, b->trans == CblasNoTrans ? b->ld : 1,
                       0.0f, (float *) c, 1);
          return;
        }
      gnn_parallel_gemm_f32 (a->trans, b->trans, m, n, k, 1.0f, (const float *) ap, a->ld,
                             (const float *) bp, b->ld, 0.0f, (float *) c, n);
    }
  else
    {
      if (m == 1 && n > 1)
        {
          cblas_dgemv (CblasRowMajor, tb, bm, bn, 1.0, (const double *) bp, b->ld,
                       (const double *) ap, incx, 0.0, (double *) c, 1);
          return;
        }
      if (n == 1 && b->ld >= 1)
        {
          cblas_dgemv (CblasRowMajor, a->trans, a->trans == CblasNoTrans ? m : k,
                       a->trans == CblasNoTrans ? k : m, 1.0, (const double *) ap, a->ld,
                       (const double *) bp, b->trans == CblasNoTrans ? b->ld : 1,
                       0.0, (double *) c, 1);
          return;
        }
      gnn_parallel_gemm_f64 (a->trans, b->trans, m, n, k, 1.0, (const double *) ap, a->ld,
                             (const double *) bp, b->ld, 0.0, (double *) c, n);
    }
}

/* Integer products: int64 accumulation, i-k-j order so the inner loop runs
 * along a row of B and of C. */
static void
gemm_int (const Operand *a,
          const gint64  *ap,
          const Operand *b,
          const gint64  *bp,
          gint64         m,
          gint64        *c)
{
  gint64 k = a->cols, n = b->cols;
  gint64 ars = a->trans == CblasNoTrans ? a->ld : 1, acs = a->trans == CblasNoTrans ? 1 : a->ld;
  gint64 brs = b->trans == CblasNoTrans ? b->ld : 1, bcs = b->trans == CblasNoTrans ? 1 : b->ld;

  memset (c, 0, sizeof (gint64) * (gsize) (m * n));
  for (gint64 i = 0; i < m; i++)
    for (gint64 kk = 0; kk < k; kk++)
      {
        /* unsigned arithmetic: overflow wraps (as in PyTorch) instead of being undefined */
        guint64 av = (guint64) ap[i * ars + kk * acs];
        const gint64 *br = bp + kk * brs;
        guint64 *cr = (guint64 *) c + i * n;

        for (gint64 j = 0; j < n; j++)
          cr[j] += av * (guint64) br[j * bcs];
      }
}

static void
store_int (GnnDType dtype,
           guint8  *dst,
           gint64   v)
{
  switch (dtype)
    {
    case GNN_DTYPE_I64: *(gint64 *) dst = v; break;
    case GNN_DTYPE_I32: *(gint32 *) dst = (gint32) v; break;
    case GNN_DTYPE_I16: *(gint16 *) dst = (gint16) v; break;
    case GNN_DTYPE_I8: *(gint8 *) dst = (gint8) v; break;
    default: *dst = (guint8) v; break;
    }
}

static GnnTensor *
dot (GnnTensor  *a,
     GnnTensor  *b,
     GError    **error)
{
  GnnTensorPrivate *ap = gnn_tensor_priv (a), *bp = gnn_tensor_priv (b);
  g_autoptr(GnnTensor) ac = NULL;
  g_autoptr(GnnTensor) bc = NULL;
  GnnDType dtype = ap->dtype;
  GnnTensor *out;
  guint8 *o;
  gint64 n = ap->shape[0];

  if (ap->shape[0] != bp->shape[0])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "inconsistent tensor size, expected tensor [%" G_GINT64_FORMAT "] and src [%"
                   G_GINT64_FORMAT "] to have the same number of elements, but got %"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT " elements respectively",
                   ap->shape[0], bp->shape[0], ap->shape[0], bp->shape[0]);
      return NULL;
    }
  out = gnn_tensor_new_contiguous_checked (dtype, NULL, 0, TRUE, error);
  if (out == NULL)
    return NULL;
  o = gnn_tensor_priv_data (gnn_tensor_priv (out));
  if (n == 0)
    return out;

  /* BLAS wants positive increments, integers are summed in int64 */
  if (dtype == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F64)
    {
      ac = ap->strides[0] > 0 ? g_object_ref (a) : gnn_tensor_copy_checked (a, dtype, error);
      bc = bp->strides[0] > 0 ? g_object_ref (b) : gnn_tensor_copy_checked (b, dtype, error);
    }
  else
    {
      ac = gnn_tensor_to_dtype (a, GNN_DTYPE_I64, error);
      bc = ac != NULL ? gnn_tensor_to_dtype (b, GNN_DTYPE_I64, error) : NULL;
    }
  if (ac == NULL || bc == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  ap = gnn_tensor_priv (ac);
  bp = gnn_tensor_priv (bc);

  if (dtype == GNN_DTYPE_F32)
    *(float *) o = cblas_sdot (n, (const float *) gnn_tensor_priv_data (ap), ap->strides[0],
                               (const float *) gnn_tensor_priv_data (bp), bp->strides[0]);
  else if (dtype == GNN_DTYPE_F64)
    *(double *) o = cblas_ddot (n, (const double *) gnn_tensor_priv_data (ap), ap->strides[0],
                                (const double *) gnn_tensor_priv_data (bp), bp->strides[0]);
  else
    {
      const gint64 *x = (const gint64 *) gnn_tensor_priv_data (ap);
      const gint64 *y = (const gint64 *) gnn_tensor_priv_data (bp);
      guint64 s = 0;   /* wraps like the fixed-width types do */

      for (gint64 i = 0; i < n; i++)
        s += (guint64) x[i * ap->strides[0]] * (guint64) y[i * bp->strides[0]];
      store_int (dtype, o, (gint64) s);
    }
  return out;
}

/* A batch of float products split by product among Gnn's threads: each
 * product is one single-threaded GEMM, as at one thread (the same bits at
 * every count). Splitting each product instead costs a parallel region per
 * product, and each thread packs all of A: at 2 threads, 64 products of
 * 128³ ran at 56 GFLOP/s against 69 on one (bench/README.md, issue 26). */
typedef struct
{
  GnnDType       dtype;
  const Operand *a, *b;
  const gint64  *offsets;   /* per product: A's, B's element offsets */
  gint64         m, n;
  gsize          es;
  guint8        *c;
} BatchGemm;

static void
batch_gemm_range (gint64   i0,
                  gint64   i1,
                  gpointer data)
{
  const BatchGemm *j = data;

  for (gint64 i = i0; i < i1; i++)
    gemm (j->dtype, j->a, j->a->data + j->offsets[2 * i] * (gint64) j->es,
          j->b, j->b->data + j->offsets[2 * i + 1] * (gint64) j->es,
          j->m, j->c + i * j->m * j->n * (gint64) j->es);
}

/* Whether @batch products of m·n·k go to the threads whole: enough work
 * for a parallel region, at least one product per thread and little
 * imbalance, and OpenBLAS not threading itself. */
static gboolean
split_by_product (gint64 batch,
                  gint64 m,
                  gint64 n,
                  gint64 k)
{
  gint64 threads = gnn_get_num_threads ();
  gint64 work;

  if (threads < 2 || batch < threads || openblas_get_num_threads () > 1 ||
      (batch % threads != 0 && batch < 4 * threads))
    return FALSE;
  return gnn_checked_mul (batch * m, n, &work) && gnn_checked_mul (work, k, &work) &&
         work >= (gint64) 1 << 18;
}

/**
 * gnn_tensor_matmul:
 * @a: the left operand, at least 1-d
 * @b: the right operand, at least 1-d, with the dtype of @a
 * @error: return location for a #GError
 *
 * The matrix product with `torch.matmul` semantics: two vectors give their
 * dot product (a 0-d tensor); a vector on the left is treated as a row and
 * on the right as a column (that dim is removed from the result); tensors
 * with more than 2 dims are batches of matrices whose batch dims broadcast.
 *
 * float32 and float64 use BLAS (sgemm/dgemm). Operands that are row-major or
 * transposed views of row-major matrices are passed to BLAS as they are;
 * other layouts are packed first. Integer dtypes use a plain loop; float16
 * and bfloat16 compute in float32.
 *
 * Returns: (transfer full): the product, or %NULL if the shapes do not fit,
 *   the dtypes differ or either operand is 0-d
 *
 * Since: 0.1
 */
GnnTensor *
gnn_matmul_values (GnnTensor *a,
             GnnTensor *b,
             GError   **error)
{
  GnnTensorPrivate *ap, *bp;
  gint64 a_shape[GNN_MAX_DIMS], a_strides[GNN_MAX_DIMS];
  gint64 b_shape[GNN_MAX_DIMS], b_strides[GNN_MAX_DIMS];
  gint64 batch_shape[GNN_MAX_DIMS], out_shape[GNN_MAX_DIMS];
  guint a_nd, b_nd, batch_ndim, out_ndim = 0;
  gint64 m, k, n, batch, numel;
  g_autoptr(GnnTensor) a_packed = NULL;
  g_autoptr(GnnTensor) b_packed = NULL;
  Operand oa, ob;
  GnnDType dtype;
  GnnTensor *out;
  guint8 *c;
  gsize es;

  g_return_val_if_fail (GNN_IS_TENSOR (a), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (b), NULL);
  ap = gnn_tensor_priv (a);
  bp = gnn_tensor_priv (b);

  if (ap->ndim == 0 || bp->ndim == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "both arguments to matmul need to be at least 1D, but they are %uD and %uD",
                   ap->ndim, bp->ndim);
      return NULL;
    }
  if (ap->dtype != bp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "expected scalar type %s but found %s",
                   gnn_torch_scalar_name (ap->dtype), gnn_torch_scalar_name (bp->dtype));
      return NULL;
    }
  dtype = ap->dtype;
  if (dtype == GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "\"matmul\" not implemented for '%s'", gnn_torch_scalar_name (dtype));
      return NULL;
    }

  /* Half types: compute in float32, convert the result back. */
  if (dtype == GNN_DTYPE_F16 || dtype == GNN_DTYPE_BF16)
    {
      g_autoptr(GnnTensor) af = gnn_tensor_to_dtype (a, GNN_DTYPE_F32, error);
      g_autoptr(GnnTensor) bf = af != NULL ? gnn_tensor_to_dtype (b, GNN_DTYPE_F32, error) : NULL;
      g_autoptr(GnnTensor) r = bf != NULL ? gnn_tensor_matmul (af, bf, error) : NULL;

      return r != NULL ? gnn_tensor_to_dtype (r, dtype, error) : NULL;
    }

  if (ap->ndim == 1 && bp->ndim == 1)
    return dot (a, b, error);

  /* a vector on the left is a 1 x k row, on the right a k x 1 column */
  a_nd = ap->ndim == 1 ? 2 : ap->ndim;
  b_nd = bp->ndim == 1 ? 2 : bp->ndim;
  if (ap->ndim == 1)
    {
      a_shape[0] = 1, a_strides[0] = ap->shape[0] * ap->strides[0];
      a_shape[1] = ap->shape[0], a_strides[1] = ap->strides[0];
    }
  else
    {
      memcpy (a_shape, ap->shape, sizeof (gint64) * a_nd);
      memcpy (a_strides, ap->strides, sizeof (gint64) * a_nd);
    }
  if (bp->ndim == 1)
    {
      b_shape[0] = bp->shape[0], b_strides[0] = bp->strides[0];
      b_shape[1] = 1, b_strides[1] = 1;
    }
  else
    {
      memcpy (b_shape, bp->shape, sizeof (gint64) * b_nd);
      memcpy (b_strides, bp->strides, sizeof (gint64) * b_nd);
    }

  m = a_shape[a_nd - 2];
  k = a_shape[a_nd - 1];
  n = b_shape[b_nd - 1];
  if (b_shape[b_nd - 2] != k)
    {
      /* PyTorch folds a batched left operand into its rows when the right one is a matrix */
      gint64 rows = m;

      /* saturates: the message only reports it */
      if (b_nd == 2)
        for (guint d = 0; d + 2 < a_nd; d++)
          if (!gnn_checked_mul (rows, a_shape[d], &rows))
            rows = G_MAXINT64;
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "mat1 and mat2 shapes cannot be multiplied (%" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")",
                   rows, k, b_shape[b_nd - 2], n);
      return NULL;
    }
  if (!gnn_broadcast_shapes (a_shape, a_nd - 2, b_shape, b_nd - 2,
                             batch_shape, &batch_ndim, error))
    return NULL;

  for (guint d = 0; d < batch_ndim; d++)
    out_shape[out_ndim++] = batch_shape[d];
  if (ap->ndim > 1)
    out_shape[out_ndim++] = m;
  if (bp->ndim > 1)
    out_shape[out_ndim++] = n;
  /* the batch, and batch × m × n, fit: they divide the validated numel */
  if (!gnn_shape_validate (out_shape, out_ndim, dtype, &numel, error))
    return NULL;
  if (numel == 0 || k == 0)
    return gnn_tensor_new_contiguous_checked (dtype, out_shape, out_ndim, TRUE, error);
  batch = numel / (m * n);

  if (!gnn_dtype_is_floating (dtype))
    {
      /* integers: compute in int64 on packed copies, then convert */
      g_autoptr(GnnTensor) ai = gnn_tensor_to_dtype (a, GNN_DTYPE_I64, error);
      g_autoptr(GnnTensor) bi = ai != NULL ? gnn_tensor_to_dtype (b, GNN_DTYPE_I64, error) : NULL;
      g_autoptr(GnnTensor) r = NULL;

      if (ap->ndim == 1)
        memcpy (a_strides, (gint64[]) { 0, gnn_tensor_priv (ai)->strides[0] }, sizeof (gint64) * 2);
      else
        memcpy (a_strides, gnn_tensor_priv (ai)->strides, sizeof (gint64) * a_nd);
      if (bp->ndim == 1)
        memcpy (b_strides, (gint64[]) { gnn_tensor_priv (bi)->strides[0], 1 }, sizeof (gint64) * 2);
      else
        memcpy (b_strides, gnn_tensor_priv (bi)->strides, sizeof (gint64) * b_nd);
      if (bi == NULL)
        return NULL;
      if (!operand_init (&oa, ai, a_shape, a_strides, a_nd, batch_shape, batch_ndim, &a_packed, error) ||
          !operand_init (&ob, bi, b_shape, b_strides, b_nd, batch_shape, batch_ndim, &b_packed, error))
        return NULL;
      r = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, out_shape, out_ndim, FALSE, error);
      if (r == NULL)
        return NULL;
      c = gnn_tensor_priv_data (gnn_tensor_priv (r));
      {
        const gint64 *bs_[2] = { oa.batch_strides, ob.batch_strides };
        GnnNdIter it;
        gint64 bi_ = 0;

        gnn_nditer_init (&it, batch_shape, batch_ndim, 2, bs_);
        while (gnn_nditer_next (&it))
          for (gint64 i = 0; i < it.inner_size; i++, bi_++)
            gemm_int (&oa, (const gint64 *) oa.data + it.offsets[0] + i * it.inner_strides[0],
                      &ob, (const gint64 *) ob.data + it.offsets[1] + i * it.inner_strides[1],
                      m, (gint64 *) c + bi_ * m * n);
      }
      if (dtype == GNN_DTYPE_I64)
        return g_steal_pointer (&r);
      out = gnn_tensor_new_contiguous_checked (dtype, out_shape, out_ndim, FALSE, error);
      if (out == NULL)
        return NULL;
      {
        gint64 total = gnn_tensor_priv (r)->numel;
        guint8 *d = gnn_tensor_priv_data (gnn_tensor_priv (out));
        gsize os = gnn_dtype_get_size (dtype);

        for (gint64 i = 0; i < total; i++)
          store_int (dtype, d + i * (gint64) os, ((const gint64 *) c)[i]);
      }
      return out;
    }

  if (!operand_init (&oa, a, a_shape, a_strides, a_nd, batch_shape, batch_ndim, &a_packed, error) ||
      !operand_init (&ob, b, b_shape, b_strides, b_nd, batch_shape, batch_ndim, &b_packed, error))
    return NULL;
  out = gnn_tensor_new_contiguous_checked (dtype, out_shape, out_ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  c = gnn_tensor_priv_data (gnn_tensor_priv (out));
  es = gnn_dtype_get_size (dtype);

  /* A batch against one shared right matrix is a single tall GEMM. */
  {
    gboolean b_shared = TRUE;

    for (guint d = 0; d < batch_ndim; d++)
      b_shared = b_shared && ob.batch_strides[d] == 0;
    if (b_shared && can_fold_rows (&oa, batch_shape, batch_ndim))
      {
        gemm (dtype, &oa, oa.data, &ob, ob.data, batch * m, c);
        return out;
      }
  }

  {
    const gint64 *bs_[2] = { oa.batch_strides, ob.batch_strides };
    g_autofree gint64 *offsets = g_new (gint64, 2 * batch);
    BatchGemm job = { dtype, &oa, &ob, offsets, m, n, es, c };
    GnnNdIter it;
    gint64 bi_ = 0;

    gnn_nditer_init (&it, batch_shape, batch_ndim, 2, bs_);
    while (gnn_nditer_next (&it))
      for (gint64 i = 0; i < it.inner_size; i++, bi_++)
        {
          offsets[2 * bi_] = it.offsets[0] + i * it.inner_strides[0];
          offsets[2 * bi_ + 1] = it.offsets[1] + i * it.inner_strides[1];
        }
    if (split_by_product (batch, m, n, k))
      gnn_parallel_for (batch, 1, batch_gemm_range, &job);
    else
      batch_gemm_range (0, batch, &job);
  }
  return out;
}

/* the public entry point records the op for autograd */
GnnTensor *
gnn_tensor_matmul (GnnTensor *a,
                   GnnTensor *b,
                   GError   **error)
{
  GNN_CHECK_STORAGE ("matmul", a, error, NULL);
  GNN_CHECK_STORAGE ("matmul", b, error, NULL);
  return gnn_tensor_record (GNN_OP_MATMUL, gnn_matmul_values (a, b, error), (GnnTensor *[]) { a, b }, 2, NULL);
}
