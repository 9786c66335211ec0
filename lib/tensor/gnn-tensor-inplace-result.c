/* gnn-tensor-inplace-result.c: in-place forms of ops whose result has the
 * input's shape and dtype — tril_, triu_, cumsum_ — as torch writes them:
 * the op's result computed, then copied over self, the node recorded as
 * the op's own (TrilBackward0 on the rebased history...).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-tensor-record-private.h"

/* Writes @result (transfer full, may be NULL on error) over @self,
 * recording @op with @params on @self's history first. */
static gboolean
assign_result (GnnOpKind          op,
               GnnTensor         *self,
               GnnTensor         *result,
               const GnnOpParams *params,
               GError           **error)
{
  g_autoptr(GnnTensor) owned = result;

  if (owned == NULL)
    return FALSE;
  if (!gnn_tensor_record_inplace_full (op, self, NULL, 0, params, error))
    return FALSE;
  return gnn_tensor_write_values_ (self, owned, error);
}

/**
 * gnn_tensor_tril_:
 * @self: a #GnnTensor of at least 2 dims, overwritten
 * @diagonal: the last diagonal kept (0 the main one, positive above)
 * @error: return location for a #GError
 *
 * Zeroes the elements of @self above @diagonal in place (like
 * `Tensor.tril_`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_tril_ (GnnTensor *self,
                  gint64     diagonal,
                  GError   **error)
{
  GnnTensor *result;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  gnn_no_grad_push ();
  result = gnn_tensor_tril (self, diagonal, error);
  gnn_no_grad_pop ();
  return assign_result (GNN_OP_TRIL, self, result, &(GnnOpParams) { .start = diagonal }, error);
}

/**
 * gnn_tensor_triu_:
 * @self: a #GnnTensor of at least 2 dims, overwritten
 * @diagonal: the first diagonal kept (0 the main one, positive above)
 * @error: return location for a #GError
 *
 * Zeroes the elements of @self below @diagonal in place (like
 * `Tensor.triu_`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_triu_ (GnnTensor *self,
                  gint64     diagonal,
                  GError   **error)
{
  GnnTensor *result;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  gnn_no_grad_push ();
  result = gnn_tensor_triu (self, diagonal, error);
  gnn_no_grad_pop ();
  return assign_result (GNN_OP_TRIU, self, result, &(GnnOpParams) { .start = diagonal }, error);
}

/**
 * gnn_tensor_cumsum_:
 * @self: a #GnnTensor, overwritten
 * @dim: the dim to accumulate along (may be negative)
 * @error: return location for a #GError
 *
 * The running sums along @dim in place (like `Tensor.cumsum_`; @self keeps
 * its dtype).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_cumsum_ (GnnTensor *self,
                    gint       dim,
                    GError   **error)
{
  GnnTensor *result;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  if (!gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, &d, error))
    return FALSE;
  gnn_no_grad_push ();
  result = gnn_tensor_cumsum (self, dim, error);
  gnn_no_grad_pop ();
  return assign_result (GNN_OP_CUMSUM, self, result, &(GnnOpParams) { .dim = (gint) d }, error);
}
