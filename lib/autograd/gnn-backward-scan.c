/* gnn-backward-scan.c: gradients of cumsum (a reversed cumsum), cumprod
 * (exact with zeros in the input), logcumsumexp and cummax / cummin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-scan-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

gboolean
gnn_backward_cumsum (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  TRY (grads[0] = gnn_scan (GNN_SCAN_SUM, grad, node->params.dim, TRUE, NULL, error));
  return TRUE;
}

/* One slice (stride @s, @n elements) of d cumprod: with z the first zero,
 * g_i = (sum_{j = i}^{z-1} grad_j out_j) / x_i for i < z; at z the products
 * skip x_z; after z everything is 0 (x_z stays in every product). */
static void
cumprod_slice (const double *x,
               const double *out,
               const double *g,
               double       *dx,
               gint64        n,
               gint64        s)
{
  gint64 z = n;
  double acc = 0.0;

  for (gint64 k = 0; k < n; k++)
    if (x[k * s] == 0.0)
      {
        z = k;
        break;
      }
  for (gint64 k = z - 1; k >= 0; k--)
    {
      acc += g[k * s] * out[k * s];
      dx[k * s] = acc / x[k * s];
    }
  if (z < n)
    {
      /* the product of x_0 .. x_{z-1}, then of the x after z, skipping x_z */
      double prefix = z > 0 ? out[(z - 1) * s] : 1.0, run = prefix, sum = 0.0;

      sum = g[z * s] * prefix;
      for (gint64 k = z + 1; k < n; k++)
        {
          run *= x[k * s];
          sum += g[k * s] * run;
        }
      dx[z * s] = sum;
      for (gint64 k = z + 1; k < n; k++)
        dx[k * s] = 0.0;
    }
}

/* @t as a packed float64 tensor (a new reference) */
static GnnTensor *
packed_f64 (GnnTensor  *t,
            GError    **error)
{
  g_autoptr(GnnTensor) d = gnn_tensor_to_dtype (t, GNN_DTYPE_F64, error);

  return d != NULL ? gnn_tensor_contiguous_checked (d, error) : NULL;
}

/* The [outer, n, inner] split of @in at @d. */
static void
split (const GnnMeta *in,
       guint          d,
       gint64        *outer,
       gint64        *n,
       gint64        *inner)
{
  *outer = *n = *inner = 1;
  for (guint i = 0; i < in->ndim; i++)
    {
      if (i < d)
        *outer *= in->shape[i];
      else if (i == d)
        *n = in->shape[i];
      else
        *inner *= in->shape[i];
    }
}

typedef void (*SliceFunc) (const double *x, const double *out, const double *g, double *dx,
                           gint64 n, gint64 s);

/* dx from x, out and grad, one slice along the node's dim at a time, in
 * float64; the gradient in the input's dtype. */
static gboolean
backward_by_slices (GnnNode    *node,
                    GnnTensor  *grad,
                    SliceFunc   slice,
                    GnnTensor **grads,
                    GError    **error)
{
  const GnnMeta *in = &node->inputs[0];
  gint64 outer, n, inner;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) dx = NULL;
  const double *xv, *ov, *gv;
  double *dv;

  TRY (x = packed_f64 (node->saved[0], error));
  TRY (out = packed_f64 (node->saved_out, error));
  TRY (g = packed_f64 (grad, error));
  dx = gnn_tensor_new_contiguous (GNN_DTYPE_F64, in->shape, in->ndim, FALSE);
  split (in, (guint) node->params.dim, &outer, &n, &inner);
  xv = gnn_tensor_get_data (x);
  ov = gnn_tensor_get_data (out);
  gv = gnn_tensor_get_data (g);
  dv = gnn_tensor_get_data (dx);
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        gint64 base = o * n * inner + i;

        slice (xv + base, ov + base, gv + base, dv + base, n, inner);
      }
  TRY (grads[0] = gnn_tensor_to_dtype (dx, in->dtype, error));
  return TRUE;
}

gboolean
gnn_backward_cumprod (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  return backward_by_slices (node, grad, cumprod_slice, grads, error);
}

/* d logcumsumexp: dx_i = sum_{k >= i} g_k exp (x_i - out_k). With
 * r_i = sum_{k >= i} g_k exp (out_i - out_k) = g_i + exp (out_i - out_{i+1}) r_{i+1}
 * every factor is at most 1 (out never decreases), and dx_i = r_i exp (x_i - out_i). */
static void
logcumsumexp_slice (const double *x,
                    const double *out,
                    const double *g,
                    double       *dx,
                    gint64        n,
                    gint64        s)
{
  double r = 0.0;

  for (gint64 k = n - 1; k >= 0; k--)
    {
      double ok = out[k * s];

      if (k < n - 1)
        {
          double next = out[(k + 1) * s];

          r *= ok == next ? 1.0 : exp (ok - next);
        }
      r += g[k * s];
      dx[k * s] = x[k * s] == ok ? r : r * exp (x[k * s] - ok);
    }
}

gboolean
gnn_backward_logcumsumexp (GnnNode    *node,
                           GnnTensor  *grad,
                           GnnTensor **grads,
                           GError    **error)
{
  if (node->inputs[0].ndim == 0)
    {
      grads[0] = g_object_ref (grad);
      return TRUE;
    }
  return backward_by_slices (node, grad, logcumsumexp_slice, grads, error);
}

/* cummax / cummin: the gradient goes to the picked positions, summed
 * (torch's scatter_add into zeros). */
gboolean
gnn_backward_cummax (GnnNode    *node,
                     GnnTensor  *grad,
                     GnnTensor **grads,
                     GError    **error)
{
  g_autoptr(GnnTensor) zeros = NULL;

  if (node->inputs[0].ndim == 0)
    {
      grads[0] = g_object_ref (grad);
      return TRUE;
    }
  zeros = gnn_ag_zeros (&node->inputs[0]);
  TRY (grads[0] = gnn_tensor_scatter_add (zeros, node->params.dim, node->params.extra[0], grad,
                                          error));
  return TRUE;
}
