/* gnn-backward-stats.c: gradients of var, std, vector norms, prod and
 * logsumexp (torch's formulas, with its care at zeros)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

static GnnTensor *
num (double v)
{
  return gnn_tensor_new_wrapped_number (v);
}

/* The number of input elements behind each output element. */
static double
reduced_count (GnnNode *node)
{
  double in = 1, out = 1;

  for (guint d = 0; d < node->inputs[0].ndim; d++)
    in *= (double) node->inputs[0].shape[d];
  for (guint d = 0; d < node->out.ndim; d++)
    out *= (double) node->out.shape[d];
  return out > 0 ? in / out : 0;
}

/* var: g · 2 (x - mean) / (N - c); std: g · (x - mean) / ((N - c) · std) */
gboolean
gnn_backward_var (GnnNode    *node,
                  GnnTensor  *grad,
                  GnnTensor **grads,
                  GError    **error)
{
  GnnTensor *x = node->saved[0];
  const gint *dims = node->params.dims;
  guint n_dims = node->params.n_dims;
  double denom = MAX (reduced_count (node) - node->params.scalar, 0.0);
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) mean = NULL;
  g_autoptr(GnnTensor) dev = NULL;
  g_autoptr(GnnTensor) scaled = NULL;
  g_autoptr(GnnTensor) factor = NULL;

  TRY (g = gnn_ag_grad_keepdim (node, grad, error));
  TRY (mean = gnn_tensor_mean (x, dims, n_dims, TRUE, error));
  TRY (dev = gnn_tensor_sub (x, mean, error));
  if (node->op == GNN_OP_VAR)
    {
      factor = num (2.0 / denom);
      TRY (scaled = gnn_tensor_mul (g, factor, error));
    }
  else
    {
      g_autoptr(GnnTensor) std = NULL;
      g_autoptr(GnnTensor) d = num (denom);
      g_autoptr(GnnTensor) sd = NULL;

      TRY (std = gnn_ag_grad_keepdim (node, node->saved_out, error));
      TRY (sd = gnn_tensor_mul (std, d, error));
      TRY (scaled = gnn_tensor_div (g, sd, error));
    }
  TRY (grads[0] = gnn_tensor_mul (scaled, dev, error));
  return TRUE;
}

gboolean
gnn_backward_norm (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  GnnTensor *x = node->saved[0];
  double p = node->params.scalar;
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) norm = NULL;
  g_autoptr(GnnTensor) zero = num (0.0);
  g_autoptr(GnnTensor) sign = NULL;

  if (p == 0.0)
    {
      grads[0] = gnn_ag_zeros (&node->inputs[0]);
      return TRUE;
    }
  TRY (g = gnn_ag_grad_keepdim (node, grad, error));
  TRY (norm = gnn_ag_grad_keepdim (node, node->saved_out, error));
  TRY (sign = gnn_tensor_sign (x, error));
  if (p == 1.0)
    TRY (grads[0] = gnn_tensor_mul (sign, g, error));
  else if (isinf (p))
    {
      /* shared by the elements of the extreme magnitude */
      g_autoptr(GnnTensor) a = NULL;
      g_autoptr(GnnTensor) hit = NULL;
      g_autoptr(GnnTensor) hitf = NULL;
      g_autoptr(GnnTensor) count = NULL;
      g_autoptr(GnnTensor) share = NULL;
      g_autoptr(GnnTensor) masked = NULL;

      TRY (a = gnn_tensor_abs (x, error));
      TRY (hit = gnn_tensor_eq (a, norm, error));
      TRY (hitf = gnn_tensor_to_dtype (hit, node->inputs[0].dtype, error));
      TRY (count = gnn_tensor_sum (hitf, node->params.dims, node->params.n_dims, TRUE, error));
      TRY (share = gnn_tensor_div (g, count, error));
      TRY (masked = gnn_tensor_mul (share, hitf, error));
      TRY (grads[0] = gnn_tensor_mul (sign, masked, error));
    }
  else
    {
      /* sign (x) |x|^(p-1) · g / norm^(p-1), 0 where the norm is 0 */
      g_autoptr(GnnTensor) a = NULL;
      g_autoptr(GnnTensor) ap = NULL;
      g_autoptr(GnnTensor) scaled_x = NULL;
      g_autoptr(GnnTensor) np = NULL;
      g_autoptr(GnnTensor) scale = NULL;
      g_autoptr(GnnTensor) nz = NULL;
      g_autoptr(GnnTensor) scale0 = NULL;

      TRY (a = gnn_tensor_abs (x, error));
      TRY (ap = gnn_tensor_pow (a, p - 1.0, error));
      TRY (scaled_x = gnn_tensor_mul (sign, ap, error));
      if (p < 1.0)
        {
          g_autoptr(GnnTensor) xz = NULL;
          g_autoptr(GnnTensor) fixed = NULL;

          TRY (xz = gnn_tensor_eq (x, zero, error));
          TRY (fixed = gnn_tensor_masked_fill (scaled_x, xz, zero, error));
          g_object_unref (scaled_x);
          scaled_x = g_steal_pointer (&fixed);
        }
      TRY (np = gnn_tensor_pow (norm, p - 1.0, error));
      TRY (scale = gnn_tensor_div (g, np, error));
      TRY (nz = gnn_tensor_eq (norm, zero, error));
      TRY (scale0 = gnn_tensor_masked_fill (scale, nz, zero, error));
      TRY (grads[0] = gnn_tensor_mul (scaled_x, scale0, error));
    }
  return TRUE;
}

gboolean
gnn_backward_logsumexp (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) centered = NULL;
  g_autoptr(GnnTensor) softmax = NULL;

  TRY (g = gnn_ag_grad_keepdim (node, grad, error));
  TRY (out = gnn_ag_grad_keepdim (node, node->saved_out, error));
  TRY (centered = gnn_tensor_sub (node->saved[0], out, error));
  TRY (softmax = gnn_tensor_exp (centered, error));
  TRY (grads[0] = gnn_tensor_mul (g, softmax, error));
  return TRUE;
}

/* The product of the other elements of each row of a contiguous [m, r]
 * float64 block (prefix and suffix products: exact with zeros). */
static void
products_of_others (const double *x,
                    double       *out,
                    gint64        m,
                    gint64        r)
{
  for (gint64 i = 0; i < m; i++)
    {
      const double *row = x + i * r;
      double *o = out + i * r;
      double acc = 1.0;

      for (gint64 k = 0; k < r; k++)
        {
          o[k] = acc;
          acc *= row[k];
        }
      acc = 1.0;
      for (gint64 k = r - 1; k >= 0; k--)
        {
          o[k] *= acc;
          acc *= row[k];
        }
    }
}

/* d prod / d x_i = the product of the others (torch's prod_backward, which
 * also handles zeros exactly) */
gboolean
gnn_backward_prod (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  const GnnMeta *in = &node->inputs[0];
  gboolean reduce[GNN_MAX_DIMS] = { FALSE, };
  gint perm[GNN_MAX_DIMS], inverse[GNN_MAX_DIMS];
  gint64 m = 1, r = 1;
  guint n = 0;
  g_autoptr(GnnTensor) moved = NULL;
  g_autoptr(GnnTensor) packed = NULL;
  g_autoptr(GnnTensor) others = NULL;
  g_autoptr(GnnTensor) others_moved = NULL;
  g_autoptr(GnnTensor) others_in = NULL;
  g_autoptr(GnnTensor) g = NULL;
  GnnTensor *xd;

  for (guint d = 0; d < in->ndim; d++)
    reduce[d] = node->params.n_dims == 0;
  for (guint i = 0; i < node->params.n_dims; i++)
    {
      guint d;

      if (gnn_wrap_dim (node->params.dims[i], in->ndim, &d, NULL))
        reduce[d] = TRUE;
    }
  /* the kept dims first, the reduced ones last: rows of r factors */
  for (guint d = 0; d < in->ndim; d++)
    if (!reduce[d])
      {
        perm[n++] = (gint) d;
        m *= in->shape[d];
      }
  for (guint d = 0; d < in->ndim; d++)
    if (reduce[d])
      {
        perm[n++] = (gint) d;
        r *= in->shape[d];
      }
  for (guint d = 0; d < in->ndim; d++)
    inverse[perm[d]] = (gint) d;

  TRY (moved = in->ndim > 0 ? gnn_tensor_permute (node->saved[0], perm, in->ndim, error)
                            : g_object_ref (node->saved[0]));
  TRY (packed = gnn_tensor_copy_checked (moved, GNN_DTYPE_F64, error));
  others = gnn_tensor_new_contiguous (GNN_DTYPE_F64, gnn_tensor_get_shape (packed, NULL), in->ndim,
                                      FALSE);
  xd = packed;
  products_of_others (gnn_tensor_get_data (xd), gnn_tensor_get_data (others), m, r);
  TRY (others_moved = in->ndim > 0 ? gnn_tensor_permute (others, inverse, in->ndim, error)
                                   : g_object_ref (others));
  TRY (g = gnn_ag_grad_keepdim (node, grad, error));
  TRY (others_in = gnn_tensor_to_dtype (others_moved, in->dtype, error));
  TRY (grads[0] = gnn_tensor_mul (g, others_in, error));
  return TRUE;
}
