/* gnn-backward-decomp.c: gradients of torch.linalg's qr, eigh and svd
 * (gnn-linalg-decomp.c) and lstsq (gnn-linalg-lstsq.c)
 *
 * Each output of a factorization is its own node, so each backward here
 * gets one output's gradient (the others are torch's "undefined"
 * gradients); the formulas are linear in them, so the nodes' parts add up
 * to torch's gradient. Written with Gnn's differentiable ops:
 *   svd (torch's svd_backward): with E_ij = s_j² - s_i² (1 on the diagonal)
 *     gS:  U diag (gS) Vh
 *     gU:  U ((skew (Uᵀ gU) S) / E) Vh  + (I - U Uᵀ) gU S⁻¹ Vh  when m > n
 *     gVh: the same on Aᵀ = V S Uᵀ, transposed (torch's U ((S skew (Vh
 *          gVhᵀ)) / E) Vh + U S⁻¹ gVh (I - Vhᵀ Vh) when m < n)
 *   eigh: gL: V diag (gL) Vᵀ;  gV: V ((Vᵀ gV - gVᵀ V) / 2 / E) Vᵀ, E_ij = λ_j - λ_i
 *   qr, m >= n: (gQ + Q copyltu (R gRᵀ - gQᵀ Q)) R⁻ᵀ; m < n: the same on the
 *     first m columns X (with gQ + Y gVᵀ for the rest Y = Q V), Q gV on Y
 *   lstsq (torch's, through the pseudo-inverse): gB = A⁺ᵀ gX, gA =
 *     pinv_backward (gX Bᵀ)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END
#define TRYN(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

static GnnTensor *
mm3 (GnnTensor  *a,
     GnnTensor  *b,
     GnnTensor  *c,
     GError    **error)
{
  g_autoptr(GnnTensor) ab = gnn_tensor_matmul (a, b, error);

  return ab == NULL ? NULL : gnn_tensor_matmul (ab, c, error);
}

static gint64
last (GnnTensor *t,
      guint      from_end)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  return p->shape[p->ndim - from_end];
}

/* [*, k, k]: v_j - v_i off the diagonal, 1 on it (torch's E). */
static GnnTensor *
gaps (GnnTensor  *v,
      GError    **error)
{
  g_autoptr(GnnTensor) row = NULL;
  g_autoptr(GnnTensor) col = NULL;
  g_autoptr(GnnTensor) diff = NULL;
  g_autoptr(GnnTensor) eye = NULL;

  TRYN (row = gnn_tensor_unsqueeze (v, -2, error));
  TRYN (col = gnn_tensor_unsqueeze (v, -1, error));
  TRYN (diff = gnn_tensor_sub (row, col, error));
  TRYN (eye = gnn_tensor_eye (last (v, 1), last (v, 1), gnn_tensor_priv (v)->dtype, error));
  return gnn_tensor_add (diff, eye, error);
}

/* X - Xᵀ */
static GnnTensor *
skew (GnnTensor  *x,
      GError    **error)
{
  g_autoptr(GnnTensor) xt = gnn_ag_mT (x, error);

  return xt == NULL ? NULL : gnn_tensor_sub (x, xt, error);
}

/* --- svd ------------------------------------------------------------------------------ */

/* A's gradient from U's (@g, [*, m, k] after the narrowing) for A = U
 * diag (s) Vh, k = min (m, n): U ((skew (Uᵀ gU) S) / E) Vh, plus
 * (I - U Uᵀ) gU S⁻¹ Vh when m > n. Vh's gradient is this one on Aᵀ = V S Uᵀ. */
static GnnTensor *
svd_grad_from_u (GnnTensor  *u,
                 GnnTensor  *s,
                 GnnTensor  *vh,
                 GnnTensor  *g,
                 GError    **error)
{
  g_autoptr(GnnTensor) ut = NULL;
  g_autoptr(GnnTensor) prod = NULL;
  g_autoptr(GnnTensor) sk = NULL;
  g_autoptr(GnnTensor) s_row = NULL;
  g_autoptr(GnnTensor) num = NULL;
  g_autoptr(GnnTensor) s2 = NULL;
  g_autoptr(GnnTensor) e = NULL;
  g_autoptr(GnnTensor) inner = NULL;
  g_autoptr(GnnTensor) left = NULL;

  TRYN (ut = gnn_ag_mT (u, error));
  TRYN (prod = gnn_tensor_matmul (ut, g, error));
  TRYN (sk = skew (prod, error));
  TRYN (s_row = gnn_tensor_unsqueeze (s, -2, error));
  TRYN (num = gnn_tensor_mul (sk, s_row, error));
  TRYN (s2 = gnn_tensor_mul (s, s, error));
  TRYN (e = gaps (s2, error));
  TRYN (inner = gnn_tensor_div (num, e, error));
  TRYN (left = gnn_tensor_matmul (u, inner, error));
  if (last (u, 2) > last (vh, 1))
    {
      g_autoptr(GnnTensor) gus = NULL;
      g_autoptr(GnnTensor) proj = NULL;
      g_autoptr(GnnTensor) sum = NULL;

      TRYN (gus = gnn_tensor_div (g, s_row, error));
      TRYN (proj = mm3 (u, ut, gus, error));
      TRYN (sum = gnn_tensor_add (left, gus, error));
      g_object_unref (left);
      TRYN (left = gnn_tensor_sub (sum, proj, error));
    }
  return gnn_tensor_matmul (left, vh, error);
}

gboolean
gnn_backward_linalg_svd (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  GnnTensor *u, *s, *vh;
  g_autoptr(GnnTensor) uk = NULL;
  g_autoptr(GnnTensor) vhk = NULL;
  gint64 k;

  switch (node->op)
    {
    case GNN_OP_LINALG_SVD_U:
      u = node->saved_out, s = node->params.extra[0], vh = node->params.extra[1];
      break;
    case GNN_OP_LINALG_SVD_S:
      s = node->saved_out, u = node->params.extra[0], vh = node->params.extra[1];
      break;
    default:
      vh = node->saved_out, u = node->params.extra[0], s = node->params.extra[1];
      break;
    }
  k = last (s, 1);
  TRY (uk = gnn_tensor_narrow (u, -1, 0, k, error));
  TRY (vhk = gnn_tensor_narrow (vh, -2, 0, k, error));
  if (node->op == GNN_OP_LINALG_SVD_S)
    {
      /* U diag (gS) Vh */
      g_autoptr(GnnTensor) g_row = NULL;
      g_autoptr(GnnTensor) scaled = NULL;

      TRY (g_row = gnn_tensor_unsqueeze (grad, -2, error));
      TRY (scaled = gnn_tensor_mul (uk, g_row, error));
      TRY (grads[0] = gnn_tensor_matmul (scaled, vhk, error));
    }
  else if (node->op == GNN_OP_LINALG_SVD_U)
    {
      g_autoptr(GnnTensor) g = NULL;

      TRY (g = gnn_tensor_narrow (grad, -1, 0, k, error));
      TRY (grads[0] = svd_grad_from_u (uk, s, vhk, g, error));
    }
  else
    {
      g_autoptr(GnnTensor) g = NULL;
      g_autoptr(GnnTensor) gt = NULL;
      g_autoptr(GnnTensor) v = NULL;
      g_autoptr(GnnTensor) ut = NULL;
      g_autoptr(GnnTensor) gat = NULL;

      TRY (g = gnn_tensor_narrow (grad, -2, 0, k, error));
      TRY (gt = gnn_ag_mT (g, error));
      TRY (v = gnn_ag_mT (vhk, error));
      TRY (ut = gnn_ag_mT (uk, error));
      TRY (gat = svd_grad_from_u (v, s, ut, gt, error));
      TRY (grads[0] = gnn_ag_mT (gat, error));
    }
  return TRUE;
}

/* --- eigh ----------------------------------------------------------------------------- */

gboolean
gnn_backward_linalg_eigh (GnnNode    *node,
                          GnnTensor  *grad,
                          GnnTensor **grads,
                          GError    **error)
{
  gboolean values = node->op == GNN_OP_LINALG_EIGH_L;
  GnnTensor *l = values ? node->saved_out : node->params.extra[0];
  GnnTensor *v = values ? node->params.extra[0] : node->saved_out;
  g_autoptr(GnnTensor) vt = NULL;
  g_autoptr(GnnTensor) inner = NULL;

  TRY (vt = gnn_ag_mT (v, error));
  if (values)
    {
      g_autoptr(GnnTensor) g_row = NULL;
      g_autoptr(GnnTensor) scaled = NULL;

      TRY (g_row = gnn_tensor_unsqueeze (grad, -2, error));
      TRY (scaled = gnn_tensor_mul (v, g_row, error));
      TRY (grads[0] = gnn_tensor_matmul (scaled, vt, error));
      return TRUE;
    }
  {
    g_autoptr(GnnTensor) prod = NULL;
    g_autoptr(GnnTensor) sk = NULL;
    g_autoptr(GnnTensor) half = NULL;
    g_autoptr(GnnTensor) e = NULL;

    TRY (prod = gnn_tensor_matmul (vt, grad, error));
    TRY (sk = skew (prod, error));
    TRY (half = gnn_tensor_mul_scalar (sk, 0.5, error));
    TRY (e = gaps (l, error));
    TRY (inner = gnn_tensor_div (half, e, error));
  }
  TRY (grads[0] = mm3 (v, inner, vt, error));
  return TRUE;
}

/* --- qr ------------------------------------------------------------------------------- */

/* X R⁻ᵀ (R square upper-triangular) as (R⁻¹ Xᵀ)ᵀ */
static GnnTensor *
times_inverse_transposed (GnnTensor  *x,
                          GnnTensor  *r,
                          GError    **error)
{
  g_autoptr(GnnTensor) xt = NULL;
  g_autoptr(GnnTensor) sol = NULL;

  TRYN (xt = gnn_ag_mT (x, error));
  TRYN (sol = gnn_tensor_linalg_solve (r, xt, error));
  return gnn_ag_mT (sol, error);
}

/* (gQ + Q copyltu (M)) R⁻ᵀ with M = R gRᵀ - gQᵀ Q, for a square R; @gq
 * and @gr nullable (zero). */
static GnnTensor *
qr_square_grad (GnnTensor  *q,
                GnnTensor  *r,
                GnnTensor  *gq,
                GnnTensor  *gr,
                GError    **error)
{
  g_autoptr(GnnTensor) m = NULL;
  g_autoptr(GnnTensor) lower = NULL;
  g_autoptr(GnnTensor) strict = NULL;
  g_autoptr(GnnTensor) strict_t = NULL;
  g_autoptr(GnnTensor) sym = NULL;
  g_autoptr(GnnTensor) x = NULL;

  if (gr != NULL)
    {
      g_autoptr(GnnTensor) grt = NULL;

      TRYN (grt = gnn_ag_mT (gr, error));
      TRYN (m = gnn_tensor_matmul (r, grt, error));
    }
  if (gq != NULL)
    {
      g_autoptr(GnnTensor) gqt = NULL;
      g_autoptr(GnnTensor) p = NULL;

      TRYN (gqt = gnn_ag_mT (gq, error));
      TRYN (p = gnn_tensor_matmul (gqt, q, error));
      if (m == NULL)
        TRYN (m = gnn_tensor_neg (p, error));
      else
        {
          GnnTensor *d = gnn_tensor_sub (m, p, error);

          TRYN (d);
          g_object_unref (m);
          m = d;
        }
    }
  TRYN (lower = gnn_tensor_tril (m, 0, error));
  TRYN (strict = gnn_tensor_tril (m, -1, error));
  TRYN (strict_t = gnn_ag_mT (strict, error));
  TRYN (sym = gnn_tensor_add (lower, strict_t, error));
  TRYN (x = gnn_tensor_matmul (q, sym, error));
  if (gq != NULL)
    {
      GnnTensor *y = gnn_tensor_add (x, gq, error);

      TRYN (y);
      g_object_unref (x);
      x = y;
    }
  return times_inverse_transposed (x, r, error);
}

gboolean
gnn_backward_linalg_qr (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  gboolean is_q = node->op == GNN_OP_LINALG_QR_Q;
  GnnTensor *q = is_q ? node->saved_out : node->params.extra[0];
  GnnTensor *r = is_q ? node->params.extra[0] : node->saved_out;
  GnnTensor *gq = is_q ? grad : NULL, *gr = is_q ? NULL : grad;
  gint64 m, n;

  if (node->params.ints[0] == 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                           "differentiate through linalg.qr.");
      return FALSE;
    }
  m = last (q, 2);
  n = last (r, 1);
  if (node->params.ints[0] == 1 && m > n)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.");
      return FALSE;
    }
  if (m >= n)
    {
      TRY (grads[0] = qr_square_grad (q, r, gq, gr, error));
      return TRUE;
    }
  {
    /* A = [X | Y], R = [U | V]: X = Q U, Y = Q V */
    g_autoptr(GnnTensor) u = NULL;
    g_autoptr(GnnTensor) gu = NULL;
    g_autoptr(GnnTensor) gv = NULL;
    g_autoptr(GnnTensor) gq2 = NULL;
    g_autoptr(GnnTensor) gx = NULL;
    g_autoptr(GnnTensor) gy = NULL;

    TRY (u = gnn_tensor_narrow (r, -1, 0, m, error));
    if (gr != NULL)
      {
        g_autoptr(GnnTensor) v = NULL;
        g_autoptr(GnnTensor) gvt = NULL;

        TRY (gu = gnn_tensor_narrow (gr, -1, 0, m, error));
        TRY (gv = gnn_tensor_narrow (gr, -1, m, n - m, error));
        TRY (v = gnn_tensor_narrow (r, -1, m, n - m, error));
        TRY (gvt = gnn_ag_mT (gv, error));
        TRY (gq2 = mm3 (q, v, gvt, error));           /* Y gVᵀ */
        TRY (gy = gnn_tensor_matmul (q, gv, error));
      }
    else
      {
        GnnMeta meta = node->inputs[0];

        meta.shape[meta.ndim - 1] = n - m;
        gq2 = g_object_ref (gq);
        gy = gnn_ag_zeros (&meta);
      }
    TRY (gx = qr_square_grad (q, u, gq2, gu, error));
    TRY (grads[0] = gnn_tensor_cat ((GnnTensor *[]) { gx, gy }, 2, -1, error));
  }
  return TRUE;
}

/* --- lstsq ---------------------------------------------------------------------------- */

/* torch.linalg.pinv (A): V diag (1/s, 0 below max (m, n) eps s_max) Uᵀ */
static GnnTensor *
pinv (GnnTensor  *a,
      GError    **error)
{
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) vh = NULL;
  g_autoptr(GnnTensor) smax = NULL;
  g_autoptr(GnnTensor) cut = NULL;
  g_autoptr(GnnTensor) keep = NULL;
  g_autoptr(GnnTensor) inv = NULL;
  g_autoptr(GnnTensor) zero = NULL;
  g_autoptr(GnnTensor) sinv = NULL;
  g_autoptr(GnnTensor) row = NULL;
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) ut = NULL;
  g_autoptr(GnnTensor) scaled = NULL;
  GnnTensorPrivate *p = gnn_tensor_priv (a);
  gint lastdim = -1;
  double eps = p->dtype == GNN_DTYPE_F32 ? FLT_EPSILON : DBL_EPSILON;

  TRYN (u = gnn_tensor_linalg_svd (a, FALSE, &s, &vh, error));
  if (last (s, 1) == 0)
    return gnn_tensor_transpose (a, -1, -2, error);   /* an empty A: its empty pinv */
  TRYN (smax = gnn_tensor_max (s, &lastdim, 1, TRUE, error));
  TRYN (cut = gnn_tensor_mul_scalar (smax, eps * MAX (last (a, 1), last (a, 2)), error));
  TRYN (keep = gnn_tensor_gt (s, cut, error));
  TRYN (inv = gnn_tensor_reciprocal (s, error));
  TRYN (zero = gnn_tensor_new_wrapped_number (0.0));
  TRYN (sinv = gnn_tensor_where (keep, inv, zero, error));
  TRYN (row = gnn_tensor_unsqueeze (sinv, -2, error));
  TRYN (v = gnn_ag_mT (vh, error));
  TRYN (scaled = gnn_tensor_mul (v, row, error));
  TRYN (ut = gnn_ag_mT (u, error));
  return gnn_tensor_matmul (scaled, ut, error);
}

/* torch's pinv_backward (grad of A⁺ -> grad of A) */
static GnnTensor *
pinv_backward (GnnTensor  *g,
               GnnTensor  *pa,
               GnnTensor  *a,
               GError    **error)
{
  g_autoptr(GnnTensor) pah = NULL;
  g_autoptr(GnnTensor) gh = NULL;
  g_autoptr(GnnTensor) k = NULL;
  g_autoptr(GnnTensor) t1 = NULL;
  g_autoptr(GnnTensor) t1h = NULL;
  g_autoptr(GnnTensor) t2 = NULL;
  g_autoptr(GnnTensor) t3 = NULL;
  g_autoptr(GnnTensor) t4 = NULL;
  g_autoptr(GnnTensor) inner = NULL;
  g_autoptr(GnnTensor) s1 = NULL;
  g_autoptr(GnnTensor) s2 = NULL;

  TRYN (pah = gnn_ag_mT (pa, error));
  TRYN (gh = gnn_ag_mT (g, error));
  if (last (a, 2) <= last (a, 1))
    {
      /* -(A⁺ K)ᴴ + K A⁺ᴴ - A A⁺ K A⁺ᴴ + A⁺ᴴ A⁺ (gᴴ - K A), K = gᴴ A⁺ */
      g_autoptr(GnnTensor) kpah = NULL;
      g_autoptr(GnnTensor) ka = NULL;

      TRYN (k = gnn_tensor_matmul (gh, pa, error));
      TRYN (kpah = gnn_tensor_matmul (k, pah, error));
      TRYN (t1 = gnn_tensor_matmul (pa, k, error));
      TRYN (t1h = gnn_ag_mT (t1, error));
      TRYN (t3 = mm3 (a, pa, kpah, error));
      TRYN (ka = gnn_tensor_matmul (k, a, error));
      TRYN (inner = gnn_tensor_sub (gh, ka, error));
      TRYN (t4 = mm3 (pah, pa, inner, error));
      TRYN (s1 = gnn_tensor_sub (kpah, t1h, error));
      TRYN (s2 = gnn_tensor_sub (s1, t3, error));
      return gnn_tensor_add (s2, t4, error);
    }
  {
    /* -(K A⁺)ᴴ + (gᴴ - A K) A⁺ A⁺ᴴ + A⁺ᴴ K - A⁺ᴴ K A⁺ A, K = A⁺ gᴴ */
    g_autoptr(GnnTensor) pahk = NULL;
    g_autoptr(GnnTensor) ak = NULL;

    TRYN (k = gnn_tensor_matmul (pa, gh, error));
    TRYN (pahk = gnn_tensor_matmul (pah, k, error));
    TRYN (t1 = gnn_tensor_matmul (k, pa, error));
    TRYN (t1h = gnn_ag_mT (t1, error));
    TRYN (ak = gnn_tensor_matmul (a, k, error));
    TRYN (inner = gnn_tensor_sub (gh, ak, error));
    TRYN (t2 = mm3 (inner, pa, pah, error));
    TRYN (t3 = mm3 (pahk, pa, a, error));
    TRYN (s1 = gnn_tensor_sub (t2, t1h, error));
    TRYN (s2 = gnn_tensor_add (s1, pahk, error));
    return gnn_tensor_sub (s2, t3, error);
  }
}

gboolean
gnn_backward_linalg_lstsq (GnnNode    *node,
                           GnnTensor  *grad,
                           GnnTensor **grads,
                           GError    **error)
{
  GnnTensor *a = node->saved[0];
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) pa = NULL;

  TRY (g = gnn_ag_rhs_matrices (node, grad, error));
  TRY (b = gnn_ag_rhs_matrices (node, node->saved[1], error));
  TRY (pa = pinv (a, error));
  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) bt = NULL;
      g_autoptr(GnnTensor) gp = NULL;
      g_autoptr(GnnTensor) ga = NULL;

      TRY (bt = gnn_ag_mT (b, error));
      TRY (gp = gnn_tensor_matmul (g, bt, error));
      TRY (ga = pinv_backward (gp, pa, a, error));
      TRY (grads[0] = gnn_ag_sum_to (ga, &node->inputs[0], error));
    }
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) pat = NULL;
      g_autoptr(GnnTensor) gb = NULL;

      TRY (pat = gnn_ag_mT (pa, error));
      TRY (gb = gnn_tensor_matmul (pat, g, error));
      TRY (grads[1] = gnn_ag_rhs_grad (node, gb, error));
    }
  return TRUE;
}
