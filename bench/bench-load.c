/* bench-load: builds and loads a model from a safetensors file (driven by
 * bench/load.py).
 *
 *   bench-load save FILE N IN OUT        write Sequential(N × Linear(IN, OUT))
 *   bench-load load FILE N IN OUT [REP]  time the ways to build + load it
 *   bench-load --smoke                   tiny round trip that checks values
 *
 * Output: one "key=value" per line (seconds, best of REP), read by load.py:
 * "meta_assign"   construction under GNN_DEVICE_META + gnn_module_load_with_flags
 *                 (ASSIGN): no allocation, no initialization, zero copy (the
 *                 parameters are the mapped file; pages are read on first use);
 * "meta_assign_touch"  the same + reading one byte of every 4 KiB page of every
 *                 parameter (the pages faulted in from the warm page cache);
 * "meta_only"     the construction alone;
 * "default"       normal construction (allocation + random initialization)
 *                 + gnn_module_load (copy), the path without the new flags.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gnn/gnn.h>

#include "bench-util.h"

static int
fail (GError *error)
{
  g_printerr ("bench-load: %s\n", error->message);
  return 1;
}

static int
do_save (const char *path, guint n, gint64 in, gint64 out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = bench_filled_linear_chain (n, in, out, &error);

  if (model == NULL || !gnn_module_save (model, path, NULL, &error))
    return fail (error);
  return 0;
}

static int
do_load (const char *path, guint n, gint64 in, gint64 out, guint repeat)
{
  double best_assign = G_MAXDOUBLE, best_touch = G_MAXDOUBLE, best_meta = G_MAXDOUBLE;
  double best_default = G_MAXDOUBLE;
  guint64 sink = 0;

  for (guint r = 0; r < repeat; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) a = NULL;
      g_autoptr(GnnModule) b = NULL;
      g_autoptr(GnnModule) c = NULL;
      g_autoptr(GnnModule) d = NULL;
      double t0;

      t0 = bench_now_seconds ();
      a = bench_build_linear_chain (n, in, out, GNN_DEVICE_META);
      best_meta = MIN (best_meta, bench_now_seconds () - t0);
      g_clear_object (&a);

      t0 = bench_now_seconds ();
      b = bench_build_linear_chain (n, in, out, GNN_DEVICE_META);
      if (!gnn_module_load_with_flags (b, path, GNN_LOAD_FLAGS_ASSIGN, &error))
        return fail (error);
      best_assign = MIN (best_assign, bench_now_seconds () - t0);
      g_clear_object (&b);      /* unmapped: the next load maps afresh */

      t0 = bench_now_seconds ();
      c = bench_build_linear_chain (n, in, out, GNN_DEVICE_META);
      if (!gnn_module_load_with_flags (c, path, GNN_LOAD_FLAGS_ASSIGN, &error))
        return fail (error);
      sink += bench_touch_pages (c);
      best_touch = MIN (best_touch, bench_now_seconds () - t0);
      g_clear_object (&c);

      if (r < 2)   /* seconds per run: two are enough */
        {
          t0 = bench_now_seconds ();
          d = bench_build_linear_chain (n, in, out, GNN_DEVICE_CPU);
          if (!gnn_module_load (d, path, &error))
            return fail (error);
          best_default = MIN (best_default, bench_now_seconds () - t0);
        }
    }
  g_print ("meta_assign=%.6f\nmeta_assign_touch=%.6f\nmeta_only=%.6f\ndefault=%.6f\n"
           "sink=%" G_GUINT64_FORMAT "\n",
           best_assign, best_touch, best_meta, best_default, sink);
  return 0;
}

static int
smoke (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bench-load-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "smoke.safetensors", NULL);
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GError) error = NULL;
  GnnTensor *bias;

  if (do_save (path, 3, 8, 4) != 0)
    return 1;
  model = bench_build_linear_chain (3, 8, 4, GNN_DEVICE_META);
  if (!gnn_module_load_with_flags (model, path, GNN_LOAD_FLAGS_ASSIGN, &error))
    return fail (error);
  bias = GNN_TENSOR (gnn_module_get_parameter (model, "2.bias", NULL));
  g_assert_false (gnn_tensor_is_meta (bias));
  g_assert_cmpfloat (((float *) gnn_tensor_get_data (bias))[3], ==, 5.0f);
  g_clear_object (&model);
  if (do_load (path, 3, 8, 4, 1) != 0)
    return 1;
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}

int
main (int argc, char *argv[])
{
  if (argc == 2 && strcmp (argv[1], "--smoke") == 0)
    return smoke ();
  if (argc == 6 && strcmp (argv[1], "save") == 0)
    return do_save (argv[2], atoi (argv[3]), g_ascii_strtoll (argv[4], NULL, 10),
                    g_ascii_strtoll (argv[5], NULL, 10));
  if ((argc == 6 || argc == 7) && strcmp (argv[1], "load") == 0)
    return do_load (argv[2], atoi (argv[3]), g_ascii_strtoll (argv[4], NULL, 10),
                    g_ascii_strtoll (argv[5], NULL, 10), argc == 7 ? MAX (atoi (argv[6]), 1) : 5);
  g_printerr ("usage: bench-load save FILE N IN OUT | bench-load load FILE N IN OUT [REPEAT] | "
              "bench-load --smoke\n");
  return 2;
}
