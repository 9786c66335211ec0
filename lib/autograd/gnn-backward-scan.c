/* gnn-backward-scan.c: gradients of cumsum (a reversed cumsum) and
 * cumprod (exact with zeros in the input)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
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

gboolean
gnn_backward_cumprod (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  const GnnMeta *in = &node->inputs[0];
  guint d = (guint) node->params.dim;
  gint64 outer = 1, n = 1, inner = 1;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) dx = NULL;
  const double *xv, *ov, *gv;
  double *dv;

  TRY (x = gnn_tensor_to_dtype (node->saved[0], GNN_DTYPE_F64, error));
  TRY (out = gnn_tensor_to_dtype (node->saved_out, GNN_DTYPE_F64, error));
  TRY (g = gnn_tensor_to_dtype (grad, GNN_DTYPE_F64, error));
  {
    g_autoptr(GnnTensor) xc = gnn_tensor_contiguous_checked (x, error);
    g_autoptr(GnnTensor) oc = xc != NULL ? gnn_tensor_contiguous_checked (out, error) : NULL;
    g_autoptr(GnnTensor) gc = oc != NULL ? gnn_tensor_contiguous_checked (g, error) : NULL;

    if (gc == NULL)
      return FALSE;
    g_set_object (&x, xc);
    g_set_object (&out, oc);
    g_set_object (&g, gc);
  }
  dx = gnn_tensor_new_contiguous (GNN_DTYPE_F64, in->shape, in->ndim, FALSE);
  for (guint i = 0; i < in->ndim; i++)
    {
      if (i < d)
        outer *= in->shape[i];
      else if (i == d)
        n = in->shape[i];
      else
        inner *= in->shape[i];
    }
  xv = gnn_tensor_get_data (x);
  ov = gnn_tensor_get_data (out);
  gv = gnn_tensor_get_data (g);
  dv = gnn_tensor_get_data (dx);
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        gint64 base = o * n * inner + i;

        cumprod_slice (xv + base, ov + base, gv + base, dv + base, n, inner);
      }
  TRY (grads[0] = gnn_tensor_to_dtype (dx, in->dtype, error));
  return TRUE;
}
