/* gradcheck-util.h: numerical gradient checks shared by the autograd tests:
 * gradients of sum (f (inputs) · r) for fixed random weights r against
 * central finite differences in float64
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <math.h>
#include <string.h>

#include <gnn/gnn.h>


static G_GNUC_UNUSED guint64 rng_state = 88172645463325252ull;

static G_GNUC_UNUSED double
rnd (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double) (rng_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static G_GNUC_UNUSED GnnTensor *
randn (const gint64 *shape,
       guint         ndim,
       double        offset)
{
  gint64 n = 1;
  g_autofree double *v = NULL;
  GnnTensor *t;

  for (guint d = 0; d < ndim; d++)
    n *= shape[d];
  v = g_new (double, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    v[i] = rnd () + offset;
  t = gnn_tensor_new_from_doubles (v, n, shape, ndim, NULL);
  gnn_tensor_set_requires_grad (t, TRUE);
  return t;
}

#define SHAPE(...) (const gint64[]) { __VA_ARGS__ }, G_N_ELEMENTS (((const gint64[]) { __VA_ARGS__ }))

typedef GnnTensor *(*BuildFunc) (GnnTensor **in, GError **error);

/* sum (f (inputs) * r) for fixed random weights r, in doubles */
static G_GNUC_UNUSED double
weighted_value (BuildFunc   build,
                GnnTensor **in,
                GnnTensor  *r)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) out = build (in, &error);
  g_autofree double *o = NULL;
  g_autofree double *w = NULL;
  gsize n = 0;
  double s = 0;

  g_assert_no_error (error);
  o = gnn_tensor_to_doubles (out, &n);
  w = gnn_tensor_to_doubles (r, NULL);
  for (gsize i = 0; i < n; i++)
    s += o[i] * w[i];
  return s;
}

static G_GNUC_UNUSED void
gradcheck (BuildFunc   build,
           GnnTensor **in,
           guint       n_in,
           double      tol)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) r = NULL;
  g_autoptr(GnnTensor) weighted = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  guint ndim;
  const gint64 *shape;

  out = build (in, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_get_requires_grad (out));
  g_assert_nonnull (gnn_tensor_get_grad_fn_name (out));
  shape = gnn_tensor_get_shape (out, &ndim);
  r = randn (shape, ndim, 0.0);
  gnn_tensor_set_requires_grad (r, FALSE);
  weighted = gnn_tensor_mul (out, r, &error);
  g_assert_no_error (error);
  loss = gnn_tensor_sum (weighted, NULL, 0, FALSE, &error);
  g_assert_no_error (error);
  gnn_tensor_backward (loss, NULL, FALSE, &error);
  g_assert_no_error (error);   /* (prints the message) */

  gnn_no_grad_push ();
  for (guint i = 0; i < n_in; i++)
    {
      GnnTensor *grad;
      g_autofree double *g = NULL;
      gsize n = 0;

      if (in[i] == NULL || !gnn_tensor_get_requires_grad (in[i]))
        continue;
      grad = gnn_tensor_get_grad (in[i]);
      g_assert_nonnull (grad);
      g_assert_cmpint (gnn_tensor_get_numel (grad), ==, gnn_tensor_get_numel (in[i]));
      g = gnn_tensor_to_doubles (grad, &n);
      for (gsize k = 0; k < n; k++)
        {
          double *data = gnn_tensor_get_data (in[i]);
          double x = data[k], h = 1e-6, fp, fm, num;

          data[k] = x + h;
          fp = weighted_value (build, in, r);
          data[k] = x - h;
          fm = weighted_value (build, in, r);
          data[k] = x;
          num = (fp - fm) / (2 * h);
          if (fabs (num - g[k]) > tol * (1 + fabs (num)))
            g_error ("input %u element %" G_GSIZE_FORMAT ": analytic %.9g, numeric %.9g", i, k, g[k], num);
        }
    }
  gnn_no_grad_pop ();
}

static G_GNUC_UNUSED void
free_inputs (GnnTensor **in,
             guint       n)
{
  for (guint i = 0; i < n; i++)
    g_clear_object (&in[i]);
}


/* One gradient check: inputs of the given shapes, random values + offset. */
typedef struct
{
  const char *path;
  BuildFunc   build;
  guint       n_in;
  gint64      shapes[3][5];
  guint       ndims[3];
  double      offset[3];
} Case;

static G_GNUC_UNUSED void
test_gradcheck (gconstpointer data)
{
  const Case *c = data;
  GnnTensor *in[3] = { NULL, };

  for (guint i = 0; i < c->n_in; i++)
    in[i] = randn (c->shapes[i], c->ndims[i], c->offset[i]);
  gradcheck (c->build, in, c->n_in, 1e-5);
  free_inputs (in, c->n_in);
}

