/* bench-tensor-ops.c: the op rows of bench-tensor — cumsum, sort, topk,
 * gather, scatter_add, bmm, logsumexp and einsum — timed like the rest of
 * bench-tensor (see bench-util.h) and checked before timing, so a broken
 * kernel cannot post a fast time. bench/tensor.py times the same calls in
 * PyTorch (run_torch_op) at the same thread counts.
 *
 * Shapes (float32, fixed seed):
 *   cumsum       [1024, 4096] along dim 1
 *   sort         [1024, 1024] along dim 1 (values and indices)
 *   topk         k = 16 of [1024, 4096] along dim 1
 *   gather       [4096, 1024] by an int64 index [4096, 256] along dim 1
 *   scatter_add  src [4096, 256] into [4096, 1024] along dim 1 (out of place)
 *   bmm          [64, 128, 128] x [64, 128, 128]
 *   logsumexp    [4096, 1024] along dim 1
 *   einsum       'bhqd,bhkd->bhqk' on [8, 8, 128, 64] x [8, 8, 128, 64]
 * Throughput: elements of the input per second (Gelem/s), GFLOP/s for bmm
 * and einsum.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gnn/gnn.h>

#include "bench-util.h"
#include "bench-tensor-ops.h"

typedef struct
{
  GnnTensor *a;
  GnnTensor *b;
  GnnTensor *c;
} Args;

typedef GnnTensor *(*Op) (const Args *args, GError **error);

static GnnTensor *
op_cumsum (const Args *x, GError **error)
{
  return gnn_tensor_cumsum (x->a, 1, error);
}

static GnnTensor *
op_sort (const Args *x, GError **error)
{
  GnnTensor *indices = NULL;
  GnnTensor *values = gnn_tensor_sort (x->a, 1, FALSE, FALSE, &indices, error);

  g_clear_object (&indices);
  return values;
}

static GnnTensor *
op_topk (const Args *x, GError **error)
{
  GnnTensor *indices = NULL;
  GnnTensor *values = gnn_tensor_topk (x->a, 16, 1, TRUE, TRUE, &indices, error);

  g_clear_object (&indices);
  return values;
}

static GnnTensor *
op_gather (const Args *x, GError **error)
{
  return gnn_tensor_gather (x->a, 1, x->b, error);
}

static GnnTensor *
op_scatter_add (const Args *x, GError **error)
{
  return gnn_tensor_scatter_add (x->a, 1, x->b, x->c, error);
}

static GnnTensor *
op_bmm (const Args *x, GError **error)
{
  return gnn_tensor_bmm (x->a, x->b, error);
}

static GnnTensor *
op_logsumexp (const Args *x, GError **error)
{
  return gnn_tensor_logsumexp (x->a, (gint[]) { 1 }, 1, FALSE, error);
}

static GnnTensor *
op_einsum (const Args *x, GError **error)
{
  GnnTensor *operands[2] = { x->a, x->b };

  return gnn_tensor_einsum ("bhqd,bhkd->bhqk", operands, 2, error);
}

static GnnTensor *
uniform (GnnGenerator *gen,
         const gint64 *shape,
         guint         ndim)
{
  gsize n = 1;
  g_autofree float *v = NULL;

  for (guint d = 0; d < ndim; d++)
    n *= (gsize) shape[d];
  v = g_new (float, n);
  for (gsize i = 0; i < n; i++)
    v[i] = (float) (2.0 * gnn_generator_next_double (gen) - 1.0);
  return gnn_tensor_new_from_floats (v, n, shape, ndim, NULL);
}

static GnnTensor *
positions (GnnGenerator *gen,
           const gint64 *shape,
           gint64        below)
{
  gsize n = (gsize) (shape[0] * shape[1]);
  g_autofree gint64 *v = g_new (gint64, n);

  for (gsize i = 0; i < n; i++)
    v[i] = (gint64) gnn_generator_next_below (gen, (guint64) below);
  return gnn_tensor_new_from_int64s (v, n, shape, 2, NULL);
}

static gboolean
wrong (GError **error, const char *op, const char *what, double got, double want)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s gave a wrong result at %s: %g, expected %g", op, what, got, want);
  return FALSE;
}

#define AT2(t, i, j, cols) (((const float *) gnn_tensor_get_data (t))[(i) * (cols) + (j)])

/* Spot checks against double-precision references. */
static gboolean
check (const char *name, Op op, const Args *x, GError **error)
{
  g_autoptr(GnnTensor) r = op (x, error);

  if (r == NULL)
    return FALSE;
  if (g_str_equal (name, "cumsum"))
    {
      double s = 0;

      for (gint64 j = 0; j < 4096; j++)
        s += AT2 (x->a, 7, j, 4096);
      if (fabs (AT2 (r, 7, 4095, 4096) - s) > 1e-3)
        return wrong (error, name, "row 7", AT2 (r, 7, 4095, 4096), s);
    }
  else if (g_str_equal (name, "sort"))
    {
      for (gint64 j = 1; j < 1024; j++)
        if (AT2 (r, 3, j, 1024) < AT2 (r, 3, j - 1, 1024))
          return wrong (error, name, "row 3 order", AT2 (r, 3, j, 1024), AT2 (r, 3, j - 1, 1024));
    }
  else if (g_str_equal (name, "topk"))
    {
      float m = -INFINITY;

      for (gint64 j = 0; j < 4096; j++)
        m = MAX (m, AT2 (x->a, 5, j, 4096));
      if (AT2 (r, 5, 0, 16) != m)
        return wrong (error, name, "row 5 max", AT2 (r, 5, 0, 16), m);
    }
  else if (g_str_equal (name, "gather"))
    {
      const gint64 *idx = gnn_tensor_get_data (x->b);

      for (gint64 j = 0; j < 256; j++)
        if (AT2 (r, 9, j, 256) != AT2 (x->a, 9, idx[9 * 256 + j], 1024))
          return wrong (error, name, "row 9", AT2 (r, 9, j, 256), AT2 (x->a, 9, idx[9 * 256 + j], 1024));
    }
  else if (g_str_equal (name, "scatter_add"))
    {
      double got = 0, want = 0;

      for (gint64 j = 0; j < 1024; j++)
        got += AT2 (r, 11, j, 1024) - AT2 (x->a, 11, j, 1024);
      for (gint64 j = 0; j < 256; j++)
        want += AT2 (x->c, 11, j, 256);
      if (fabs (got - want) > 1e-3)
        return wrong (error, name, "row 11 total", got, want);
    }
  else if (g_str_equal (name, "bmm") || g_str_equal (name, "einsum"))
    {
      /* out[b][i][j] = sum_k a[b][i][k] * b[b][k][j] (bmm) or b[b][j][k] (einsum) */
      gboolean bmm = g_str_equal (name, "bmm");
      gint64 n = bmm ? 128 : 64, m = 128;
      const float *a = gnn_tensor_get_data (x->a), *b = gnn_tensor_get_data (x->b);
      const float *o = gnn_tensor_get_data (r);
      gint64 batch = 5, i = 17, j = 33;
      double want = 0;

      for (gint64 k = 0; k < n; k++)
        want += (double) a[(batch * m + i) * n + k] *
                (bmm ? b[(batch * n + k) * m + j] : b[(batch * m + j) * n + k]);
      if (fabs (o[(batch * m + i) * m + j] - want) > 1e-3)
        return wrong (error, name, "[5, 17, 33]", o[(batch * m + i) * m + j], want);
    }
  else if (g_str_equal (name, "logsumexp"))
    {
      double s = 0;

      for (gint64 j = 0; j < 1024; j++)
        s += exp (AT2 (x->a, 2, j, 1024));
      if (fabs (((const float *) gnn_tensor_get_data (r))[2] - log (s)) > 1e-4)
        return wrong (error, name, "row 2", ((const float *) gnn_tensor_get_data (r))[2], log (s));
    }
  return TRUE;
}

typedef struct
{
  Op          op;
  const Args *args;
} Call;

static gboolean
run_call (gpointer data, GError **error)
{
  const Call *call = data;
  GnnTensor *out = call->op (call->args, error);

  if (out == NULL)
    return FALSE;
  g_object_unref (out);
  return TRUE;
}

gboolean
bench_tensor_op_known (const char *name)
{
  static const char *const known[] = { "cumsum", "sort", "topk", "gather", "scatter_add",
                                       "bmm", "logsumexp", "einsum" };

  for (gsize i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_str_equal (name, known[i]))
      return TRUE;
  return FALSE;
}

gboolean
bench_tensor_op (const char   *name,
                 guint         reps,
                 double        min_time,
                 GnnGenerator *gen,
                 GError      **error)
{
  Args x = { NULL, NULL, NULL };
  const char *label = NULL, *unit = "Gelem/s";
  double work = 0;
  Op op = NULL;
  BenchTiming t;
  gboolean ok;
  const BenchFunc run = run_call;
  Call call;

  if (g_str_equal (name, "cumsum"))
    {
      x.a = uniform (gen, (gint64[]) { 1024, 4096 }, 2);
      op = op_cumsum, label = "1024x4096", work = 1024.0 * 4096;
    }
  else if (g_str_equal (name, "sort"))
    {
      x.a = uniform (gen, (gint64[]) { 1024, 1024 }, 2);
      op = op_sort, label = "1024x1024", work = 1024.0 * 1024;
    }
  else if (g_str_equal (name, "topk"))
    {
      x.a = uniform (gen, (gint64[]) { 1024, 4096 }, 2);
      op = op_topk, label = "1024x4096,k16", work = 1024.0 * 4096;
    }
  else if (g_str_equal (name, "gather"))
    {
      x.a = uniform (gen, (gint64[]) { 4096, 1024 }, 2);
      x.b = positions (gen, (gint64[]) { 4096, 256 }, 1024);
      op = op_gather, label = "4096x1024,256", work = 4096.0 * 256;
    }
  else if (g_str_equal (name, "scatter_add"))
    {
      x.a = uniform (gen, (gint64[]) { 4096, 1024 }, 2);
      x.b = positions (gen, (gint64[]) { 4096, 256 }, 1024);
      x.c = uniform (gen, (gint64[]) { 4096, 256 }, 2);
      op = op_scatter_add, label = "4096x1024,256", work = 4096.0 * 1024;
    }
  else if (g_str_equal (name, "bmm"))
    {
      x.a = uniform (gen, (gint64[]) { 64, 128, 128 }, 3);
      x.b = uniform (gen, (gint64[]) { 64, 128, 128 }, 3);
      op = op_bmm, label = "64x128x128", unit = "GFLOP/s", work = 2.0 * 64 * 128 * 128 * 128;
    }
  else if (g_str_equal (name, "logsumexp"))
    {
      x.a = uniform (gen, (gint64[]) { 4096, 1024 }, 2);
      op = op_logsumexp, label = "4096x1024", work = 4096.0 * 1024;
    }
  else if (g_str_equal (name, "einsum"))
    {
      x.a = uniform (gen, (gint64[]) { 8, 8, 128, 64 }, 4);
      x.b = uniform (gen, (gint64[]) { 8, 8, 128, 64 }, 4);
      op = op_einsum, label = "bhqd,bhkd", unit = "GFLOP/s", work = 2.0 * 64 * 128 * 128 * 64;
    }
  g_return_val_if_fail (op != NULL, FALSE);

  call = (Call) { op, &x };
  ok = check (name, op, &x, error) &&
       bench_measure_n (&run, 1, &call, reps, min_time, 100000, &t, error);
  if (ok)
    {
      printf ("{\"type\": \"result\", \"op\": \"%s\", \"size\": 0, \"size_label\": \"%s\", "
              "\"unit\": \"%s\", \"threads\": %u, \"best\": %.6g, \"median\": %.6g",
              name, label, unit, gnn_get_num_threads (), work / t.best / 1e9,
              work / t.median / 1e9);
      bench_print_timing_end (&t);
    }
  g_clear_object (&x.a);
  g_clear_object (&x.b);
  g_clear_object (&x.c);
  return ok;
}
