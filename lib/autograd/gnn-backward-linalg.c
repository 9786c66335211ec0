/* gnn-backward-linalg.c: gradients of torch.linalg's solve, inv, det,
 * slogdet and cholesky (gnn-linalg-lapack.c)
 *
 * The formulas are torch's (FunctionsManual.cpp), written with Gnn's own
 * differentiable ops so that the gradients are differentiable again:
 *   X = A⁻¹B:    gB = A⁻ᵀ G,  gA = -gB Xᵀ
 *   Y = A⁻¹:     gA = -Yᵀ G Yᵀ
 *   d = det A:   gA = g d A⁻ᵀ;  log|det A|: gA = g A⁻ᵀ
 *   A = L Lᵀ:    gA = sym (L⁻ᵀ Φ(Lᵀ G) L⁻¹), Φ the lower triangle with
 *                half the diagonal (Murray 2016)
 * The determinant's gradient needs A⁻¹. Where det A is exactly 0, torch
 * 1.13 solves with an eps-perturbed LU for g det A = 0 in a plain backward,
 * which gives zeros; a differentiable backward (grad mode on) takes the
 * cofactor matrix from an SVD A = U S Vh instead: g det(U) det(Vh) U diag
 * (∏_{j≠i} s_j) Vh. Both are done here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END
#define TRYN(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

/* @g of shape [*] as [*, 1, 1] times @m. */
static GnnTensor *
scale_matrices (GnnTensor  *g,
                GnnTensor  *m,
                GError    **error)
{
  g_autoptr(GnnTensor) g1 = NULL;
  g_autoptr(GnnTensor) g2 = NULL;

  TRY (g1 = gnn_tensor_unsqueeze (g, -1, error));
  TRY (g2 = gnn_tensor_unsqueeze (g1, -1, error));
  return gnn_tensor_mul (g2, m, error);
}

GnnTensor *
gnn_ag_rhs_matrices (GnnNode    *node,
                     GnnTensor  *t,
                     GError    **error)
{
  return node->params.flag ? gnn_tensor_unsqueeze (t, -1, error) : g_object_ref (t);
}

GnnTensor *
gnn_ag_rhs_grad (GnnNode    *node,
                 GnnTensor  *gb,
                 GError    **error)
{
  GnnMeta bm = node->inputs[1];
  g_autoptr(GnnTensor) summed = NULL;

  if (node->params.flag)
    bm.shape[bm.ndim++] = 1;
  TRYN (summed = gnn_ag_sum_to (gb, &bm, error));
  return gnn_tensor_reshape (summed, node->inputs[1].shape, node->inputs[1].ndim, error);
}

gboolean
gnn_backward_linalg_solve (GnnNode    *node,
                           GnnTensor  *grad,
                           GnnTensor **grads,
                           GError    **error)
{
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) at = NULL;
  g_autoptr(GnnTensor) gb = NULL;

  TRY (g = gnn_ag_rhs_matrices (node, grad, error));
  TRY (x = gnn_ag_rhs_matrices (node, node->saved_out, error));
  TRY (at = gnn_ag_mT (node->saved[0], error));
  TRY (gb = gnn_tensor_linalg_solve (at, g, error));
  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) xt = NULL;
      g_autoptr(GnnTensor) prod = NULL;
      g_autoptr(GnnTensor) neg = NULL;

      TRY (xt = gnn_ag_mT (x, error));
      TRY (prod = gnn_tensor_matmul (gb, xt, error));
      TRY (neg = gnn_tensor_neg (prod, error));
      TRY (grads[0] = gnn_ag_sum_to (neg, &node->inputs[0], error));
    }
  if (gnn_node_needs_grad (node, 1))
    TRY (grads[1] = gnn_ag_rhs_grad (node, gb, error));
  return TRUE;
}

gboolean
gnn_backward_linalg_inv (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  g_autoptr(GnnTensor) yt = NULL;
  g_autoptr(GnnTensor) left = NULL;
  g_autoptr(GnnTensor) both = NULL;

  TRY (yt = gnn_ag_mT (node->saved_out, error));
  TRY (left = gnn_tensor_matmul (yt, grad, error));
  TRY (both = gnn_tensor_matmul (left, yt, error));
  TRY (grads[0] = gnn_tensor_neg (both, error));
  return TRUE;
}

/* A⁻ᵀ */
static GnnTensor *
inverse_transposed (GnnTensor  *a,
                    GError    **error)
{
  g_autoptr(GnnTensor) inv = gnn_tensor_linalg_inv (a, error);

  return inv == NULL ? NULL : gnn_ag_mT (inv, error);
}

/* ∏_{j≠i} s_j for every row of @s ([*, n]), without dividing (a plain
 * tensor: the products of the other singular values). */
static GnnTensor *
other_products (GnnTensor *s)
{
  GnnTensorPrivate *p = gnn_tensor_priv (s);
  g_autofree double *v = gnn_ag_doubles (s);
  gint64 n = p->shape[p->ndim - 1], rows = n > 0 ? gnn_tensor_get_numel (s) / n : 0;
  double *out = g_new (double, MAX (rows * n, 1));
  GnnMeta meta = { p->dtype, p->ndim, { 0 } };

  memcpy (meta.shape, p->shape, sizeof (gint64) * p->ndim);
  for (gint64 r = 0; r < rows; r++)
    {
      const double *row = v + r * n;
      double left = 1.0;

      for (gint64 i = 0; i < n; i++)
        {
          out[r * n + i] = left;
          left *= row[i];
        }
      left = 1.0;
      for (gint64 i = n - 1; i >= 0; i--)
        {
          out[r * n + i] *= left;
          left *= row[i];
        }
    }
  return gnn_ag_from_doubles (out, &meta);
}

/* The cofactor gradient through the SVD of the saved A (torch's singular case). */
static GnnTensor *
det_grad_svd (GnnNode    *node,
              GnnTensor  *grad,
              GError    **error)
{
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) vh = NULL;
  g_autoptr(GnnTensor) du = NULL;
  g_autoptr(GnnTensor) dv = NULL;
  g_autoptr(GnnTensor) sign = NULL;
  g_autoptr(GnnTensor) alpha = NULL;
  g_autoptr(GnnTensor) alpha1 = NULL;
  g_autoptr(GnnTensor) others = NULL;
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) d_row = NULL;
  g_autoptr(GnnTensor) scaled = NULL;

  if ((u = gnn_tensor_linalg_svd (node->saved[0], FALSE, &s, &vh, error)) == NULL ||
      (du = gnn_tensor_linalg_det (u, error)) == NULL ||
      (dv = gnn_tensor_linalg_det (vh, error)) == NULL ||
      (sign = gnn_tensor_mul (du, dv, error)) == NULL ||
      (alpha = gnn_tensor_mul (sign, grad, error)) == NULL ||
      (alpha1 = gnn_tensor_unsqueeze (alpha, -1, error)) == NULL ||
      (others = other_products (s)) == NULL ||
      (d = gnn_tensor_mul (alpha1, others, error)) == NULL ||
      (d_row = gnn_tensor_unsqueeze (d, -2, error)) == NULL ||
      (scaled = gnn_tensor_mul (u, d_row, error)) == NULL)
    return NULL;
  return gnn_tensor_matmul (scaled, vh, error);
}

/* [*] booleans: det == 0 (an exactly singular LU), and whether any / all are. */
static GnnTensor *
singular_mask (GnnNode  *node,
               gboolean *any,
               gboolean *all)
{
  GnnTensor *det = node->saved_out;
  GnnTensorPrivate *p = gnn_tensor_priv (det);
  g_autofree double *v = gnn_ag_doubles (det);
  gint64 count = gnn_tensor_get_numel (det);
  GnnTensor *mask = gnn_tensor_new_contiguous (GNN_DTYPE_BOOL, p->shape, p->ndim, TRUE);
  guint8 *m = gnn_tensor_priv_data (gnn_tensor_priv (mask));

  *any = FALSE;
  *all = count > 0;
  for (gint64 i = 0; i < count; i++)
    {
      m[i] = v[i] == 0.0;
      *any = *any || m[i];
      *all = *all && m[i];
    }
  return mask;
}

gboolean
gnn_backward_linalg_det (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  g_autoptr(GnnTensor) invt = NULL;
  g_autoptr(GnnTensor) gd = NULL;
  g_autoptr(GnnTensor) mask = NULL;
  g_autoptr(GnnTensor) sing = NULL;
  gboolean any, all;

  mask = singular_mask (node, &any, &all);
  if (any && gnn_is_grad_enabled ())
    TRY (sing = det_grad_svd (node, grad, error));
  else if (any)
    sing = gnn_ag_zeros (&node->inputs[0]);
  if (all)
    {
      grads[0] = g_steal_pointer (&sing);
      return TRUE;
    }
  TRY (gd = gnn_tensor_mul (grad, node->saved_out, error));
  if (!any)
    TRY (invt = inverse_transposed (node->saved[0], error));
  else
    {
      /* a mixed batch: the inverses of the regular matrices, identities
       * standing in for the singular ones */
      g_autoptr(GnnTensor) m1 = NULL;
      g_autoptr(GnnTensor) m2 = NULL;
      g_autoptr(GnnTensor) eye = NULL;
      g_autoptr(GnnTensor) regular = NULL;
      g_autoptr(GnnTensor) part = NULL;
      const GnnMeta *in = &node->inputs[0];

      TRY (m1 = gnn_tensor_unsqueeze (mask, -1, error));
      TRY (m2 = gnn_tensor_unsqueeze (m1, -1, error));
      TRY (eye = gnn_tensor_eye (in->shape[in->ndim - 1], in->shape[in->ndim - 1], in->dtype, error));
      TRY (regular = gnn_tensor_where (m2, eye, node->saved[0], error));
      TRY (invt = inverse_transposed (regular, error));
      TRY (part = scale_matrices (gd, invt, error));
      TRY (grads[0] = gnn_tensor_where (m2, sing, part, error));
      return TRUE;
    }
  TRY (grads[0] = scale_matrices (gd, invt, error));
  return TRUE;
}

gboolean
gnn_backward_linalg_slogdet (GnnNode    *node,
                             GnnTensor  *grad,
                             GnnTensor **grads,
                             GError    **error)
{
  g_autoptr(GnnTensor) invt = NULL;

  TRY (invt = inverse_transposed (node->saved[0], error));
  TRY (grads[0] = scale_matrices (grad, invt, error));
  return TRUE;
}

/* [n, n]: 1 below the diagonal, 0.5 on it, 0 above (Φ as one product). */
static GnnTensor *
phi_mask (GnnDType dtype,
          gint64   n,
          GError **error)
{
  gint64 shape[2] = { n, n };
  GnnTensor *m = gnn_tensor_new_contiguous_checked (dtype, shape, 2, TRUE, error);
  gsize es = gnn_dtype_get_size (dtype);
  guint8 *data;

  if (m == NULL)
    return NULL;
  data = gnn_tensor_priv_data (gnn_tensor_priv (m));
  for (gint64 r = 0; r < n; r++)
    for (gint64 c = 0; c <= r; c++)
      gnn_dtype_write (dtype, data + (gsize) (r * n + c) * es, r == c ? 0.5 : 1.0);
  return m;
}

gboolean
gnn_backward_linalg_cholesky (GnnNode    *node,
                              GnnTensor  *grad,
                              GnnTensor **grads,
                              GError    **error)
{
  const GnnMeta *out = &node->out;
  g_autoptr(GnnTensor) l = NULL;
  g_autoptr(GnnTensor) gl = NULL;
  g_autoptr(GnnTensor) lt = NULL;
  g_autoptr(GnnTensor) phi = NULL;
  g_autoptr(GnnTensor) mask = NULL;
  g_autoptr(GnnTensor) phi_l = NULL;
  g_autoptr(GnnTensor) linv = NULL;
  g_autoptr(GnnTensor) linvt = NULL;
  g_autoptr(GnnTensor) left = NULL;
  g_autoptr(GnnTensor) ga = NULL;
  g_autoptr(GnnTensor) gat = NULL;
  g_autoptr(GnnTensor) sum = NULL;

  if (node->params.flag)
    {
      /* U = Lᵀ: the lower form's gradient of the transposes */
      TRY (l = gnn_ag_mT (node->saved_out, error));
      TRY (gl = gnn_ag_mT (grad, error));
    }
  else
    {
      l = g_object_ref (node->saved_out);
      gl = g_object_ref (grad);
    }
  TRY (lt = gnn_ag_mT (l, error));
  TRY (phi = gnn_tensor_matmul (lt, gl, error));
  TRY (mask = phi_mask (out->dtype, out->shape[out->ndim - 1], error));
  TRY (phi_l = gnn_tensor_mul (phi, mask, error));
  TRY (linv = gnn_tensor_linalg_inv (l, error));
  TRY (linvt = gnn_ag_mT (linv, error));
  TRY (left = gnn_tensor_matmul (linvt, phi_l, error));
  TRY (ga = gnn_tensor_matmul (left, linv, error));
  TRY (gat = gnn_ag_mT (ga, error));
  TRY (sum = gnn_tensor_add (ga, gat, error));
  TRY (grads[0] = gnn_tensor_mul_scalar (sum, 0.5, error));
  return TRUE;
}
