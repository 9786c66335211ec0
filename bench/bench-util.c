/* bench-util.c: timing helpers shared by the benchmark drivers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double
bench_now_seconds (void)
{
  struct timespec ts;

  /* g_get_monotonic_time() only has microsecond resolution. */
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

int
bench_compare_doubles (const void *pa, const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;

  return (a > b) - (a < b);
}

/* Seconds for `inner` back-to-back calls. */
static gboolean
time_calls (BenchFunc func,
            gpointer  data,
            guint     inner,
            double   *seconds,
            GError  **error)
{
  double start = bench_now_seconds ();

  for (guint i = 0; i < inner; i++)
    if (!func (data, error))
      return FALSE;
  *seconds = bench_now_seconds () - start;
  return TRUE;
}

/* Sorts @per_call and fills @timing from it. */
static void
summarize (double      *per_call,
           guint        reps,
           guint        inner,
           BenchTiming *timing)
{
  qsort (per_call, reps, sizeof (double), bench_compare_doubles);
  timing->best = per_call[0];
  timing->median = reps % 2 ? per_call[reps / 2]
                            : 0.5 * (per_call[reps / 2 - 1] + per_call[reps / 2]);
  timing->inner = inner;
  timing->reps = reps;
}

gboolean
bench_measure_n (const BenchFunc *funcs,
                 guint            n_funcs,
                 gpointer         data,
                 guint            reps,
                 double           min_time,
                 guint            max_inner,
                 BenchTiming     *timings,
                 GError         **error)
{
  g_autofree double *per_call = g_new (double, (gsize) reps * n_funcs);
  double once, unused;
  guint inner;

  for (guint f = 0; f < n_funcs; f++)
    if (!time_calls (funcs[f], data, 1, &unused, error))
      return FALSE;
  if (!time_calls (funcs[0], data, 1, &once, error))
    return FALSE;
  inner = once >= min_time ? 1 : (guint) ceil (min_time / MAX (once, 1e-9));
  inner = CLAMP (inner, 1, max_inner);
  for (guint f = 0; f < n_funcs; f++)
    if (!time_calls (funcs[f], data, inner, &unused, error))
      return FALSE;
  for (guint r = 0; r < reps; r++)
    for (guint f = 0; f < n_funcs; f++)
      {
        double t;

        if (!time_calls (funcs[f], data, inner, &t, error))
          return FALSE;
        per_call[f * reps + r] = t / inner;
      }
  for (guint f = 0; f < n_funcs; f++)
    summarize (per_call + f * reps, reps, inner, &timings[f]);
  return TRUE;
}

void
bench_print_timing_end (const BenchTiming *t)
{
  printf (", \"best_seconds\": %.6g, \"median_seconds\": %.6g, \"inner\": %u, \"reps\": %u}\n",
          t->best, t->median, t->inner, t->reps);
  fflush (stdout);
}

GnnModule *
bench_build_linear_chain (guint     n,
                          gint64    in,
                          gint64    out,
                          GnnDevice device)
{
  GnnDevice previous = gnn_set_default_device (device);
  g_autofree GnnModule **layers = g_new (GnnModule *, n);
  GnnModule *model;

  for (guint i = 0; i < n; i++)
    layers[i] = GNN_MODULE (gnn_linear_new (in, out, TRUE, NULL, NULL));
  model = GNN_MODULE (gnn_sequential_new (layers, n));
  for (guint i = 0; i < n; i++)
    g_object_unref (layers[i]);
  gnn_set_default_device (previous);
  return model;
}

GnnModule *
bench_filled_linear_chain (guint     n,
                           gint64    in,
                           gint64    out,
                           GError  **error)
{
  g_autoptr(GnnModule) model = bench_build_linear_chain (n, in, out, GNN_DEVICE_META);
  g_autoptr(GPtrArray) params = NULL;

  if (!gnn_module_to_empty (model, error))
    return NULL;
  params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  gnn_no_grad_push ();   /* parameters are leaves that require grad */
  for (guint i = 0; i < params->len; i++)
    gnn_tensor_fill_ (g_ptr_array_index (params, i), (double) i, NULL);
  gnn_no_grad_pop ();
  return g_steal_pointer (&model);
}

guint64
bench_touch_pages (GnnModule *model)
{
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  guint64 sum = 0;

  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *t = g_ptr_array_index (params, i);
      const volatile guint8 *p = gnn_tensor_get_data (t);
      gsize n = gnn_tensor_get_nbytes (t);

      for (gsize j = 0; j < n; j += 4096)
        sum += p[j];
    }
  return sum;
}

gboolean
bench_backward_step (GnnTensor    *loss,
                     GnnOptimizer *optimizer,
                     gint64        batch,
                     double       *loss_out,
                     GError      **error)
{
  if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error) || !gnn_optimizer_step (optimizer, error))
    return FALSE;
  *loss_out = gnn_tensor_item (loss, NULL);
  if (!isfinite (*loss_out))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "loss %g at batch %" G_GINT64_FORMAT,
                   *loss_out, batch);
      return FALSE;
    }
  return TRUE;
}
