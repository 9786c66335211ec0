/* gnn-backward-math.c: gradients of the promoted binary ops and the fused
 * pointwise ops — add/sub with alpha, rounded division, remainder, fmod,
 * pow by a tensor, atan2, maximum/minimum, fmax/fmin, hypot, clamp, lerp,
 * addcmul, addcdiv, masked_fill, nan_to_num — written with the
 * differentiable tensor ops (the engine runs backward with recording off)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

/* A number in the promotion's lowest rank: never changes a dtype. */
static GnnTensor *
num (double v)
{
  return gnn_tensor_new_wrapped_number (v);
}

/* grads[i] = sum_to (@g, input i) when input i needs one; takes @g. */
static gboolean
give (GnnNode    *node,
      guint       i,
      GnnTensor  *g,
      GnnTensor **grads,
      GError    **error)
{
  g_autoptr(GnnTensor) owned = g;

  if (g == NULL)
    return FALSE;
  if (!gnn_node_needs_grad (node, i))
    return TRUE;
  return (grads[i] = gnn_ag_sum_to (g, &node->inputs[i], error)) != NULL;
}

gboolean
gnn_backward_add_alpha (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  double alpha = node->op == GNN_OP_SUB_ALPHA ? -node->params.scalar : node->params.scalar;
  g_autoptr(GnnTensor) a = num (alpha);

  if (gnn_node_needs_grad (node, 0))
    TRY (grads[0] = gnn_ag_sum_to (grad, &node->inputs[0], error));
  if (gnn_node_needs_grad (node, 1))
    return give (node, 1, gnn_tensor_mul (grad, a, error), grads, error);
  return TRUE;
}

/* Piecewise constant in every input (rounded division, floor, sign ...). */
gboolean
gnn_backward_zero (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  for (guint i = 0; i < node->n_inputs; i++)
    if (gnn_node_needs_grad (node, i))
      grads[i] = gnn_ag_zeros (&node->inputs[i]);
  return TRUE;
}

/* remainder: d/db = -floor (a / b); fmod: -trunc (a / b) */
gboolean
gnn_backward_remainder (GnnNode    *node,
                        GnnTensor  *grad,
                        GnnTensor **grads,
                        GError    **error)
{
  if (gnn_node_needs_grad (node, 0))
    TRY (grads[0] = gnn_ag_sum_to (grad, &node->inputs[0], error));
  if (gnn_node_needs_grad (node, 1))
    {
      GnnRoundingMode mode = node->op == GNN_OP_FMOD ? GNN_ROUNDING_MODE_TRUNC
                                                     : GNN_ROUNDING_MODE_FLOOR;
      g_autoptr(GnnTensor) q = NULL;
      g_autoptr(GnnTensor) gq = NULL;

      TRY (q = gnn_tensor_div_mode (node->saved[0], node->saved[1], mode, error));
      TRY (gq = gnn_tensor_mul (grad, q, error));
      return give (node, 1, gnn_tensor_neg (gq, error), grads, error);
    }
  return TRUE;
}

/* d (a^b)/da = b · a^(b-1) (0 where b == 0); d/db = a^b · log a (0 where
 * a == 0 and b >= 0), as torch's pow_backward_self / _exponent. */
gboolean
gnn_backward_pow_tensor (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  GnnTensor *a = node->saved[0], *b = node->saved[1];
  g_autoptr(GnnTensor) zero = num (0.0);

  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) one = num (1.0);
      g_autoptr(GnnTensor) bm1 = NULL;
      g_autoptr(GnnTensor) p = NULL;
      g_autoptr(GnnTensor) d = NULL;
      g_autoptr(GnnTensor) b0 = NULL;
      g_autoptr(GnnTensor) dm = NULL;

      TRY (bm1 = gnn_tensor_sub (b, one, error));
      TRY (p = gnn_tensor_pow_tensor (a, bm1, error));
      TRY (d = gnn_tensor_mul (b, p, error));
      TRY (b0 = gnn_tensor_eq (b, zero, error));
      TRY (dm = gnn_tensor_masked_fill (d, b0, zero, error));
      if (!give (node, 0, gnn_tensor_mul (grad, dm, error), grads, error))
        return FALSE;
    }
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) p = NULL;
      g_autoptr(GnnTensor) la = NULL;
      g_autoptr(GnnTensor) d = NULL;
      g_autoptr(GnnTensor) a0 = NULL;
      g_autoptr(GnnTensor) bp = NULL;
      g_autoptr(GnnTensor) mask = NULL;
      g_autoptr(GnnTensor) dm = NULL;

      TRY (p = gnn_tensor_pow_tensor (a, b, error));
      TRY (la = gnn_tensor_log (a, error));
      TRY (d = gnn_tensor_mul (p, la, error));
      TRY (a0 = gnn_tensor_eq (a, zero, error));
      TRY (bp = gnn_tensor_ge (b, zero, error));
      TRY (mask = gnn_tensor_logical_and (a0, bp, error));
      TRY (dm = gnn_tensor_where (mask, zero, d, error));
      return give (node, 1, gnn_tensor_mul (grad, dm, error), grads, error);
    }
  return TRUE;
}

/* d atan2 (a, b) = (b da - a db) / (a² + b²) */
gboolean
gnn_backward_atan2 (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  GnnTensor *a = node->saved[0], *b = node->saved[1];
  g_autoptr(GnnTensor) a2 = NULL;
  g_autoptr(GnnTensor) b2 = NULL;
  g_autoptr(GnnTensor) r = NULL;
  g_autoptr(GnnTensor) gr = NULL;

  TRY (a2 = gnn_tensor_mul (a, a, error));
  TRY (b2 = gnn_tensor_mul (b, b, error));
  TRY (r = gnn_tensor_add (a2, b2, error));
  TRY (gr = gnn_tensor_div (grad, r, error));
  if (gnn_node_needs_grad (node, 0) && !give (node, 0, gnn_tensor_mul (gr, b, error), grads, error))
    return FALSE;
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) ga = NULL;

      TRY (ga = gnn_tensor_mul (gr, a, error));
      return give (node, 1, gnn_tensor_neg (ga, error), grads, error);
    }
  return TRUE;
}

/* The winner gets the gradient; a tie shares it half and half. */
gboolean
gnn_backward_maximum (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  GnnTensor *a = node->saved[0], *b = node->saved[1];
  g_autoptr(GnnTensor) zero = num (0.0);
  g_autoptr(GnnTensor) half = num (0.5);
  g_autoptr(GnnTensor) tie = NULL;
  g_autoptr(GnnTensor) gh = NULL;
  g_autoptr(GnnTensor) shared = NULL;

  TRY (tie = gnn_tensor_eq (a, b, error));
  TRY (gh = gnn_tensor_mul (grad, half, error));
  TRY (shared = gnn_tensor_where (tie, gh, grad, error));
  for (guint i = 0; i < 2; i++)
    if (gnn_node_needs_grad (node, i))
      {
        /* input i loses where the other one wins */
        gboolean max = node->op == GNN_OP_MAXIMUM;
        g_autoptr(GnnTensor) loses = NULL;

        TRY (loses = max ? gnn_tensor_lt (node->saved[i], node->saved[1 - i], error)
                                       : gnn_tensor_gt (node->saved[i], node->saved[1 - i], error));
        if (!give (node, i, gnn_tensor_where (loses, zero, shared, error), grads, error))
          return FALSE;
      }
  return TRUE;
}

/* torch's clamp_backward_min_max: x keeps the gradient where
 * min <= x <= max; min gets it where x < min < max, max where x > max or
 * max < min. */
gboolean
gnn_backward_clamp (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  GnnTensor *x = node->saved[0], *lo = node->saved[1], *hi = node->saved[2];
  g_autoptr(GnnTensor) zero = num (0.0);

  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) ge = NULL;
      g_autoptr(GnnTensor) le = NULL;
      g_autoptr(GnnTensor) inside = NULL;

      if (lo != NULL)
        TRY (ge = gnn_tensor_ge (x, lo, error));
      if (hi != NULL)
        TRY (le = gnn_tensor_le (x, hi, error));
      if (ge != NULL && le != NULL)
        TRY (inside = gnn_tensor_logical_and (ge, le, error));
      else
        inside = g_object_ref (ge != NULL ? ge : le);
      if (!give (node, 0, gnn_tensor_where (inside, grad, zero, error), grads, error))
        return FALSE;
    }
  if (lo != NULL && gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) below = NULL;
      g_autoptr(GnnTensor) ordered = NULL;
      g_autoptr(GnnTensor) wins = NULL;

      TRY (below = gnn_tensor_lt (x, lo, error));
      if (hi != NULL)
        {
          TRY (ordered = gnn_tensor_lt (lo, hi, error));
          TRY (wins = gnn_tensor_logical_and (below, ordered, error));
        }
      else
        wins = g_object_ref (below);
      if (!give (node, 1, gnn_tensor_where (wins, grad, zero, error), grads, error))
        return FALSE;
    }
  if (hi != NULL && gnn_node_needs_grad (node, 2))
    {
      g_autoptr(GnnTensor) above = NULL;
      g_autoptr(GnnTensor) crossed = NULL;
      g_autoptr(GnnTensor) wins = NULL;

      TRY (above = gnn_tensor_gt (x, hi, error));
      if (lo != NULL)
        {
          TRY (crossed = gnn_tensor_lt (hi, lo, error));
          TRY (wins = gnn_tensor_logical_or (above, crossed, error));
        }
      else
        wins = g_object_ref (above);
      return give (node, 2, gnn_tensor_where (wins, grad, zero, error), grads, error);
    }
  return TRUE;
}

gboolean
gnn_backward_lerp (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  GnnTensor *start = node->saved[0], *end = node->saved[1], *w = node->saved[2];

  if (gnn_node_needs_grad (node, 0))
    {
      g_autoptr(GnnTensor) one = num (1.0);
      g_autoptr(GnnTensor) omw = NULL;

      TRY (omw = gnn_tensor_sub (one, w, error));
      if (!give (node, 0, gnn_tensor_mul (grad, omw, error), grads, error))
        return FALSE;
    }
  if (gnn_node_needs_grad (node, 1) && !give (node, 1, gnn_tensor_mul (grad, w, error), grads,
                                              error))
    return FALSE;
  if (gnn_node_needs_grad (node, 2))
    {
      g_autoptr(GnnTensor) diff = NULL;

      TRY (diff = gnn_tensor_sub (end, start, error));
      return give (node, 2, gnn_tensor_mul (grad, diff, error), grads, error);
    }
  return TRUE;
}

gboolean
gnn_backward_addcmul (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  g_autoptr(GnnTensor) value = num (node->params.scalar);
  g_autoptr(GnnTensor) gv = NULL;

  if (gnn_node_needs_grad (node, 0))
    TRY (grads[0] = gnn_ag_sum_to (grad, &node->inputs[0], error));
  TRY (gv = gnn_tensor_mul (grad, value, error));
  for (guint i = 1; i < 3; i++)
    if (gnn_node_needs_grad (node, i) &&
        !give (node, i, gnn_tensor_mul (gv, node->saved[3 - i], error), grads, error))
      return FALSE;
  return TRUE;
}

gboolean
gnn_backward_addcdiv (GnnNode    *node,
                      GnnTensor  *grad,
                      GnnTensor **grads,
                      GError    **error)
{
  GnnTensor *t1 = node->saved[1], *t2 = node->saved[2];
  g_autoptr(GnnTensor) value = num (node->params.scalar);
  g_autoptr(GnnTensor) gv = NULL;
  g_autoptr(GnnTensor) q = NULL;

  if (gnn_node_needs_grad (node, 0))
    TRY (grads[0] = gnn_ag_sum_to (grad, &node->inputs[0], error));
  TRY (gv = gnn_tensor_mul (grad, value, error));
  TRY (q = gnn_tensor_div (gv, t2, error));                  /* g v / t2 */
  if (gnn_node_needs_grad (node, 1) && !give (node, 1, g_object_ref (q), grads, error))
    return FALSE;
  if (gnn_node_needs_grad (node, 2))
    {
      g_autoptr(GnnTensor) qt = NULL;
      g_autoptr(GnnTensor) qtt = NULL;

      TRY (qt = gnn_tensor_mul (q, t1, error));                  /* -g v t1 / t2² */
      TRY (qtt = gnn_tensor_div (qt, t2, error));
      return give (node, 2, gnn_tensor_neg (qtt, error), grads, error);
    }
  return TRUE;
}

gboolean
gnn_backward_masked_fill (GnnNode    *node,
                          GnnTensor  *grad,
                          GnnTensor **grads,
                          GError    **error)
{
  GnnTensor *mask = node->params.extra[0];
  g_autoptr(GnnTensor) zero = num (0.0);

  if (gnn_node_needs_grad (node, 0) &&
      !give (node, 0, gnn_tensor_masked_fill (grad, mask, zero, error), grads, error))
    return FALSE;
  if (gnn_node_needs_grad (node, 1))
    {
      g_autoptr(GnnTensor) picked = NULL;

      TRY (picked = gnn_tensor_where (mask, grad, zero, error));
      return give (node, 1, gnn_tensor_sum (picked, NULL, 0, FALSE, error), grads, error);
    }
  return TRUE;
}

/* grad · isfinite (self): the replaced values get none */
gboolean
gnn_backward_nan_to_num (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  g_autoptr(GnnTensor) finite = NULL;

  TRY (finite = gnn_tensor_isfinite (node->saved[0], error));
  return give (node, 0, gnn_tensor_mul (grad, finite, error), grads, error);
}

/* d hypot (a, b) = (a da + b db) / hypot (a, b) */
gboolean
gnn_backward_hypot (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  g_autoptr(GnnTensor) gr = NULL;

  TRY (gr = gnn_tensor_div (grad, node->saved_out, error));
  for (guint i = 0; i < 2; i++)
    if (gnn_node_needs_grad (node, i) &&
        !give (node, i, gnn_tensor_mul (gr, node->saved[i], error), grads, error))
      return FALSE;
  return TRUE;
}

/* fmax: self keeps the gradient where self >= other or other is NaN, other
 * everywhere else (fmin: <=), as torch's FmaxBackward0 */
gboolean
gnn_backward_fmax (GnnNode    *node,
                   GnnTensor  *grad,
                   GnnTensor **grads,
                   GError    **error)
{
  GnnTensor *a = node->saved[0], *b = node->saved[1];
  g_autoptr(GnnTensor) zero = num (0.0);
  g_autoptr(GnnTensor) wins = NULL;
  g_autoptr(GnnTensor) b_nan = NULL;
  g_autoptr(GnnTensor) self_wins = NULL;

  TRY (wins = node->op == GNN_OP_FMAX ? gnn_tensor_ge (a, b, error) : gnn_tensor_le (a, b, error));
  TRY (b_nan = gnn_tensor_isnan (b, error));
  TRY (self_wins = gnn_tensor_logical_or (wins, b_nan, error));
  if (gnn_node_needs_grad (node, 0) &&
      !give (node, 0, gnn_tensor_where (self_wins, grad, zero, error), grads, error))
    return FALSE;
  if (gnn_node_needs_grad (node, 1) &&
      !give (node, 1, gnn_tensor_where (self_wins, zero, grad, error), grads, error))
    return FALSE;
  return TRUE;
}
