/* gnn-lbfgs.c: L-BFGS with PyTorch 1.13's optional strong-Wolfe line search
 * (torch/optim/lbfgs.py), step for step
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

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

/**
 * GnnLBFGS:
 *
 * The L-BFGS optimizer of PyTorch 1.13's `torch.optim.LBFGS`: each
 * [method@Gnn.Optimizer.step_with_closure] runs up to
 * [property@Gnn.LBFGS:max-iter] iterations, each calling the closure to
 * re-evaluate the loss and the gradients, and moves along the quasi-Newton
 * direction built from the last [property@Gnn.LBFGS:history-size] steps —
 * by a fixed step, or by the strong-Wolfe line search when
 * [property@Gnn.LBFGS:line-search-fn] is "strong_wolfe". The arithmetic
 * follows PyTorch's, down to which scalars are float32 tensors and which
 * are Python floats, so float32 runs match too.
 *
 * As in PyTorch there is one parameter group; all parameters share a
 * dtype. The state lives with the first parameter: `func_evals` and
 * `n_iter` (int64 scalars), `d`, `prev_flat_grad` (flat vectors), `t`,
 * `prev_loss` (float64 scalars: PyTorch's Python floats), `H_diag`, and the
 * history `old_dirs`, `old_stps` (one row per step), `ro` and `al`. A
 * closure that fails leaves the parameters and the state as they were.
 *
 * Since: 0.1
 */
struct _GnnLBFGS
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_LR,
  PROP_MAX_ITER,
  PROP_MAX_EVAL,
  PROP_TOLERANCE_GRAD,
  PROP_TOLERANCE_CHANGE,
  PROP_HISTORY_SIZE,
  PROP_LINE_SEARCH_FN,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (GnnLBFGS, gnn_lbfgs, GNN_TYPE_OPTIMIZER)

static const GnnOptimStateEntry lbfgs_state[] = {
  { "func_evals", GNN_OPTIM_STATE_I64, TRUE },
  { "n_iter", GNN_OPTIM_STATE_I64, TRUE },
  { "d", GNN_OPTIM_STATE_ANY_SHAPE, FALSE },
  { "t", GNN_OPTIM_STATE_ANY_SHAPE, FALSE },
  { "old_dirs", GNN_OPTIM_STATE_ANY_SHAPE, FALSE },
  { "old_stps", GNN_OPTIM_STATE_ANY_SHAPE, FALSE },
  { "ro", GNN_OPTIM_STATE_ANY_SHAPE, FALSE },
  { "H_diag", GNN_OPTIM_STATE_ANY_SHAPE, FALSE },
  { "prev_flat_grad", GNN_OPTIM_STATE_ANY_SHAPE, FALSE },
  { "prev_loss", GNN_OPTIM_STATE_F64, FALSE },
  { "al", GNN_OPTIM_STATE_ANY_SHAPE, FALSE },
  { NULL, 0, FALSE },
};

/* --- the strong-Wolfe line search ----------------------------------------- */

static Num
cubic_interpolate (const Ctx *c,
                   Num        x1,
                   Num        f1,
                   Num        g1,
                   Num        x2,
                   Num        f2,
                   Num        g2,
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

/* The loss, gradient and directional derivative at x + t d (its gradient
 * replaces *g). */
static gboolean
probe (const Ctx   *c,
       GnnTensor   *x,
       Num          t,
       GnnTensor   *d,
       double      *f,
       GnnTensor  **g,
       Num         *gtd,
       GError     **error)
{
  g_clear_object (g);
  if (!gnn_lbfgs_directional_evaluate (c, x, t, d, f, g, error))
    return FALSE;
  *gtd = gnn_lbfgs_vec_dot (c, *g, d);
  return TRUE;
}

/* The right side of the sufficient-decrease (Armijo) test, f + c1 t gtd. */
static Num
armijo (const Ctx *c,
        double     f,
        Num        t,
        Num        gtd)
{
  return op (c, py (f), '+', op (c, op (c, py (C1), '*', t), '*', gtd));
}

static gboolean
strong_wolfe (const Ctx  *c,
              GnnTensor  *x,
              Num         t,
              GnnTensor  *d,
              double      f,
              GnnTensor  *g,
              Num         gtd,
              double      tolerance_change,
              double     *f_out,
              GnnTensor **g_out,
              Num        *t_out,
              gint64     *evals_out,
              GError    **error)
{
  Num d_norm = gnn_lbfgs_vec_abs_max (c, d);
  Point br[2] = { { { 0, 0 }, { 0, 0 }, NULL, { 0, 0 } }, { { 0, 0 }, { 0, 0 }, NULL, { 0, 0 } } };
  g_autoptr (GnnTensor) g_new = NULL;
  g_autoptr (GnnTensor) g_prev = g_object_ref (g);
  Num t_prev = py (0), f_prev = py (f), gtd_prev = gtd, gtd_new;
  double f_new;
  gint64 evals = 1, ls_iter = 0;
  guint n_br = 0, low = 0, high = 1;
  gboolean done = FALSE, insuf_progress = FALSE, ok = TRUE;

  if (!probe (c, x, t, d, &f_new, &g_new, &gtd_new, error))
    return FALSE;

  while (ls_iter < MAX_LS)
    {
      if (GT (c, py (f_new), armijo (c, f, t, gtd)) || (ls_iter > 1 && f_new >= f_prev.v))
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
      if (!probe (c, x, t, d, &f_new, &g_new, &gtd_new, error))
        {
          ok = FALSE;
          goto out;
        }
      evals++;
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

      if (!probe (c, x, t, d, &f_new, &g_new, &gtd_new, error))
        {
          ok = FALSE;
          goto out;
        }
      evals++;
      ls_iter++;

      if (GT (c, py (f_new), armijo (c, f, t, gtd)) || GE (c, py (f_new), br[low].f))
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

/* --- the state ----------------------------------------------------------------- */

/* The history as torch's lists: rows of [k, n] as vectors. */
static GPtrArray *
unpack_rows (const Ctx    *c,
             GnnStateDict *state,
             const char   *name)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_object_unref);
  GnnTensor *packed = gnn_state_dict_lookup (state, name);
  gsize size = c->f32 ? sizeof (float) : sizeof (double);
  gint64 k = packed != NULL ? gnn_tensor_get_numel (packed) / MAX (c->n, 1) : 0;

  for (gint64 r = 0; r < k; r++)
    {
      GnnTensor *row = gnn_lbfgs_vec_new (c);
      memcpy (gnn_optim_data (row), (guint8 *) gnn_optim_data (packed) + r * c->n * size, c->n * size);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

static GnnTensor *
pack_rows (const Ctx *c,
           GPtrArray *rows)
{
  gint64 shape[2] = { rows->len, c->n };
  GnnTensor *packed = gnn_tensor_new_contiguous (c->f32 ? GNN_DTYPE_F32 : GNN_DTYPE_F64, shape, 2, TRUE);
  gsize size = c->f32 ? sizeof (float) : sizeof (double);

  for (guint r = 0; r < rows->len; r++)
    memcpy ((guint8 *) gnn_optim_data (packed) + r * c->n * size,
            gnn_optim_data (g_ptr_array_index (rows, r)), c->n * size);
  return packed;
}

static GnnTensor *
scalars_tensor (const Ctx *c,
                const Num *values,
                guint      n)
{
  gint64 shape = n;
  GnnTensor *t = gnn_tensor_new_contiguous (c->f32 ? GNN_DTYPE_F32 : GNN_DTYPE_F64, &shape, 1, TRUE);

  for (guint i = 0; i < n; i++)
    gnn_dtype_write (gnn_tensor_get_dtype (t), (guint8 *) gnn_optim_data (t) + i * gnn_dtype_get_size (gnn_tensor_get_dtype (t)), values[i].v);
  return t;
}

static Num
read_num (const Ctx    *c,
          GnnStateDict *state,
          const char   *name,
          double        fallback)
{
  GnnTensor *t = gnn_state_dict_lookup (state, name);

  if (t == NULL)
    return py (fallback);
  /* a float64 scalar of float32 parameters was a Python float */
  if (c->f32 && gnn_tensor_get_dtype (t) == GNN_DTYPE_F64)
    return py (gnn_tensor_item (t, NULL));
  return (Num) { gnn_tensor_item (t, NULL), c->f32 || gnn_tensor_get_dtype (t) != GNN_DTYPE_F64 };
}

static void
write_num (const Ctx    *c,
           GnnStateDict *state,
           const char   *name,
           Num           value)
{
  GnnDType dtype = value.tensor ? (c->f32 ? GNN_DTYPE_F32 : GNN_DTYPE_F64) : GNN_DTYPE_F64;
  g_autoptr (GnnTensor) t = gnn_tensor_new_contiguous (dtype, NULL, 0, FALSE);

  gnn_dtype_write (dtype, gnn_optim_data (t), value.v);
  gnn_state_dict_insert (state, name, t);
}

/* --- the step ------------------------------------------------------------------ */

typedef struct
{
  double      lr, tolerance_grad, tolerance_change;
  gint64      max_iter, max_eval, history_size;
  gboolean    strong_wolfe;
} Options;

static gboolean
run (const Ctx      *c,
     const Options  *o,
     GnnStateDict   *state,
     GnnTensor     **orig_loss,
     GError        **error)
{
  gint64 *func_evals = gnn_optim_data (gnn_optim_state_scalar (state, "func_evals", GNN_DTYPE_I64, 0));
  gint64 *state_n_iter = gnn_optim_data (gnn_optim_state_scalar (state, "n_iter", GNN_DTYPE_I64, 0));
  g_autoptr (GnnTensor) flat_grad = NULL;
  g_autoptr (GnnTensor) d = NULL;
  g_autoptr (GnnTensor) prev_flat_grad = NULL;
  g_autoptr (GPtrArray) old_dirs = NULL;
  g_autoptr (GPtrArray) old_stps = NULL;
  g_autoptr (GArray) ro = g_array_new (FALSE, TRUE, sizeof (Num));
  g_autoptr (GArray) al = g_array_new (FALSE, TRUE, sizeof (Num));
  Num t, h_diag, prev_loss;
  double loss;
  gint64 n_iter = 0, current_evals = 1;
  gboolean opt_cond;

  if (!gnn_lbfgs_evaluate (c, &loss, orig_loss, error))
    return FALSE;
  *func_evals += 1;
  flat_grad = gnn_lbfgs_gather_flat_grad (c);
  opt_cond = LE (c, gnn_lbfgs_vec_abs_max (c, flat_grad), py (o->tolerance_grad));
  if (opt_cond)
    return TRUE;

  /* the state left by the last step */
  if (gnn_state_dict_lookup (state, "d") != NULL)
    d = g_object_ref (gnn_state_dict_lookup (state, "d"));
  if (gnn_state_dict_lookup (state, "prev_flat_grad") != NULL)
    prev_flat_grad = gnn_tensor_clone (gnn_state_dict_lookup (state, "prev_flat_grad"));
  t = read_num (c, state, "t", o->lr);
  h_diag = read_num (c, state, "H_diag", 1);
  prev_loss = read_num (c, state, "prev_loss", 0);
  old_dirs = unpack_rows (c, state, "old_dirs");
  old_stps = unpack_rows (c, state, "old_stps");
  if (gnn_state_dict_lookup (state, "ro") != NULL)
    {
      GnnTensor *r = gnn_state_dict_lookup (state, "ro");
      for (gint64 i = 0; i < gnn_tensor_get_numel (r); i++)
        {
          Num v = tens (c, gnn_dtype_read (gnn_tensor_get_dtype (r), (guint8 *) gnn_optim_data (r) + i * gnn_dtype_get_size (gnn_tensor_get_dtype (r))));
          g_array_append_val (ro, v);
        }
    }
  g_array_set_size (al, MAX (o->history_size, (gint64) old_dirs->len));

  while (n_iter < o->max_iter)
    {
      Num gtd;
      gint64 ls_func_evals = 0;

      n_iter++;
      *state_n_iter += 1;

      /* the descent direction */
      if (*state_n_iter == 1)
        {
          g_clear_object (&d);
          d = gnn_lbfgs_vec_scaled (c, flat_grad, py (-1));
          g_ptr_array_set_size (old_dirs, 0);
          g_ptr_array_set_size (old_stps, 0);
          g_array_set_size (ro, 0);
          h_diag = py (1);
        }
      else
        {
          g_autoptr (GnnTensor) y = gnn_lbfgs_vec_sub (c, flat_grad, prev_flat_grad);
          g_autoptr (GnnTensor) s = gnn_lbfgs_vec_scaled (c, d, t);
          Num ys = gnn_lbfgs_vec_dot (c, y, s);
          g_autoptr (GnnTensor) q = NULL;
          guint num_old;

          if (GT (c, ys, py (1e-10)))
            {
              Num r = op (c, op (c, py (1), '/', ys), '*', py (1.));
              if ((gint64) old_dirs->len == o->history_size && old_dirs->len > 0)
                {
                  g_ptr_array_remove_index (old_dirs, 0);
                  g_ptr_array_remove_index (old_stps, 0);
                  g_array_remove_index (ro, 0);
                }
              g_ptr_array_add (old_dirs, g_object_ref (y));
              g_ptr_array_add (old_stps, g_object_ref (s));
              g_array_append_val (ro, r);
              h_diag = op (c, ys, '/', gnn_lbfgs_vec_dot (c, y, y));
            }
          num_old = old_dirs->len;
          if (al->len < num_old)
            g_array_set_size (al, num_old);
          q = gnn_lbfgs_vec_scaled (c, flat_grad, py (-1));
          for (int i = (int) num_old - 1; i >= 0; i--)
            {
              Num a = op (c, gnn_lbfgs_vec_dot (c, g_ptr_array_index (old_stps, i), q), '*',
                          g_array_index (ro, Num, i));
              g_array_index (al, Num, i) = a;
              gnn_lbfgs_vec_axpy (c, q, op (c, py (0), '-', a), g_ptr_array_index (old_dirs, i));
            }
          g_clear_object (&d);
          d = gnn_lbfgs_vec_scaled (c, q, h_diag);
          for (guint i = 0; i < num_old; i++)
            {
              Num be = op (c, gnn_lbfgs_vec_dot (c, g_ptr_array_index (old_dirs, i), d), '*',
                           g_array_index (ro, Num, i));
              gnn_lbfgs_vec_axpy (c, d, op (c, g_array_index (al, Num, i), '-', be),
                        g_ptr_array_index (old_stps, i));
            }
        }
      g_clear_object (&prev_flat_grad);
      prev_flat_grad = gnn_tensor_clone (flat_grad);
      prev_loss = py (loss);

      /* the step length */
      if (*state_n_iter == 1)
        t = op (c, num_min (c, py (1.), op (c, op (c, py (1), '/', gnn_lbfgs_vec_abs_sum (c, flat_grad)), '*', py (1.))),
                '*', py (o->lr));
      else
        t = py (o->lr);
      gtd = gnn_lbfgs_vec_dot (c, flat_grad, d);
      if (GT (c, gtd, py (-o->tolerance_change)))
        break;

      if (o->strong_wolfe)
        {
          g_autoptr (GnnTensor) x_init = gnn_lbfgs_clone_params (c);
          GnnTensor *g_ls = NULL;
          double f_ls;

          if (!strong_wolfe (c, x_init, t, d, loss, flat_grad, gtd, o->tolerance_change,
                             &f_ls, &g_ls, &t, &ls_func_evals, error))
            return FALSE;
          loss = f_ls;
          g_clear_object (&flat_grad);
          flat_grad = g_ls;
          gnn_lbfgs_add_grad (c, t, d);
          opt_cond = LE (c, gnn_lbfgs_vec_abs_max (c, flat_grad), py (o->tolerance_grad));
        }
      else
        {
          gnn_lbfgs_add_grad (c, t, d);
          if (n_iter != o->max_iter)
            {
              if (!gnn_lbfgs_evaluate (c, &loss, NULL, error))
                return FALSE;
              g_clear_object (&flat_grad);
              flat_grad = gnn_lbfgs_gather_flat_grad (c);
              opt_cond = LE (c, gnn_lbfgs_vec_abs_max (c, flat_grad), py (o->tolerance_grad));
              ls_func_evals = 1;
            }
        }
      current_evals += ls_func_evals;
      *func_evals += ls_func_evals;

      if (n_iter == o->max_iter || current_evals >= o->max_eval || opt_cond)
        break;
      {
        g_autoptr (GnnTensor) moved = gnn_lbfgs_vec_scaled (c, d, t);
        if (LE (c, gnn_lbfgs_vec_abs_max (c, moved), py (o->tolerance_change)))
          break;
      }
      if (fabs (loss - prev_loss.v) < o->tolerance_change)
        break;
    }

  if (d != NULL)
    gnn_state_dict_insert (state, "d", d);
  write_num (c, state, "t", t);
  {
    g_autoptr (GnnTensor) dirs = pack_rows (c, old_dirs);
    g_autoptr (GnnTensor) stps = pack_rows (c, old_stps);
    g_autoptr (GnnTensor) ro_t = scalars_tensor (c, (const Num *) (gpointer) ro->data, ro->len);
    g_autoptr (GnnTensor) al_t = scalars_tensor (c, (const Num *) (gpointer) al->data, al->len);

    gnn_state_dict_insert (state, "old_dirs", dirs);
    gnn_state_dict_insert (state, "old_stps", stps);
    gnn_state_dict_insert (state, "ro", ro_t);
    gnn_state_dict_insert (state, "al", al_t);
  }
  write_num (c, state, "H_diag", (Num) { h_diag.v, TRUE });
  if (prev_flat_grad != NULL)
    gnn_state_dict_insert (state, "prev_flat_grad", prev_flat_grad);
  write_num (c, state, "prev_loss", prev_loss);
  return TRUE;
}

static GnnStateDict *
copy_state (GnnStateDict *state)
{
  GnnStateDict *copy = gnn_state_dict_new ();
  g_auto (GStrv) keys = gnn_state_dict_get_keys (state);

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr (GnnTensor) t = gnn_tensor_clone (gnn_state_dict_lookup (state, keys[i]));
      gnn_state_dict_insert (copy, keys[i], t);
    }
  return copy;
}

static gboolean
gnn_lbfgs_step_with_closure (GnnOptimizer         *self,
                             GnnOptimizerClosure   closure,
                             gpointer              user_data,
                             GnnTensor           **loss,
                             GError              **error)
{
  GnnParamGroup *group = gnn_optimizer_group (self, 0);
  GPtrArray *states = gnn_optimizer_get_states (self);
  const GValue *o = group != NULL ? group->options : NULL;
  g_autoptr (GnnTensor) saved_params = NULL;
  g_autoptr (GnnStateDict) state = NULL;
  GnnStateDict *old;
  Options options;
  Ctx c = { self, gnn_optimizer_get_flat_params (self), 0, FALSE, closure, user_data };

  if (closure == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "step() missing 1 required positional argument: 'closure'");
      return FALSE;
    }
  if (c.params->len == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "LBFGS has no parameters");
      return FALSE;
    }
  c.f32 = gnn_tensor_get_dtype (g_ptr_array_index (c.params, 0)) == GNN_DTYPE_F32;
  for (guint i = 0; i < c.params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (c.params, i);

      if (gnn_tensor_get_dtype (p) != gnn_tensor_get_dtype (g_ptr_array_index (c.params, 0)))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "LBFGS: all parameters must have one dtype, parameter %u has %s", i,
                       gnn_dtype_get_name (gnn_tensor_get_dtype (p)));
          return FALSE;
        }
      c.n += gnn_tensor_get_numel (p);
    }
  if (c.n > G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "LBFGS: %" G_GINT64_FORMAT " elements are too many", c.n);
      return FALSE;
    }
  options = (Options) {
    g_value_get_double (&o[PROP_LR]), g_value_get_double (&o[PROP_TOLERANCE_GRAD]),
    g_value_get_double (&o[PROP_TOLERANCE_CHANGE]), g_value_get_int64 (&o[PROP_MAX_ITER]),
    g_value_get_int64 (&o[PROP_MAX_EVAL]), g_value_get_int64 (&o[PROP_HISTORY_SIZE]),
    g_strcmp0 (g_value_get_string (&o[PROP_LINE_SEARCH_FN]), "strong_wolfe") == 0,
  };
  if (g_value_get_string (&o[PROP_LINE_SEARCH_FN]) != NULL && !options.strong_wolfe)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "only 'strong_wolfe' is supported");
      return FALSE;
    }

  /* the step works on a copy of the state; the parameters are restored if
   * the closure fails */
  saved_params = gnn_lbfgs_clone_params (&c);
  state = copy_state (g_ptr_array_index (states, 0));
  if (!run (&c, &options, state, loss, error))
    {
      gnn_lbfgs_set_params (&c, saved_params);
      g_clear_object (loss);
      return FALSE;
    }
  old = g_ptr_array_index (states, 0);
  states->pdata[0] = g_steal_pointer (&state);
  g_object_unref (old);
  return TRUE;
}

static gboolean
gnn_lbfgs_validate (GnnOptimizer  *self,
                    GError       **error)
{
  const char *fn = g_value_get_string (&gnn_optim_bag_values (G_OBJECT (self))[PROP_LINE_SEARCH_FN]);

  if (fn != NULL && strcmp (fn, "strong_wolfe") != 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "only 'strong_wolfe' is supported");
      return FALSE;
    }
  return TRUE;
}

/* max_eval=None is max_iter * 5 // 4, fixed at construction as in PyTorch */
static void
gnn_lbfgs_constructed (GObject *object)
{
  const GValue *o = gnn_optim_bag_values (object);

  G_OBJECT_CLASS (gnn_lbfgs_parent_class)->constructed (object);
  if (g_value_get_int64 (&o[PROP_MAX_EVAL]) < 0)
    g_object_set (object, "max-eval", g_value_get_int64 (&o[PROP_MAX_ITER]) * 5 / 4, NULL);
}

static void
gnn_lbfgs_class_init (GnnLBFGSClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);
  GParamSpec *properties[N_PROPS];

  object_class->constructed = gnn_lbfgs_constructed;
  optimizer_class->validate = gnn_lbfgs_validate;
  optimizer_class->step_with_closure = gnn_lbfgs_step_with_closure;
  gnn_optimizer_class_set_state_entries (optimizer_class, lbfgs_state);
  gnn_optimizer_class_set_single_group (optimizer_class);

  /**
   * GnnLBFGS:lr:
   *
   * The learning rate (PyTorch's default: 1).
   *
   * Since: 0.1
   */
  properties[PROP_LR] = gnn_optim_double_property ("lr", 1.0);
  /**
   * GnnLBFGS:max-iter:
   *
   * The largest number of iterations per step.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_ITER] = gnn_optim_int64_property ("max-iter", 0, G_MAXINT64 / 8, 20);
  /**
   * GnnLBFGS:max-eval:
   *
   * The largest number of closure evaluations per step; -1 (PyTorch's
   * None) becomes `max_iter * 5 / 4` at construction.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_EVAL] = gnn_optim_int64_property ("max-eval", -1, G_MAXINT64, -1);
  /**
   * GnnLBFGS:tolerance-grad:
   *
   * The step stops once every gradient element is at most this large.
   *
   * Since: 0.1
   */
  properties[PROP_TOLERANCE_GRAD] = gnn_optim_double_property ("tolerance-grad", 1e-7);
  /**
   * GnnLBFGS:tolerance-change:
   *
   * The step stops once the loss or the parameters change less than this.
   *
   * Since: 0.1
   */
  properties[PROP_TOLERANCE_CHANGE] = gnn_optim_double_property ("tolerance-change", 1e-9);
  /**
   * GnnLBFGS:history-size:
   *
   * The number of past steps the inverse Hessian is built from.
   *
   * Since: 0.1
   */
  properties[PROP_HISTORY_SIZE] = gnn_optim_int64_property ("history-size", 1, G_MAXINT32, 100);
  /**
   * GnnLBFGS:line-search-fn:
   *
   * %NULL for fixed steps of `lr`, or "strong_wolfe" for PyTorch's
   * strong-Wolfe line search.
   *
   * Since: 0.1
   */
  properties[PROP_LINE_SEARCH_FN] = gnn_optim_string_property ("line-search-fn", NULL);
  gnn_optim_class_install_properties (object_class, properties, N_PROPS);
}

static void
gnn_lbfgs_init (GnnLBFGS *self)
{
  (void) self;
}

/**
 * gnn_lbfgs_new:
 * @params: (element-type Gnn.Tensor) (transfer none): the tensors to train
 * @lr: the learning rate (PyTorch's default: 1)
 * @error: return location for a #GError
 *
 * Creates an L-BFGS optimizer, like `torch.optim.LBFGS(params, lr)`; the
 * other settings are properties (`"line-search-fn", "strong_wolfe"`). Its
 * steps need a closure: [method@Gnn.Optimizer.step_with_closure].
 *
 * Returns: (transfer full): a new optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnLBFGS *
gnn_lbfgs_new (GPtrArray  *params,
               double      lr,
               GError    **error)
{
  return gnn_optim_new_with_lr (GNN_TYPE_LBFGS, params, lr, error);
}
