/* bench-util.h: timing helpers shared by the benchmark drivers
 *
 * The method, mirrored line for line in benchlib.py and module.py:
 *   1. one untimed call of each function, then one timed call of the first
 *      to calibrate `inner`, the number of calls that make a repetition last
 *      at least min_time seconds (capped at max_inner);
 *   2. one untimed warm-up repetition of each, then `reps` timed repetitions
 *      (the functions' repetitions interleaved: a, b, a, b, ...);
 *   3. the best and the median seconds per call of each.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

/* One benchmarked operation on @data: FALSE + @error on failure. */
typedef gboolean (*BenchFunc) (gpointer data, GError **error);

typedef struct
{
  double best;    /* seconds per call */
  double median;  /* seconds per call */
  guint inner;
  guint reps;
} BenchTiming;

/* Monotonic seconds with nanosecond resolution. */
double   bench_now_seconds     (void);

/* qsort() comparator for doubles, ascending. */
int      bench_compare_doubles (const void *pa,
                                const void *pb);

/* Times @n_funcs functions on @data, each into @timings[i]; see above. */
gboolean bench_measure_n       (const BenchFunc *funcs,
                                guint            n_funcs,
                                gpointer         data,
                                guint            reps,
                                double           min_time,
                                guint            max_inner,
                                BenchTiming     *timings,
                                GError         **error);

/* Prints `, "best_seconds": …, "median_seconds": …, "inner": …, "reps": …}`,
 * a newline, and flushes stdout: the end of a driver's JSON result line. */
void     bench_print_timing_end (const BenchTiming *t);

/* Sequential(n × Linear(in, out)) built on @device (GNN_DEVICE_META: no
 * memory, no initialization), the model the loading benchmarks use. */
GnnModule *bench_build_linear_chain (guint     n,
                                     gint64    in,
                                     gint64    out,
                                     GnnDevice device);

/* That chain with memory whose values differ per layer (parameter i filled
 * with i), without 1 GiB of random draws; NULL with @error. */
GnnModule *bench_filled_linear_chain (guint     n,
                                      gint64    in,
                                      gint64    out,
                                      GError  **error);

/* Reads one byte of every 4 KiB page of every parameter (faults a mapped
 * model in); returns their sum so the reads cannot be optimized away. */
guint64    bench_touch_pages        (GnnModule *model);

/* The end of a training step: backward of @loss, one step of @optimizer,
 * the loss value into @loss_out; FALSE + @error on failure or a loss that
 * is not finite (at batch @batch). */
gboolean   bench_backward_step      (GnnTensor    *loss,
                                     GnnOptimizer *optimizer,
                                     gint64        batch,
                                     double       *loss_out,
                                     GError      **error);
