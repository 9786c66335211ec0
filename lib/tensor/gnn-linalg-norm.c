/* gnn-linalg-norm.c: torch.linalg.matrix_norm and torch.linalg.norm
 *
 * Compositions, as torch's own (CompositeImplicitAutograd), so the nodes
 * are torch's: 'fro' is vector_norm over the two dims, 'nuc' / 2 / -2 the
 * sum / max / min of svdvals with the two dims moved last, 1 / -1 / inf /
 * -inf the max / min of the column (row) sums of |A|.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-linalg-private.h"

typedef enum { ORD_FRO, ORD_NUC, ORD_NUMBER } OrdKind;

/* @ord as torch reads it: "fro", "nuc" or a number ("2", "-inf"...). */
static gboolean
parse_ord (const char *ord,
           OrdKind    *kind,
           double     *value)
{
  char *end = NULL;

  if (strcmp (ord, "fro") == 0)
    *kind = ORD_FRO;
  else if (strcmp (ord, "nuc") == 0)
    *kind = ORD_NUC;
  else
    {
      *kind = ORD_NUMBER;
      *value = g_ascii_strtod (ord, &end);
      return end != ord && *end == '\0';
    }
  return TRUE;
}

static void
set_order_error (const char *ord,
                 GError    **error)
{
  double value;
  OrdKind kind;

  if (parse_ord (ord, &kind, &value) && kind == ORD_NUMBER && isfinite (value))
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "linalg.matrix_norm: Order %g not supported.", value);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "linalg.matrix_norm: Order %s not supported.", ord);
}

/* the svdvals of @self with dims @d0, @d1 moved last, reduced by @kind
 * (sum, max or min) over them; keepdim puts two unit dims back in place. */
static GnnTensor *
spectral (GnnTensor  *self,
          guint       d0,
          guint       d1,
          int         reduce,
          gboolean    keepdim,
          GError    **error)
{
  guint nd = gnn_tensor_priv (self)->ndim, j = 0;
  gint perm[GNN_MAX_DIMS], reverse[GNN_MAX_DIMS], last = -1;
  g_autoptr(GnnTensor) moved = NULL;
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) r = NULL;
  g_autoptr(GnnTensor) r1 = NULL;

  for (guint i = 0; i < nd; i++)
    if (i != d0 && i != d1)
      perm[j++] = (gint) i;
  perm[j++] = (gint) d0;
  perm[j++] = (gint) d1;
  for (guint i = 0; i < nd; i++)
    reverse[perm[i]] = (gint) i;
  if ((moved = gnn_tensor_permute (self, perm, nd, error)) == NULL ||
      (s = gnn_tensor_linalg_svdvals (moved, error)) == NULL)
    return NULL;
  r = reduce == 0 ? gnn_tensor_sum (s, &last, 1, keepdim, error)
      : reduce > 0 ? gnn_tensor_max (s, &last, 1, keepdim, error)
      : gnn_tensor_min (s, &last, 1, keepdim, error);
  if (r == NULL || !keepdim)
    return g_steal_pointer (&r);
  if ((r1 = gnn_tensor_unsqueeze (r, -1, error)) == NULL)
    return NULL;
  return gnn_tensor_permute (r1, reverse, nd, error);
}

/**
 * gnn_tensor_linalg_matrix_norm:
 * @self: float32 or float64 matrices (dims @dim0 and @dim1 of a batch)
 * @ord: (nullable): "fro" (%NULL: the default), "nuc", or a number as
 *   text: "2", "-2", "1", "-1", "inf", "-inf"
 * @dim0: the rows' dim (torch's default -2)
 * @dim1: the columns' dim (torch's default -1)
 * @keepdim: keep the two dims with size 1
 * @error: return location for a #GError
 *
 * `torch.linalg.matrix_norm (A, ord, dim=(dim0, dim1), keepdim)`, composed
 * as torch composes it (the gradients are those of vector_norm, svdvals,
 * sum and amax/amin).
 *
 * Returns: (transfer full): the norms, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_matrix_norm (GnnTensor   *self,
                               const char  *ord,
                               gint         dim0,
                               gint         dim1,
                               gboolean     keepdim,
                               GError     **error)
{
  GnnTensorPrivate *p;
  OrdKind kind;
  double value = 0.0;
  guint d0, d1;
  gint dims[2];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (ord == NULL)
    ord = "fro";
  if (!parse_ord (ord, &kind, &value) ||
      (kind == ORD_NUMBER && fabs (value) != 1.0 && fabs (value) != 2.0 && !isinf (value)))
    {
      set_order_error (ord, error);
      return NULL;
    }
  p = gnn_tensor_priv (self);
  if (!gnn_linalg_check_matrix ("linalg.matrix_norm", self, error) ||
      !gnn_wrap_dim (dim0, p->ndim, &d0, error) || !gnn_wrap_dim (dim1, p->ndim, &d1, error))
    return NULL;
  if (d0 == d1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "linalg.matrix_norm: dims must be different. Got (%u, %u)", d0, d1);
      return NULL;
    }
  dims[0] = (gint) d0;
  dims[1] = (gint) d1;
  if (kind == ORD_FRO)
    return gnn_tensor_vector_norm (self, 2.0, dims, 2, keepdim, error);
  if (kind == ORD_NUC)
    return spectral (self, d0, d1, 0, keepdim, error);
  if (fabs (value) == 2.0)
    return spectral (self, d0, d1, value > 0 ? 1 : -1, keepdim, error);
  {
    /* 1: max over columns of the column sums of |A|; inf: the same on Aᵀ */
    g_autoptr(GnnTensor) sums = NULL;
    gint first = isinf (value) ? dims[1] : dims[0], second = isinf (value) ? dims[0] : dims[1];

    if (!keepdim && first < second)
      second--;
    if ((sums = gnn_tensor_vector_norm (self, 1.0, &first, 1, keepdim, error)) == NULL)
      return NULL;
    return value > 0 ? gnn_tensor_max (sums, &second, 1, keepdim, error)
                     : gnn_tensor_min (sums, &second, 1, keepdim, error);
  }
}

/**
 * gnn_tensor_linalg_norm:
 * @self: a float32 or float64 tensor
 * @ord: (nullable): the order as text ("fro", "nuc", "2", "inf", ...), %NULL: None
 * @dims: (array length=n_dims) (nullable): one dim (a vector norm) or two
 *   (a matrix norm); %NULL: all (with an @ord, @self must be 1-d or 2-d)
 * @n_dims: the number of @dims
 * @keepdim: keep the reduced dims with size 1
 * @error: return location for a #GError
 *
 * `torch.linalg.norm (A, ord, dim, keepdim)`: torch's dispatch — a matrix
 * norm (gnn_tensor_linalg_matrix_norm()) when @ord is given and two dims
 * are (or @self is 2-d), else a vector norm (2 when @ord is %NULL).
 *
 * Returns: (transfer full): the norm(s), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_norm (GnnTensor   *self,
                        const char  *ord,
                        const gint  *dims,
                        guint        n_dims,
                        gboolean     keepdim,
                        GError     **error)
{
  GnnTensorPrivate *p;
  OrdKind kind = ORD_NUMBER;
  double value = 2.0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (ord != NULL)
    parse_ord (ord, &kind, &value);
  if (dims != NULL && n_dims > 0)
    {
      if (n_dims > 2)
        {
          GString *list = g_string_new ("[");

          for (guint i = 0; i < n_dims; i++)
            g_string_append_printf (list, "%s%d", i ? ", " : "", dims[i]);
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "linalg.norm: If dim is specified, it %s be of length 1 or 2. Got %s]",
                       kind == ORD_NUMBER ? "must" : "mut", list->str);
          g_string_free (list, TRUE);
          return NULL;
        }
    }
  else if (ord != NULL && p->ndim != 1 && p->ndim != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "linalg.norm: If dim is not specified but ord is, the input must be 1D or "
                   "2D. Got %uD.", p->ndim);
      return NULL;
    }
  if (ord != NULL && ((dims != NULL && n_dims == 2) || ((dims == NULL || n_dims == 0) && p->ndim == 2)))
    return gnn_tensor_linalg_matrix_norm (self, ord, n_dims == 2 ? dims[0] : 0,
                                          n_dims == 2 ? dims[1] : 1, keepdim, error);
  if (kind != ORD_NUMBER)
    /* a string order on a vector: matrix_norm's own refusal */
    return gnn_tensor_linalg_matrix_norm (self, ord, n_dims >= 1 ? dims[0] : 0, -1, keepdim, error);
  return gnn_tensor_vector_norm (self, value, dims, dims != NULL ? n_dims : 0, keepdim, error);
}
