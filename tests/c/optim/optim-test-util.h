/* Helpers shared by the optimizer tests. */
#pragma once

#include <math.h>
#include <string.h>
#include "tensor/gnn-tensor-private.h"
#include "optim-expected.h"

static const double P0[] = { 0.5, -1.0, 2.0, 0.25 };
static const gint64 SHAPE22[] = { 2, 2 };

static inline GnnTensor *
make_param (GnnDType dtype)
{
  g_autoptr (GnnTensor) d = gnn_tensor_new_from_doubles (P0, 4, SHAPE22, 2, NULL);
  g_autoptr (GnnTensor) t = gnn_tensor_to_dtype (d, dtype, NULL);

  return GNN_TENSOR (gnn_parameter_new (t, TRUE));
}

/* Sets the gradient of step @k (0-based) from GRADS, in @p's dtype. */
static inline void
set_grad (GnnTensor *p,
          guint      k)
{
  g_autoptr (GnnTensor) d = gnn_tensor_new_from_doubles (GRADS + 4 * k, 4, SHAPE22, 2, NULL);
  g_autoptr (GnnTensor) g = gnn_tensor_to_dtype (d, gnn_tensor_get_dtype (p), NULL);

  gnn_tensor_set_grad (p, g);
}

static inline GPtrArray *
param_list (GnnTensor *p)
{
  GPtrArray *a = g_ptr_array_new ();

  g_ptr_array_add (a, p);
  return a;
}

static inline void
assert_values (GnnTensor    *t,
               const double *expected,
               double        tol)
{
  gsize n = 0;
  g_autofree double *v = gnn_tensor_to_doubles (t, &n);

  g_assert_cmpuint (n, ==, 4);
  for (gsize i = 0; i < n; i++)
    {
      if (fabs (v[i] - expected[i]) > tol)
        g_error ("element %" G_GSIZE_FORMAT ": got %.17g, expected %.17g (tolerance %g)",
                 i, v[i], expected[i], tol);
    }
}

static inline void
run_steps (GnnOptimizer *opt,
           GnnTensor    *p,
           guint         first,
           guint         n)
{
  for (guint k = first; k < first + n; k++)
    {
      g_autoptr (GError) error = NULL;
      set_grad (p, k % 5);
      g_assert_true (gnn_optimizer_step (opt, &error));
      g_assert_no_error (error);
    }
}
