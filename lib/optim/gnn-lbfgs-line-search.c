/* gnn-lbfgs-line-search.c: PyTorch 1.13's strong-Wolfe line search
 * (_strong_wolfe and _cubic_interpolate of torch/optim/lbfgs.py), step for
 * step, its scalars typed as PyTorch's
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "optim/gnn-lbfgs-private.h"

/* The short names of PyTorch's scalar arithmetic (gnn-lbfgs-private.h). */
typedef GnnLbfgsNum Num;
typedef GnnLbfgsCtx Ctx;
#define rnd gnn_lbfgs_round
#define py gnn_lbfgs_py
#define tens gnn_lbfgs_tensor
#define op gnn_lbfgs_op
#define lt gnn_lbfgs_lt
#define num_abs gnn_lbfgs_abs
#define num_min gnn_lbfgs_min
#define num_max gnn_lbfgs_max
#define LE GNN_LBFGS_LE
#define GT GNN_LBFGS_GT
#define GE GNN_LBFGS_GE

/* --- the strong-Wolfe line search ----------------------------------------- */

static Num
cubic_interpolate (const Ctx *c,
                   Num x1, Num f1, Num g1,
                   Num x2, Num f2, Num g2,
                   const Num *bounds)
{
  Num lo, hi, d1, d2_square;

  if (bounds != NULL)
    lo = bounds[0], hi = bounds[1];
  else if (LE (c, x1, x2))
    lo = x1, hi = x2;
  else
    lo = x2, hi = x1;
  /* d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2); d2_square = d1**2 - g1 * g2 */
  d1 = op (c, op (c, g1, '+', g2), '-',
           op (c, op (c, py (3), '*', op (c, f1, '-', f2)), '/', op (c, x1, '-', x2)));
  d2_square = op (c, op (c, d1, '*', d1), '-', op (c, g1, '*', g2));
  if (GE (c, d2_square, py (0)))
    {
      Num d2 = { d2_square.tensor ? rnd (c, sqrt (d2_square.v)) : sqrt (d2_square.v), d2_square.tensor };
      Num min_pos;

      if (LE (c, x1, x2))
        min_pos = op (c, x2, '-', op (c, op (c, x2, '-', x1), '*',
                                     op (c, op (c, op (c, g2, '+', d2), '-', d1), '/',
                                         op (c, op (c, g2, '-', g1), '+', op (c, py (2), '*', d2)))));
      else
        min_pos = op (c, x1, '-', op (c, op (c, x1, '-', x2), '*',
                                     op (c, op (c, op (c, g1, '+', d2), '-', d1), '/',
                                         op (c, op (c, g1, '-', g2), '+', op (c, py (2), '*', d2)))));
      return num_min (c, num_max (c, min_pos, lo), hi);
    }
  return op (c, op (c, lo, '+', hi), '/', py (2.));
}

typedef struct
{
  Num        t;
  Num        f;
  GnnTensor *g;      /* owned */
  Num        gtd;
} Point;

static void
point_set (Point     *p,
           Num        t,
           Num        f,
           GnnTensor *g,
           Num        gtd)
{
  GnnTensor *old = p->g;

  p->t = t, p->f = f, p->gtd = gtd;
  p->g = g != NULL ? g_object_ref (g) : NULL;
  g_clear_object (&old);
}

#define C1 1e-4
#define C2 0.9
#define MAX_LS 25

gboolean
gnn_lbfgs_strong_wolfe (const Ctx   *c,
              GnnTensor   *x,
              Num          t,
              GnnTensor   *d,
              double       f,
              GnnTensor   *g,
              Num          gtd,
              double       tolerance_change,
              double      *f_out,
              GnnTensor  **g_out,
              Num         *t_out,
              gint64      *evals_out,
              GError     **error)
{
  Num d_norm = gnn_lbfgs_vec_abs_max (c, d);
  Point br[2] = { { { 0, 0 }, { 0, 0 }, NULL, { 0, 0 } }, { { 0, 0 }, { 0, 0 }, NULL, { 0, 0 } } };
  g_autoptr (GnnTensor) g_new = NULL;
  g_autoptr (GnnTensor) g_prev = g_object_ref (g);
  Num t_prev = py (0), f_prev = py (f), gtd_prev = gtd, gtd_new;
  Num armijo_rhs;
  double f_new;
  gint64 evals = 1, ls_iter = 0;
  guint n_br = 0, low = 0, high = 1;
  gboolean done = FALSE, insuf_progress = FALSE, ok = TRUE;

  if (!gnn_lbfgs_directional_evaluate (c, x, t, d, &f_new, &g_new, error))
    return FALSE;
  gtd_new = gnn_lbfgs_vec_dot (c, g_new, d);

  while (ls_iter < MAX_LS)
    {
      armijo_rhs = op (c, py (f), '+', op (c, op (c, py (C1), '*', t), '*', gtd));
      if (GT (c, py (f_new), armijo_rhs) || (ls_iter > 1 && f_new >= f_prev.v))
        {
          point_set (&br[0], t_prev, f_prev, g_prev, gtd_prev);
          point_set (&br[1], t, py (f_new), g_new, gtd_new);
          n_br = 2;
          break;
        }
      if (LE (c, num_abs (gtd_new), op (c, py (-C2), '*', gtd)))
        {
          point_set (&br[0], t, py (f_new), g_new, gtd_new);
          n_br = 1;
          done = TRUE;
          break;
        }
      if (GE (c, gtd_new, py (0)))
        {
          point_set (&br[0], t_prev, f_prev, g_prev, gtd_prev);
          point_set (&br[1], t, py (f_new), g_new, gtd_new);
          n_br = 2;
          break;
        }
      {
        Num bounds[2] = { op (c, t, '+', op (c, py (0.01), '*', op (c, t, '-', t_prev))),
                          op (c, t, '*', py (10)) };
        Num tmp = t;

        t = cubic_interpolate (c, t_prev, f_prev, gtd_prev, t, py (f_new), gtd_new, bounds);
        t_prev = tmp;
        f_prev = py (f_new);
        g_set_object (&g_prev, g_new);
        gtd_prev = gtd_new;
      }
      g_clear_object (&g_new);
      if (!gnn_lbfgs_directional_evaluate (c, x, t, d, &f_new, &g_new, error))
        {
          ok = FALSE;
          goto out;
        }
      evals++;
      gtd_new = gnn_lbfgs_vec_dot (c, g_new, d);
      ls_iter++;
    }
  if (ls_iter == MAX_LS)
    {
      point_set (&br[0], py (0), py (f), g, br[0].gtd);
      point_set (&br[1], t, py (f_new), g_new, br[1].gtd);
      n_br = 2;
    }

  /* zoom: refine the bracket until a point satisfies the criteria */
  if (n_br == 2 && !LE (c, br[0].f, br[1].f))
    low = 1, high = 0;
  while (!done && ls_iter < MAX_LS)
    {
      Num bmax = num_max (c, br[0].t, br[1].t), bmin = num_min (c, br[0].t, br[1].t), eps;

      if (lt (c, op (c, num_abs (op (c, br[1].t, '-', br[0].t)), '*', d_norm), py (tolerance_change)))
        break;
      t = cubic_interpolate (c, br[0].t, br[0].f, br[0].gtd, br[1].t, br[1].f, br[1].gtd, NULL);
      eps = op (c, py (0.1), '*', op (c, bmax, '-', bmin));
      if (lt (c, num_min (c, op (c, bmax, '-', t), op (c, t, '-', bmin)), eps))
        {
          if (insuf_progress || GE (c, t, bmax) || LE (c, t, bmin))
            {
              if (lt (c, num_abs (op (c, t, '-', bmax)), num_abs (op (c, t, '-', bmin))))
                t = op (c, bmax, '-', eps);
              else
                t = op (c, bmin, '+', eps);
              insuf_progress = FALSE;
            }
          else
            insuf_progress = TRUE;
        }
      else
        insuf_progress = FALSE;

      g_clear_object (&g_new);
      if (!gnn_lbfgs_directional_evaluate (c, x, t, d, &f_new, &g_new, error))
        {
          ok = FALSE;
          goto out;
        }
      evals++;
      gtd_new = gnn_lbfgs_vec_dot (c, g_new, d);
      ls_iter++;

      armijo_rhs = op (c, py (f), '+', op (c, op (c, py (C1), '*', t), '*', gtd));
      if (GT (c, py (f_new), armijo_rhs) || GE (c, py (f_new), br[low].f))
        {
          point_set (&br[high], t, py (f_new), g_new, gtd_new);
          if (LE (c, br[0].f, br[1].f))
            low = 0, high = 1;
          else
            low = 1, high = 0;
        }
      else
        {
          if (LE (c, num_abs (gtd_new), op (c, py (-C2), '*', gtd)))
            done = TRUE;
          else if (GE (c, op (c, gtd_new, '*', op (c, br[high].t, '-', br[low].t)), py (0)))
            point_set (&br[high], br[low].t, br[low].f, br[low].g, br[low].gtd);
          point_set (&br[low], t, py (f_new), g_new, gtd_new);
        }
    }

  *t_out = br[low].t;
  *f_out = br[low].f.v;
  *g_out = g_object_ref (br[low].g);
  *evals_out = evals;
out:
  point_set (&br[0], py (0), py (0), NULL, py (0));
  point_set (&br[1], py (0), py (0), NULL, py (0));
  return ok;
}

