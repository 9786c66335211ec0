/* nn-gradcheck.h: the numerical gradient check of the nn tests: the
 * gradients autograd gives a float64 function of several tensors, against
 * central differences.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <math.h>
#include <gnn/gnn.h>

/* The function checked: its output from @inputs (float64 tensors). */
typedef GnnTensor *(*NnGradFunc) (GnnTensor **inputs, gconstpointer data, GError **error);

/* L = sum (f (inputs) × w) with fixed weights w, so that every output
 * element matters with its own factor. */
static inline double
nn_gradcheck_loss (NnGradFunc     f,
                   gconstpointer  data,
                   GnnTensor    **inputs,
                   GnnTensor    **loss_out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = f (inputs, data, &error);
  g_autofree double *w = NULL;
  g_autoptr(GnnTensor) wt = NULL;
  g_autoptr(GnnTensor) prod = NULL;
  GnnTensor *loss;
  guint ndim = 0;
  const gint64 *shape;
  gint64 n;

  g_assert_no_error (error);
  g_assert_nonnull (y);
  shape = gnn_tensor_get_shape (y, &ndim);
  n = gnn_tensor_get_numel (y);
  w = g_new (double, MAX (n, 1));
  for (gint64 k = 0; k < n; k++)
    w[k] = 1.0 + 0.37 * (double) (k % 5) - 0.2 * (double) (k % 3);
  wt = gnn_tensor_new_from_doubles (w, (gsize) n, shape, ndim, &error);
  g_assert_no_error (error);
  prod = gnn_tensor_mul (y, wt, &error);
  g_assert_no_error (error);
  loss = gnn_tensor_sum (prod, NULL, 0, FALSE, &error);
  g_assert_no_error (error);
  if (loss_out != NULL)
    *loss_out = loss;
  else
    {
      double v = gnn_tensor_item (loss, NULL);

      g_object_unref (loss);
      return v;
    }
  return gnn_tensor_item (loss, NULL);
}

/* Checks the gradient of every float64 input with wrt[i] (requires grad is
 * set here; the others must not require grad): |analytic - numeric| <= tol × (1 + |numeric|). */
static inline void
nn_gradcheck (NnGradFunc      f,
              gconstpointer   data,
              GnnTensor     **inputs,
              guint           n_inputs,
              const gboolean *wrt,
              double          tol)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  const double h = 1e-6;

  for (guint i = 0; i < n_inputs; i++)
    {
      if (!wrt[i])
        continue;
      g_assert_cmpint (gnn_tensor_get_dtype (inputs[i]), ==, GNN_DTYPE_F64);
      gnn_tensor_set_grad (inputs[i], NULL);
      gnn_tensor_set_requires_grad (inputs[i], TRUE);
    }
  nn_gradcheck_loss (f, data, inputs, &loss);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < n_inputs; i++)
    {
      g_autofree double *grad = NULL;
      double *x;
      gint64 n;

      if (!wrt[i])
        continue;
      g_assert_nonnull (gnn_tensor_get_grad (inputs[i]));
      grad = gnn_tensor_to_doubles (gnn_tensor_get_grad (inputs[i]), NULL);
      g_assert_true (gnn_tensor_is_contiguous (inputs[i]));
      x = gnn_tensor_get_data (inputs[i]);
      n = gnn_tensor_get_numel (inputs[i]);
      for (gint64 k = 0; k < n; k++)
        {
          g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
          double saved = x[k], hi, lo, numeric;

          x[k] = saved + h;
          hi = nn_gradcheck_loss (f, data, inputs, NULL);
          x[k] = saved - h;
          lo = nn_gradcheck_loss (f, data, inputs, NULL);
          x[k] = saved;
          numeric = (hi - lo) / (2 * h);
          if (fabs (grad[k] - numeric) > tol * (1 + fabs (numeric)))
            g_error ("input %u element %" G_GINT64_FORMAT ": autograd %.9g, numeric %.9g",
                     i, k, grad[k], numeric);
        }
    }
}

/* A float64 tensor of @shape from @values. */
static inline GnnTensor *
nn_doubles (const double *values,
            const gint64 *shape,
            guint         ndim)
{
  gint64 n = 1;

  for (guint d = 0; d < ndim; d++)
    n *= shape[d];
  return gnn_tensor_new_from_doubles (values, (gsize) n, shape, ndim, NULL);
}
