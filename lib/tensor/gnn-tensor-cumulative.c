/* gnn-tensor-cumulative.c: the running maximum / minimum with their
 * positions (cummax, cummin) and logcumsumexp along a dim
 *
 * The input is read as doubles in its packed [outer, n, inner] layout.
 * cummax/cummin find the positions first, as torch's helper does (NaN
 * wins and stays, a tie moves to the later element), then gather the
 * values from the input so integers keep every bit; the gradient goes to
 * the picked positions (CummaxBackward0). logcumsumexp accumulates
 * log (exp a + exp b) in double; its gradient is in gnn-backward-scan.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-reduce-private.h"
#include "tensor/gnn-elementwise-private.h"

typedef enum
{
  CUM_MAX,
  CUM_MIN,
  CUM_LOGSUMEXP,
} CumKind;

static inline double
log_add_exp (double a,
             double b)
{
  double m = fmax (a, b);

  if (isinf (m) && m < 0)
    return m;                 /* both -inf */
  if (isnan (a) || isnan (b))
    return NAN;
  if (isinf (m))
    return m;
  return m + log1p (exp (-fabs (a - b)));
}

/* One slice of @n elements at stride @s: positions (max/min) into @idx or
 * running values into @y. */
static void
cum_slice (CumKind       kind,
           const double *x,
           gint64        n,
           gint64        s,
           gint64       *idx,
           double       *y)
{
  double acc = 0.0;
  gint64 at = 0;

  for (gint64 k = 0; k < n; k++)
    {
      double v = x[k * s];

      if (kind == CUM_LOGSUMEXP)
        {
          acc = k == 0 ? v : log_add_exp (acc, v);
          y[k * s] = acc;
          continue;
        }
      if (k == 0 || isnan (v) ||
          (!isnan (acc) && (kind == CUM_MAX ? v >= acc : v <= acc)))
        {
          acc = v;
          at = k;
        }
      idx[k * s] = at;
    }
}

/* The positions (int64, cummax/cummin) or values (float, logcumsumexp) of
 * the scan of @self along @d. */
static GnnTensor *
cum_scan (CumKind     kind,
          GnnTensor  *self,
          guint       d,
          GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) x = gnn_tensor_copy_checked (self, GNN_DTYPE_F64, error);
  GnnTensor *out;
  const double *xv;
  gint64 outer, n, inner;

  if (x == NULL)
    return NULL;
  out = gnn_tensor_new_contiguous_checked (kind == CUM_LOGSUMEXP ? GNN_DTYPE_F64 : GNN_DTYPE_I64,
                                           p->shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  gnn_split_at_dim (p->shape, p->ndim, d, &outer, &n, &inner);
  xv = (const double *) gnn_tensor_priv_data (gnn_tensor_priv (x));
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        gint64 base = o * n * inner + i;
        guint8 *data = gnn_tensor_priv_data (gnn_tensor_priv (out));

        cum_slice (kind, xv + base, n, inner,
                   (gint64 *) data + base, (double *) data + base);
      }
  return out;
}

static GnnTensor *
cum_extreme (CumKind      kind,
             GnnTensor   *self,
             gint         dim,
             GnnTensor  **indices,
             GError     **error)
{
  const char *name = kind == CUM_MAX ? "cummax" : "cummin";
  g_autoptr(GnnTensor) index = NULL;
  GnnTensor *values;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE (name, self, error, NULL);
  if (!gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, &d, error))
    return NULL;
  if (gnn_tensor_priv (self)->ndim == 0)
    {
      index = gnn_tensor_zeros (NULL, 0, GNN_DTYPE_I64, NULL);
      values = gnn_tensor_copy_checked (self, gnn_tensor_priv (self)->dtype, error);
    }
  else
    {
      if ((index = cum_scan (kind, self, d, error)) == NULL)
        return NULL;
      gnn_no_grad_push ();
      values = gnn_tensor_gather (self, (gint) d, index, error);
      gnn_no_grad_pop ();
    }
  values = gnn_tensor_record (kind == CUM_MAX ? GNN_OP_CUMMAX : GNN_OP_CUMMIN, values, &self, 1,
                              &(GnnOpParams) { .dim = (gint) d, .extra = { index } });
  if (values != NULL && indices != NULL)
    *indices = g_steal_pointer (&index);
  return values;
}

/**
 * gnn_tensor_cummax:
 * @self: a #GnnTensor
 * @dim: the dim to scan along (may be negative)
 * @indices: (out) (optional) (transfer full): the positions of the
 *   maxima (int64)
 * @error: return location for a #GError
 *
 * The running maximum along @dim and where it was found (like
 * `torch.cummax`): a NaN is the maximum from where it appears on; among
 * equal values the later position is given, as in torch.
 *
 * Returns: (transfer full): the values (@self's dtype), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cummax (GnnTensor  *self,
                   gint        dim,
                   GnnTensor **indices,
                   GError    **error)
{
  return cum_extreme (CUM_MAX, self, dim, indices, error);
}

/**
 * gnn_tensor_cummin:
 * @self: a #GnnTensor
 * @dim: the dim to scan along (may be negative)
 * @indices: (out) (optional) (transfer full): the positions of the
 *   minima (int64)
 * @error: return location for a #GError
 *
 * The running minimum along @dim and where it was found (like
 * `torch.cummin`); see [method@Gnn.Tensor.cummax].
 *
 * Returns: (transfer full): the values (@self's dtype), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cummin (GnnTensor  *self,
                   gint        dim,
                   GnnTensor **indices,
                   GError    **error)
{
  return cum_extreme (CUM_MIN, self, dim, indices, error);
}

/**
 * gnn_tensor_logcumsumexp:
 * @self: a floating-point #GnnTensor
 * @dim: the dim to accumulate along (may be negative)
 * @error: return location for a #GError
 *
 * `log (exp (self[0]) + … + exp (self[i]))` along @dim without overflow
 * (like `torch.logcumsumexp`), accumulated in double; integer tensors are
 * refused as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor of @self's dtype, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logcumsumexp (GnnTensor *self,
                         gint       dim,
                         GError   **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) acc = NULL;
  GnnTensor *out;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("logcumsumexp", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (p->dtype != GNN_DTYPE_F32 && p->dtype != GNN_DTYPE_F64)
    {
      gnn_set_not_implemented (error, "logcumsumexp_out_cpu", p->dtype);
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  if (p->ndim == 0)
    out = gnn_tensor_copy_checked (self, p->dtype, error);
  else if ((acc = cum_scan (CUM_LOGSUMEXP, self, d, error)) == NULL)
    return NULL;
  else
    out = gnn_tensor_copy_checked (acc, p->dtype, error);
  return gnn_tensor_record (GNN_OP_LOGCUMSUMEXP, out, &self, 1, &(GnnOpParams) { .dim = (gint) d });
}
