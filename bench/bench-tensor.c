/* bench-tensor.c: times Gnn's sgemm and elementwise kernels, and the op
 * rows of bench-tensor-ops.c (cumsum, sort, topk, gather, scatter_add, bmm,
 * logsumexp, einsum)
 *
 * The C half of bench/tensor.py, which runs this program, measures the same
 * operations in PyTorch and prints the comparison. This driver prints one
 * JSON object per line on stdout:
 *
 *   {"type": "info", "openblas_threads": 2, ...}
 *   {"type": "result", "op": "sgemm", "n": 1024, "unit": "GFLOP/s", ...}
 *
 * Every timed call includes allocating (and freeing) its result tensor,
 * because the PyTorch calls it is compared with (torch.mm, torch.add,
 * torch.relu) allocate theirs too.
 *
 * The method, mirrored line for line in tensor.py:
 *   1. one untimed call (first-touch, lazy BLAS thread start-up);
 *   2. calibration: time one call, choose `inner` calls per repetition so
 *      one repetition lasts at least --min-time seconds (timer resolution
 *      and loop overhead become negligible for the small sizes);
 *   3. one untimed warm-up repetition, then --reps timed repetitions;
 *   4. report the best and the median seconds per call.
 * Results are checked against a scalar reference, so a broken kernel cannot
 * post a fast time.
 *
 * add_ and relu_ (in place) are extra, informational rows: the same kernels
 * without allocating and first-touching a 64 MiB result.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cblas.h>
#include <gnn/gnn.h>

#include "bench-util.h"
#include "bench-tensor-ops.h"

typedef struct
{
  GnnTensor *a;
  GnnTensor *b;
} Operands;

/* One benchmarked operation: returns the new result tensor or NULL + error. */
typedef GnnTensor *(*OpFunc) (const Operands *ops, GError **error);

static GnnTensor *
op_sgemm (const Operands *ops, GError **error)
{
  return gnn_tensor_matmul (ops->a, ops->b, error);
}

static GnnTensor *
op_add (const Operands *ops, GError **error)
{
  return gnn_tensor_add (ops->a, ops->b, error);
}

static GnnTensor *
op_relu (const Operands *ops, GError **error)
{
  return gnn_tensor_relu (ops->a, error);
}

/* The in-place variants time the kernels alone, without allocating and
 * first-touching a result: their difference from add/relu shows how much of
 * those is the allocator and page faults. The returned reference only keeps
 * the OpFunc contract (the caller unrefs it). */
static GnnTensor *
op_add_inplace (const Operands *ops, GError **error)
{
  return gnn_tensor_add_ (ops->a, ops->b, error) ? g_object_ref (ops->a) : NULL;
}

static GnnTensor *
op_relu_inplace (const Operands *ops, GError **error)
{
  return gnn_tensor_relu_ (ops->a, error) ? g_object_ref (ops->a) : NULL;
}

/* Reductions (CPU-dispatched like the elementwise kernels): a whole-tensor
 * sum, and softmax over the last dim of rows of 1024. */
#define SOFTMAX_ROW 1024

static GnnTensor *
op_sum (const Operands *ops, GError **error)
{
  return gnn_tensor_sum (ops->a, NULL, 0, FALSE, error);
}

static GnnTensor *
op_softmax (const Operands *ops, GError **error)
{
  return gnn_tensor_softmax (ops->b, 1, error);
}

/* The GEMMs of one training step of the MLP 784-256-128-10 (bench/train.py)
 * at a batch size: per layer y = x·Wᵀ, dW = dyᵀ·x, and dx = dy·W except
 * for the first layer (its input needs no gradient). Their time at the
 * BLAS's speed on these shapes is the floor of the training step. */
static const gint64 mlp_layers[] = { 784, 256, 128, 10 };
#define MLP_N_LAYERS 3

typedef struct
{
  GnnTensor *x[MLP_N_LAYERS];    /* layer inputs [batch, in] */
  GnnTensor *w[MLP_N_LAYERS];    /* weights [out, in] */
  GnnTensor *wt[MLP_N_LAYERS];   /* their transposed views */
  GnnTensor *dy[MLP_N_LAYERS];   /* output gradients [batch, out] */
  GnnTensor *dyt[MLP_N_LAYERS];
} MlpOperands;

static MlpOperands mlp;

static GnnTensor *
op_mlp_gemms (const Operands *ops, GError **error)
{
  GnnTensor *last = NULL;

  for (guint l = 0; l < MLP_N_LAYERS; l++)
    {
      GnnTensor *r[3] = {
        gnn_tensor_matmul (mlp.x[l], mlp.wt[l], error),
        gnn_tensor_matmul (mlp.dyt[l], mlp.x[l], error),
        l > 0 ? gnn_tensor_matmul (mlp.dy[l], mlp.w[l], error) : NULL,
      };

      for (guint k = 0; k < 3; k++)
        {
          if (r[k] == NULL && (k < 2 || l > 0))
            {
              g_clear_object (&last);
              return NULL;
            }
          if (r[k] != NULL)
            {
              g_clear_object (&last);
              last = r[k];
            }
        }
    }
  return last;
}

typedef BenchTiming Timing;

typedef struct
{
  OpFunc          func;
  const Operands *ops;
} OpCall;

/* One call, its result freed at once. */
static gboolean
run_op (gpointer data, GError **error)
{
  const OpCall *call = data;
  GnnTensor *out = call->func (call->ops, error);

  if (out == NULL)
    return FALSE;
  g_object_unref (out);
  return TRUE;
}

static gboolean
measure (OpFunc          func,
         const Operands *ops,
         guint           reps,
         double          min_time,
         Timing         *timing,
         GError        **error)
{
  const BenchFunc run = run_op;
  OpCall call = { func, ops };

  return bench_measure_n (&run, 1, &call, reps, min_time, 100000, timing, error);
}

/* A float32 tensor of uniform(-1, 1) values: half negative, so relu has work. */
static GnnTensor *
random_tensor (GnnGenerator *gen,
               const gint64 *shape,
               guint         ndim,
               GError      **error)
{
  gsize n = 1;
  g_autofree float *values = NULL;

  for (guint d = 0; d < ndim; d++)
    n *= (gsize) shape[d];
  values = g_new (float, n);
  for (gsize i = 0; i < n; i++)
    values[i] = (float) (2.0 * gnn_generator_next_double (gen) - 1.0);
  return gnn_tensor_new_from_floats (values, n, shape, ndim, error);
}

static gboolean
fail_check (GError **error, const char *op, const char *what, double got, double want)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s gave a wrong result at %s: %g, expected %g", op, what, got, want);
  return FALSE;
}

/* Spot-checks C = A·B at a few entries against a double-precision dot product. */
static gboolean
check_sgemm (const Operands *ops, gint64 n, GnnGenerator *gen, GError **error)
{
  g_autoptr (GnnTensor) c = gnn_tensor_matmul (ops->a, ops->b, error);
  const float *a, *b, *cv;

  if (c == NULL)
    return FALSE;
  if (gnn_tensor_get_ndim (c) != 2 || gnn_tensor_get_numel (c) != n * n ||
      gnn_tensor_get_dtype (c) != GNN_DTYPE_F32 || !gnn_tensor_is_contiguous (c))
    return fail_check (error, "sgemm", "shape/dtype/layout", (double) gnn_tensor_get_numel (c),
                       (double) (n * n));
  a = gnn_tensor_get_data (ops->a);
  b = gnn_tensor_get_data (ops->b);
  cv = gnn_tensor_get_data (c);
  for (int k = 0; k < 16; k++)
    {
      gint64 i = (gint64) gnn_generator_next_below (gen, (guint64) n);
      gint64 j = (gint64) gnn_generator_next_below (gen, (guint64) n);
      double want = 0.0, scale = 0.0;

      for (gint64 l = 0; l < n; l++)
        {
          want += (double) a[i * n + l] * b[l * n + j];
          scale += fabs ((double) a[i * n + l] * b[l * n + j]);
        }
      /* float32 accumulation error grows with the sum of |terms|. */
      if (fabs (cv[i * n + j] - want) > 1e-5 * scale + 1e-6)
        {
          g_autofree char *where = g_strdup_printf ("[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", i, j);
          return fail_check (error, "sgemm", where, cv[i * n + j], want);
        }
    }
  return TRUE;
}

/* Checks every element of add / relu (or add_ / relu_ on fresh clones):
 * cheap next to the timed runs. */
static gboolean
check_elementwise (const Operands *ops, gboolean is_add, gboolean inplace, GError **error)
{
  const char *name = is_add ? (inplace ? "add_" : "add") : (inplace ? "relu_" : "relu");
  g_autoptr (GnnTensor) c = NULL;
  gint64 n = gnn_tensor_get_numel (ops->a);
  const float *a, *b, *cv;

  if (inplace)
    {
      c = gnn_tensor_clone (ops->a);
      if (!(is_add ? gnn_tensor_add_ (c, ops->b, error) : gnn_tensor_relu_ (c, error)))
        return FALSE;
    }
  else
    {
      c = is_add ? gnn_tensor_add (ops->a, ops->b, error) : gnn_tensor_relu (ops->a, error);
      if (c == NULL)
        return FALSE;
    }
  if (gnn_tensor_get_numel (c) != n || gnn_tensor_get_dtype (c) != GNN_DTYPE_F32 ||
      !gnn_tensor_is_contiguous (c))
    return fail_check (error, name, "shape/dtype/layout", (double) gnn_tensor_get_numel (c),
                       (double) n);
  a = gnn_tensor_get_data (ops->a);
  b = is_add ? gnn_tensor_get_data (ops->b) : NULL;
  cv = gnn_tensor_get_data (c);
  for (gint64 i = 0; i < n; i++)
    {
      float want = is_add ? a[i] + b[i] : (a[i] > 0.0f ? a[i] : 0.0f);

      if (cv[i] != want)
        {
          g_autofree char *where = g_strdup_printf ("[%" G_GINT64_FORMAT "]", i);
          return fail_check (error, name, where, cv[i], want);
        }
    }
  return TRUE;
}

static void
print_result (const char   *op,
              gint64        size,
              const char   *size_label,
              const char   *unit,
              double        work,
              const Timing *t)
{
  /* work / seconds is the throughput: flops for sgemm, bytes for the rest. */
  printf ("{\"type\": \"result\", \"op\": \"%s\", \"size\": %" G_GINT64_FORMAT
          ", \"size_label\": \"%s\", \"unit\": \"%s\", \"best\": %.6g, \"median\": %.6g",
          op, size, size_label, unit, work / t->best / 1e9, work / t->median / 1e9);
  bench_print_timing_end (t);
}

static gboolean
bench_sgemm (gint64 n, guint reps, double min_time, GnnGenerator *gen, GError **error)
{
  const gint64 shape[2] = { n, n };
  g_autoptr (GnnTensor) a = random_tensor (gen, shape, 2, error);
  g_autoptr (GnnTensor) b = a ? random_tensor (gen, shape, 2, error) : NULL;
  g_autofree char *label = g_strdup_printf ("%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT, n, n);
  Operands ops = { a, b };
  Timing t;

  if (b == NULL || !measure (op_sgemm, &ops, reps, min_time, &t, error) ||
      !check_sgemm (&ops, n, gen, error))
    return FALSE;
  print_result ("sgemm", n, label, "GFLOP/s", 2.0 * (double) n * n * n, &t);
  return TRUE;
}

static gboolean
bench_elementwise (gboolean is_add, gboolean inplace, gint64 n, guint reps, double min_time,
                   GnnGenerator *gen, GError **error)
{
  g_autoptr (GnnTensor) a = random_tensor (gen, &n, 1, error);
  g_autoptr (GnnTensor) b = (a && is_add) ? random_tensor (gen, &n, 1, error) : NULL;
  g_autofree char *label = n % (1 << 20) == 0 ? g_strdup_printf ("%" G_GINT64_FORMAT "M", n >> 20)
                                              : g_strdup_printf ("%" G_GINT64_FORMAT, n);
  Operands ops = { a, b };
  OpFunc func = is_add ? (inplace ? op_add_inplace : op_add) : (inplace ? op_relu_inplace : op_relu);
  /* Bytes moved per element: add reads two floats and writes one, relu one and one. */
  double bytes = (double) n * (is_add ? 3 : 2) * sizeof (float);
  Timing t;

  if (a == NULL || (is_add && b == NULL))
    return FALSE;
  /* Check before timing: add_ keeps accumulating into a, relu_ leaves no negatives. */
  if (!check_elementwise (&ops, is_add, inplace, error) ||
      !measure (func, &ops, reps, min_time, &t, error))
    return FALSE;
  print_result (is_add ? (inplace ? "add_" : "add") : (inplace ? "relu_" : "relu"),
                n, label, "GB/s", bytes, &t);
  return TRUE;
}

/* Checks the sum against a double-precision sum, and that softmax rows
 * are positive and add up to 1. */
static gboolean
check_reduction (const Operands *ops, gboolean is_sum, GError **error)
{
  g_autoptr (GnnTensor) r = is_sum ? op_sum (ops, error) : op_softmax (ops, error);
  const float *x = gnn_tensor_get_data (ops->a);
  gint64 n = gnn_tensor_get_numel (ops->a);

  if (r == NULL)
    return FALSE;
  if (is_sum)
    {
      double want = 0;

      for (gint64 i = 0; i < n; i++)
        want += x[i];
      if (fabs (gnn_tensor_item (r, NULL) - want) > 1e-4 * n)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "sum: %g, expected %g",
                       gnn_tensor_item (r, NULL), want);
          return FALSE;
        }
      return TRUE;
    }
  {
    const float *y = gnn_tensor_get_data (r);

    for (gint64 row = 0; row < n / SOFTMAX_ROW; row += 997)
      {
        double total = 0;

        for (gint64 k = 0; k < SOFTMAX_ROW; k++)
          total += y[row * SOFTMAX_ROW + k];
        if (fabs (total - 1.0) > 1e-4)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "softmax row %" G_GINT64_FORMAT
                         " adds up to %g", row, total);
            return FALSE;
          }
      }
  }
  return TRUE;
}

static gboolean
bench_reduction (gboolean is_sum, gint64 n, guint reps, double min_time,
                 GnnGenerator *gen, GError **error)
{
  g_autoptr (GnnTensor) a = NULL;
  g_autoptr (GnnTensor) rows = NULL;
  g_autofree char *label = NULL;
  Operands ops;
  Timing t;

  n = MAX (n / SOFTMAX_ROW, 1) * SOFTMAX_ROW;
  label = n % (1 << 20) == 0 ? g_strdup_printf ("%" G_GINT64_FORMAT "M", n >> 20)
                             : g_strdup_printf ("%" G_GINT64_FORMAT, n);
  a = random_tensor (gen, &n, 1, error);
  rows = a ? gnn_tensor_view (a, (gint64[]) { n / SOFTMAX_ROW, SOFTMAX_ROW }, 2, error) : NULL;
  ops = (Operands) { a, rows };
  if (rows == NULL || !check_reduction (&ops, is_sum, error) ||
      !measure (is_sum ? op_sum : op_softmax, &ops, reps, min_time, &t, error))
    return FALSE;
  /* Bytes moved per element: sum reads a float, softmax reads and writes one. */
  print_result (is_sum ? "sum" : "softmax", n, label, "GB/s",
                (double) n * (is_sum ? 1 : 2) * sizeof (float), &t);
  return TRUE;
}

static gboolean
bench_mlp_gemms (gint64 batch, guint reps, double min_time, GnnGenerator *gen, GError **error)
{
  g_autofree char *label = g_strdup_printf ("784-256-128-10@%" G_GINT64_FORMAT, batch);
  double flops = 0;
  gboolean ok = TRUE;
  Timing t;

  for (guint l = 0; ok && l < MLP_N_LAYERS; l++)
    {
      gint64 in = mlp_layers[l], out = mlp_layers[l + 1];

      mlp.x[l] = random_tensor (gen, (gint64[]) { batch, in }, 2, error);
      mlp.w[l] = mlp.x[l] ? random_tensor (gen, (gint64[]) { out, in }, 2, error) : NULL;
      mlp.dy[l] = mlp.w[l] ? random_tensor (gen, (gint64[]) { batch, out }, 2, error) : NULL;
      ok = mlp.dy[l] != NULL;
      if (ok)
        {
          mlp.wt[l] = gnn_tensor_transpose (mlp.w[l], 0, 1, NULL);
          mlp.dyt[l] = gnn_tensor_transpose (mlp.dy[l], 0, 1, NULL);
          flops += 2.0 * batch * in * out * (l > 0 ? 3 : 2);
        }
    }
  ok = ok && measure (op_mlp_gemms, &(Operands) { NULL, NULL }, reps, min_time, &t, error);
  if (ok)
    print_result ("mlp", batch, label, "GFLOP/s", flops, &t);
  for (guint l = 0; l < MLP_N_LAYERS; l++)
    {
      g_clear_object (&mlp.x[l]);
      g_clear_object (&mlp.w[l]);
      g_clear_object (&mlp.wt[l]);
      g_clear_object (&mlp.dy[l]);
      g_clear_object (&mlp.dyt[l]);
    }
  return ok;
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnGenerator) gen = NULL;
  g_autofree char *ops_arg = NULL;
  g_autofree char *sizes_arg = NULL;
  g_auto (GStrv) ops_list = NULL;
  g_auto (GStrv) sizes_list = NULL;
  g_autofree char *core = NULL;
  g_autofree char *config = NULL;
  gint64 elems = 16 << 20;
  gint64 mlp_batch = 64;
  gint reps = 5;
  gint threads = 0;
  double min_time = 0.2;
  gboolean smoke = FALSE;
  GOptionEntry entries[] = {
    { "ops", 0, 0, G_OPTION_ARG_STRING, &ops_arg, "Comma-separated operations (default sgemm,add,relu,add_,relu_,sum,softmax and the op rows cumsum,sort,topk,gather,scatter_add,bmm,logsumexp,einsum)", "OPS" },
    { "sgemm-sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_arg, "Comma-separated square sgemm sizes (default 256,1024,2048)", "N,..." },
    { "elems", 0, 0, G_OPTION_ARG_INT64, &elems, "Elements for add and relu (default 16777216)", "N" },
    { "mlp-batch", 0, 0, G_OPTION_ARG_INT64, &mlp_batch, "Batch size of the mlp GEMMs (default 64)", "N" },
    { "reps", 0, 0, G_OPTION_ARG_INT, &reps, "Timed repetitions (default 5)", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Threads for Gnn's loops and OpenBLAS (default: as configured)", "N" },
    { "min-time", 0, 0, G_OPTION_ARG_DOUBLE, &min_time, "Minimum seconds per repetition (default 0.2)", "SECONDS" },
    { "smoke", 0, 0, G_OPTION_ARG_NONE, &smoke, "Tiny sizes, one repetition: checks the driver still works (meson test)", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("- time Gnn tensor kernels (run through bench/tensor.py)");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-tensor: %s\n", error->message);
      return 1;
    }
  if (smoke)
    {
      g_free (sizes_arg);
      sizes_arg = g_strdup ("64");
      elems = 4096;
      reps = 1;
      min_time = 0.0;
    }
  if (reps < 1 || elems < 1 || min_time < 0.0)
    {
      g_printerr ("bench-tensor: --reps and --elems must be positive, --min-time not negative\n");
      return 1;
    }
  ops_list = g_strsplit (ops_arg ? ops_arg : "sgemm,add,relu,add_,relu_,sum,softmax,cumsum,sort,"
                                             "topk,gather,scatter_add,bmm,logsumexp,einsum", ",", -1);
  if (threads > 0)
    {
      openblas_set_num_threads (threads);
      if (!gnn_set_num_threads (threads, &error))
        {
          g_printerr ("bench-tensor: %s\n", error->message);
          return 1;
        }
    }
  sizes_list = g_strsplit (sizes_arg ? sizes_arg : "256,1024,2048", ",", -1);

  /* g_strescape's escapes are valid JSON for the plain ASCII OpenBLAS returns. */
  core = g_strescape (openblas_get_corename (), NULL);
  config = g_strescape (openblas_get_config (), NULL);
  printf ("{\"type\": \"info\", \"gnn_version\": \"%s\", \"openblas_threads\": %d"
          ", \"openblas_procs\": %d, \"openblas_core\": \"%s\", \"openblas_config\": \"%s\""
          ", \"threads\": %u}\n",
          GNN_VERSION_S, openblas_get_num_threads (), openblas_get_num_procs (), core, config,
          gnn_get_num_threads ());
  fflush (stdout);

  /* Fixed seed: both runs of the benchmark see the same inputs. */
  gen = gnn_generator_new (1234);
  for (guint i = 0; ops_list[i] != NULL; i++)
    {
      const char *op = ops_list[i];
      gboolean ok;

      if (g_str_equal (op, "sgemm"))
        {
          ok = TRUE;
          for (guint s = 0; ok && sizes_list[s] != NULL; s++)
            {
              gint64 n = g_ascii_strtoll (sizes_list[s], NULL, 10);

              if (n < 1)
                {
                  g_printerr ("bench-tensor: bad sgemm size '%s'\n", sizes_list[s]);
                  return 1;
                }
              ok = bench_sgemm (n, (guint) reps, min_time, gen, &error);
            }
        }
      else if (g_str_equal (op, "add") || g_str_equal (op, "relu") ||
               g_str_equal (op, "add_") || g_str_equal (op, "relu_"))
        ok = bench_elementwise (g_str_has_prefix (op, "add"), g_str_has_suffix (op, "_"),
                                elems, (guint) reps, min_time, gen, &error);
      else if (g_str_equal (op, "mlp"))
        ok = bench_mlp_gemms (mlp_batch, (guint) reps, min_time, gen, &error);
      else if (g_str_equal (op, "sum") || g_str_equal (op, "softmax"))
        ok = bench_reduction (g_str_equal (op, "sum"), elems, (guint) reps, min_time, gen, &error);
      else if (bench_tensor_op_known (op))
        ok = bench_tensor_op (op, (guint) reps, min_time, gen, &error);
      else
        {
          g_printerr ("bench-tensor: unknown operation '%s' (known: sgemm, add, relu, add_, relu_, "
                      "sum, softmax, cumsum, sort, topk, gather, scatter_add, bmm, logsumexp, "
                      "einsum)\n", op);
          return 1;
        }
      if (!ok)
        {
          g_printerr ("bench-tensor: %s: %s\n", op, error->message);
          return 1;
        }
    }
  return 0;
}
