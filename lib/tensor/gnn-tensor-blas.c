/* gnn-tensor-blas.c: torch's strict products — mm, bmm, mv, dot — the fused
 * addmm / baddbmm (beta · input + alpha · product), and outer; all on
 * matmul's BLAS path
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-matmul-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-dtype-check-private.h"

static gboolean
check_rank (GnnTensor  *t,
            guint       ndim,
            const char *message,
            GError    **error)
{
  if (gnn_tensor_priv (t)->ndim == ndim)
    return TRUE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, message);
  return FALSE;
}

static gboolean
check_same_dtype (GnnTensor  *a,
                  GnnTensor  *b,
                  GError    **error)
{
  GnnDType da = gnn_tensor_priv (a)->dtype, db = gnn_tensor_priv (b)->dtype;

  if (da == db)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "expected scalar type %s but found %s",
               gnn_torch_scalar_name (da), gnn_torch_scalar_name (db));
  return FALSE;
}

/* bmm's operands: 3-d, one batch, matching inner sizes (torch's checks). */
static gboolean
check_bmm (GnnTensor  *a,
           GnnTensor  *b,
           GError    **error)
{
  GnnTensorPrivate *ap = gnn_tensor_priv (a), *bp = gnn_tensor_priv (b);

  if (!check_rank (a, 3, "batch1 must be a 3D tensor", error) ||
      !check_rank (b, 3, "batch2 must be a 3D tensor", error))
    return FALSE;
  if (bp->shape[0] != ap->shape[0] || bp->shape[1] != ap->shape[2])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected size for first two dimensions of batch2 tensor to be: [%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] but got: [%" G_GINT64_FORMAT ", %"
                   G_GINT64_FORMAT "].", ap->shape[0], ap->shape[2], bp->shape[0], bp->shape[1]);
      return FALSE;
    }
  return check_same_dtype (a, b, error);
}

static gboolean
check_mm (GnnTensor  *a,
          GnnTensor  *b,
          GError    **error)
{
  return check_rank (a, 2, "self must be a matrix", error) &&
         check_rank (b, 2, "mat2 must be a matrix", error) &&
         check_same_dtype (a, b, error);
}

/**
 * gnn_tensor_mm:
 * @self: an [n, m] matrix
 * @mat2: an [m, p] matrix of @self's dtype
 * @error: return location for a #GError
 *
 * The matrix product (like `torch.mm`): unlike [method@Gnn.Tensor.matmul]
 * both operands must be matrices.
 *
 * Returns: (transfer full): the [n, p] product, or %NULL with @error set
 *   ("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mm (GnnTensor *self,
               GnnTensor *mat2,
               GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (mat2), NULL);
  GNN_CHECK_STORAGE ("mm", self, error, NULL);
  GNN_CHECK_STORAGE ("mm", mat2, error, NULL);
  if (!check_mm (self, mat2, error))
    return NULL;
  return gnn_tensor_matmul (self, mat2, error);
}

/**
 * gnn_tensor_bmm:
 * @self: a [b, n, m] batch of matrices
 * @mat2: a [b, m, p] batch of @self's dtype
 * @error: return location for a #GError
 *
 * The batched matrix product (like `torch.bmm`): no broadcasting, both
 * operands 3-d with the same batch.
 *
 * Returns: (transfer full): the [b, n, p] products, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bmm (GnnTensor *self,
                GnnTensor *mat2,
                GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (mat2), NULL);
  GNN_CHECK_STORAGE ("bmm", self, error, NULL);
  GNN_CHECK_STORAGE ("bmm", mat2, error, NULL);
  if (!check_bmm (self, mat2, error))
    return NULL;
  return gnn_tensor_record (GNN_OP_BMM, gnn_matmul_values (self, mat2, error),
                            (GnnTensor *[]) { self, mat2 }, 2, NULL);
}

/**
 * gnn_tensor_mv:
 * @self: an [n, m] matrix
 * @vec: an [m] vector of @self's dtype
 * @error: return location for a #GError
 *
 * The matrix-vector product (like `torch.mv`).
 *
 * Returns: (transfer full): the [n] product, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mv (GnnTensor *self,
               GnnTensor *vec,
               GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (vec), NULL);
  if (!check_rank (self, 2, "vector + matrix @ vector expected, got 1, 2, 1", error) ||
      !check_rank (vec, 1, "vector + matrix @ vector expected, got 1, 2, 2", error) ||
      !check_same_dtype (self, vec, error))
    return NULL;
  return gnn_tensor_matmul (self, vec, error);
}

/**
 * gnn_tensor_dot:
 * @self: a 1-d tensor
 * @other: a 1-d tensor of the same length and dtype
 * @error: return location for a #GError
 *
 * The dot product (like `torch.dot`): a 0-d tensor.
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_dot (GnnTensor *self,
                GnnTensor *other,
                GError   **error)
{
  GnnTensorPrivate *ap, *bp;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (other), NULL);
  ap = gnn_tensor_priv (self);
  bp = gnn_tensor_priv (other);
  if (ap->ndim != 1 || bp->ndim != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "1D tensors expected, but got %uD and %uD tensors", ap->ndim, bp->ndim);
      return NULL;
    }
  if (ap->dtype != bp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "dot : expected both vectors to have same dtype, but found %s and %s",
                   gnn_torch_scalar_name (ap->dtype), gnn_torch_scalar_name (bp->dtype));
      return NULL;
    }
  return gnn_tensor_matmul (self, other, error);
}

/**
 * gnn_tensor_outer:
 * @self: a 1-d tensor
 * @vec2: a 1-d tensor
 * @error: return location for a #GError
 *
 * The outer product `self[i] · vec2[j]` (like `torch.outer`), in torch's
 * promoted dtype.
 *
 * Returns: (transfer full): the [n, m] matrix, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_outer (GnnTensor *self,
                  GnnTensor *vec2,
                  GError   **error)
{
  g_autoptr(GnnTensor) column = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (vec2), NULL);
  if (gnn_tensor_priv (self)->ndim != 1 || gnn_tensor_priv (vec2)->ndim != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "outer: expected 1D tensors, but got %uD and %uD tensors",
                   gnn_tensor_priv (self)->ndim, gnn_tensor_priv (vec2)->ndim);
      return NULL;
    }
  /* torch's own composition: self.reshape (-1, 1) * vec2 */
  column = gnn_tensor_unsqueeze (self, 1, error);
  return column != NULL ? gnn_tensor_mul (column, vec2, error) : NULL;
}

/* beta · input + alpha · (a @ b), with torch's rule that beta == 0 ignores
 * input (NaN and inf in it do not propagate). */
static GnnTensor *
addmm_values (GnnTensor  *input,
              GnnTensor  *a,
              GnnTensor  *b,
              double      beta,
              double      alpha,
              GError    **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) prod = gnn_matmul_values (a, b, error);
  g_autoptr(GnnTensor) scaled = NULL;
  g_autoptr(GnnTensor) weighted = NULL;
  GnnTensorPrivate *pp;
  gint64 shape[GNN_MAX_DIMS];
  guint ndim;

  if (prod == NULL)
    return NULL;
  pp = gnn_tensor_priv (prod);
  if (ip->dtype != pp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "expected scalar type %s but found %s",
                   gnn_torch_scalar_name (pp->dtype), gnn_torch_scalar_name (ip->dtype));
      return NULL;
    }
  if (!gnn_broadcast_shapes (pp->shape, pp->ndim, ip->shape, ip->ndim, shape, &ndim, error))
    return NULL;
  if (ndim != pp->ndim || memcmp (shape, pp->shape, sizeof (gint64) * ndim) != 0)
    {
      g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);
      g_autofree char *ps = gnn_shape_to_string (pp->shape, pp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "The expanded size of the tensor (%s) must match the existing size (%s)", ps,
                   is);
      return NULL;
    }
  if (alpha != 1.0)
    {
      g_autoptr(GnnTensor) f = gnn_tensor_new_scalar (alpha, pp->dtype);

      if ((scaled = gnn_ew_binary (&gnn_op_mul, prod, f, error)) == NULL)
        return NULL;
    }
  else
    scaled = g_object_ref (prod);
  if (beta == 0.0)
    return gnn_ew_cast (scaled, pp->dtype, error);
  if (beta != 1.0)
    {
      g_autoptr(GnnTensor) f = gnn_tensor_new_scalar (beta, pp->dtype);

      if ((weighted = gnn_ew_binary (&gnn_op_mul, input, f, error)) == NULL)
        return NULL;
    }
  else
    weighted = g_object_ref (input);
  return gnn_ew_binary (&gnn_op_add, weighted, scaled, error);
}

/**
 * gnn_tensor_addmm:
 * @self: the added tensor, broadcastable to [n, p]
 * @mat1: an [n, m] matrix
 * @mat2: an [m, p] matrix
 * @beta: the factor of @self (0: @self is ignored, NaN included)
 * @alpha: the factor of the product
 * @error: return location for a #GError
 *
 * `beta · self + alpha · (mat1 @ mat2)` (like `torch.addmm (self, mat1,
 * mat2, beta=beta, alpha=alpha)`, Linear's fused form).
 *
 * Returns: (transfer full): the [n, p] result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_addmm (GnnTensor *self,
                  GnnTensor *mat1,
                  GnnTensor *mat2,
                  double     beta,
                  double     alpha,
                  GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (mat1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (mat2), NULL);
  GNN_CHECK_STORAGE ("addmm", self, error, NULL);
  GNN_CHECK_STORAGE ("addmm", mat1, error, NULL);
  GNN_CHECK_STORAGE ("addmm", mat2, error, NULL);
  if (!check_rank (mat1, 2, "mat1 must be a matrix, got 1-D tensor", error) ||
      !check_rank (mat2, 2, "mat2 must be a matrix, got 1-D tensor", error) ||
      !check_same_dtype (mat1, mat2, error))
    return NULL;
  return gnn_tensor_record (GNN_OP_ADDMM, addmm_values (self, mat1, mat2, beta, alpha, error),
                            (GnnTensor *[]) { self, mat1, mat2 }, 3,
                            &(GnnOpParams) { .scalar = alpha, .scalar2 = beta });
}

/**
 * gnn_tensor_baddbmm:
 * @self: the added tensor, broadcastable to [b, n, p]
 * @batch1: a [b, n, m] batch of matrices
 * @batch2: a [b, m, p] batch of matrices
 * @beta: the factor of @self (0: @self is ignored)
 * @alpha: the factor of the products
 * @error: return location for a #GError
 *
 * `beta · self + alpha · bmm (batch1, batch2)` (like `torch.baddbmm`).
 *
 * Returns: (transfer full): the [b, n, p] result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_baddbmm (GnnTensor *self,
                    GnnTensor *batch1,
                    GnnTensor *batch2,
                    double     beta,
                    double     alpha,
                    GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (batch1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (batch2), NULL);
  GNN_CHECK_STORAGE ("baddbmm", self, error, NULL);
  GNN_CHECK_STORAGE ("baddbmm", batch1, error, NULL);
  GNN_CHECK_STORAGE ("baddbmm", batch2, error, NULL);
  if (!check_bmm (batch1, batch2, error))
    return NULL;
  return gnn_tensor_record (GNN_OP_BADDBMM, addmm_values (self, batch1, batch2, beta, alpha, error),
                            (GnnTensor *[]) { self, batch1, batch2 }, 3,
                            &(GnnOpParams) { .scalar = alpha, .scalar2 = beta });
}
