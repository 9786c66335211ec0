/* gnn-lbfgs-private.h: the arithmetic of GnnLBFGS's step (torch/optim/lbfgs.py):
 * PyTorch's scalars, flat vectors of the parameters, the closure's
 * evaluations
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "optim/gnn-optim-private.h"

G_BEGIN_DECLS

/* PyTorch's scalars are either Python floats (double arithmetic) or 0-d
 * tensors of the parameters' dtype: an operation with a tensor operand
 * rounds both operands and the result to that dtype. */
typedef struct
{
  double   v;
  gboolean tensor;
} GnnLbfgsNum;

typedef struct
{
  GnnOptimizer        *self;
  GPtrArray           *params;
  gint64               n;          /* elements of all parameters */
  gboolean             f32;
  GnnOptimizerClosure  closure;
  gpointer             user_data;
} GnnLbfgsCtx;

static inline double
gnn_lbfgs_round (const GnnLbfgsCtx *c,
     double     x)
{
  return c->f32 ? (double) (float) x : x;
}

static inline GnnLbfgsNum
gnn_lbfgs_py (double v)
{
  return (GnnLbfgsNum) { v, FALSE };
}

static inline GnnLbfgsNum
gnn_lbfgs_tensor (const GnnLbfgsCtx *c,
      double     v)
{
  return (GnnLbfgsNum) { gnn_lbfgs_round (c, v), TRUE };
}

static inline GnnLbfgsNum
gnn_lbfgs_op (const GnnLbfgsCtx *c,
    GnnLbfgsNum        a,
    char       o,
    GnnLbfgsNum        b)
{
  gboolean t = a.tensor || b.tensor;
  double x = t ? gnn_lbfgs_round (c, a.v) : a.v, y = t ? gnn_lbfgs_round (c, b.v) : b.v, r;

  switch (o)
    {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    default: r = x / y; break;
    }
  return t ? gnn_lbfgs_tensor (c, r) : gnn_lbfgs_py (r);
}

/* Comparisons round a Python operand to the tensor's dtype. */
static inline gboolean
gnn_lbfgs_lt (const GnnLbfgsCtx *c,
    GnnLbfgsNum        a,
    GnnLbfgsNum        b)
{
  gboolean t = a.tensor || b.tensor;

  return (t ? gnn_lbfgs_round (c, a.v) : a.v) < (t ? gnn_lbfgs_round (c, b.v) : b.v);
}

#define GNN_LBFGS_LE(c, a, b) (!gnn_lbfgs_lt (c, b, a))
#define GNN_LBFGS_GT(c, a, b) gnn_lbfgs_lt (c, b, a)
#define GNN_LBFGS_GE(c, a, b) (!gnn_lbfgs_lt (c, a, b))

static inline GnnLbfgsNum
gnn_lbfgs_abs (GnnLbfgsNum a)
{
  return (GnnLbfgsNum) { fabs (a.v), a.tensor };
}

/* Python's min/max return one of their arguments, with its type. */
static inline GnnLbfgsNum
gnn_lbfgs_min (const GnnLbfgsCtx *c, GnnLbfgsNum a, GnnLbfgsNum b)
{
  return gnn_lbfgs_lt (c, b, a) ? b : a;
}

static inline GnnLbfgsNum
gnn_lbfgs_max (const GnnLbfgsCtx *c, GnnLbfgsNum a, GnnLbfgsNum b)
{
  return gnn_lbfgs_lt (c, a, b) ? b : a;
}

/* Flat vectors of the parameters' dtype, torch's operations on them. */
GnnTensor *gnn_lbfgs_vec_new     (const GnnLbfgsCtx *c);
GnnLbfgsNum        gnn_lbfgs_vec_dot     (const GnnLbfgsCtx *c, GnnTensor *a, GnnTensor *b);
void       gnn_lbfgs_vec_axpy    (const GnnLbfgsCtx *c, GnnTensor *y, GnnLbfgsNum alpha, GnnTensor *x);
GnnTensor *gnn_lbfgs_vec_scaled  (const GnnLbfgsCtx *c, GnnTensor *a, GnnLbfgsNum s);
GnnTensor *gnn_lbfgs_vec_sub     (const GnnLbfgsCtx *c, GnnTensor *a, GnnTensor *b);
GnnLbfgsNum        gnn_lbfgs_vec_abs_max (const GnnLbfgsCtx *c, GnnTensor *a);
GnnLbfgsNum        gnn_lbfgs_vec_abs_sum (const GnnLbfgsCtx *c, GnnTensor *a);

/* The parameters as one vector: their gradients, a move along a direction,
 * a copy and its restoration; the closure's loss (float(closure())) and
 * PyTorch's _directional_evaluate. */
GnnTensor *gnn_lbfgs_gather_flat_grad     (const GnnLbfgsCtx *c);
void       gnn_lbfgs_add_grad             (const GnnLbfgsCtx *c, GnnLbfgsNum step, GnnTensor *update);
GnnTensor *gnn_lbfgs_clone_params         (const GnnLbfgsCtx *c);
void       gnn_lbfgs_set_params           (const GnnLbfgsCtx *c, GnnTensor *flat);
gboolean   gnn_lbfgs_evaluate             (const GnnLbfgsCtx *c, double *loss, GnnTensor **first,
                                           GError **error);
gboolean   gnn_lbfgs_directional_evaluate (const GnnLbfgsCtx *c, GnnTensor *x, GnnLbfgsNum t, GnnTensor *d,
                                           double *loss, GnnTensor **flat_grad, GError **error);

G_END_DECLS
