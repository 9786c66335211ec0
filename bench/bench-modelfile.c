/* bench-modelfile: loading a torch .pth state dict into a built model, and
 * building + loading a model file (driven by bench/modelfile.py).
 *
 *   bench-modelfile torch FILE.pth N IN OUT [REP]   time loading torch.save's
 *                                                   file of Sequential(N × Linear(IN, OUT))
 *   bench-modelfile save-model FILE N IN OUT        write that model as a model file
 *   bench-modelfile model FILE [REP]                time building + loading it
 *   bench-modelfile --smoke                         tiny round trips that check values
 *
 * Output: one "key=value" per line (seconds, best of REP), read by
 * modelfile.py:
 * "torch_copy"          a model built normally (allocated, initialized
 *                       before the timer) + gnn_module_load of the .pth:
 *                       the restricted unpickler, the zip mapped, every
 *                       value copied into the model (torch's own path:
 *                       torch.load + load_state_dict into a built model);
 * "torch_assign"        a model built on the meta device + ASSIGN: the
 *                       parameters become the file's mapped storages;
 * "torch_assign_touch"  the same + one byte of every 4 KiB page read;
 * "model_assign"        gnn_module_load_model: the module tree rebuilt from
 *                       the file alone, the weights the mapped file;
 * "model_assign_touch"  the same + every page touched;
 * "model_copy"          gnn_module_load_model with GNN_LOAD_FLAGS_COPY.
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
  g_printerr ("bench-modelfile: %s\n", error->message);
  return 1;
}

static int
do_torch (const char *path, guint n, gint64 in, gint64 out, guint repeat)
{
  double best_copy = G_MAXDOUBLE, best_assign = G_MAXDOUBLE, best_touch = G_MAXDOUBLE;
  guint64 sink = 0;

  for (guint r = 0; r < repeat; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) built = bench_build_linear_chain (n, in, out, GNN_DEVICE_CPU);
      g_autoptr(GnnModule) meta = NULL;
      double t0;

      sink += bench_touch_pages (built);   /* allocated and initialized before the timer */
      t0 = bench_now_seconds ();
      if (!gnn_module_load (built, path, &error))
        return fail (error);
      best_copy = MIN (best_copy, bench_now_seconds () - t0);
      g_clear_object (&built);

      t0 = bench_now_seconds ();
      meta = bench_build_linear_chain (n, in, out, GNN_DEVICE_META);
      if (!gnn_module_load_with_flags (meta, path, GNN_LOAD_FLAGS_ASSIGN, &error))
        return fail (error);
      best_assign = MIN (best_assign, bench_now_seconds () - t0);
      g_clear_object (&meta);

      t0 = bench_now_seconds ();
      meta = bench_build_linear_chain (n, in, out, GNN_DEVICE_META);
      if (!gnn_module_load_with_flags (meta, path, GNN_LOAD_FLAGS_ASSIGN, &error))
        return fail (error);
      sink += bench_touch_pages (meta);
      best_touch = MIN (best_touch, bench_now_seconds () - t0);
    }
  g_print ("torch_copy=%.6f\ntorch_assign=%.6f\ntorch_assign_touch=%.6f\nsink=%" G_GUINT64_FORMAT
           "\n", best_copy, best_assign, best_touch, sink);
  return 0;
}

static int
do_save_model (const char *path, guint n, gint64 in, gint64 out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = bench_filled_linear_chain (n, in, out, &error);

  if (model == NULL || !gnn_module_save_model (model, path, NULL, &error))
    return fail (error);
  return 0;
}

static int
do_model (const char *path, guint repeat)
{
  double best_assign = G_MAXDOUBLE, best_touch = G_MAXDOUBLE, best_copy = G_MAXDOUBLE;
  guint64 sink = 0;

  for (guint r = 0; r < repeat; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) model = NULL;
      double t0;

      t0 = bench_now_seconds ();
      model = gnn_module_load_model (path, GNN_LOAD_FLAGS_NONE, &error);
      if (model == NULL)
        return fail (error);
      best_assign = MIN (best_assign, bench_now_seconds () - t0);
      g_clear_object (&model);

      t0 = bench_now_seconds ();
      model = gnn_module_load_model (path, GNN_LOAD_FLAGS_NONE, &error);
      if (model == NULL)
        return fail (error);
      sink += bench_touch_pages (model);
      best_touch = MIN (best_touch, bench_now_seconds () - t0);
      g_clear_object (&model);

      if (r < 2)
        {
          t0 = bench_now_seconds ();
          model = gnn_module_load_model (path, GNN_LOAD_FLAGS_COPY, &error);
          if (model == NULL)
            return fail (error);
          best_copy = MIN (best_copy, bench_now_seconds () - t0);
        }
    }
  g_print ("model_assign=%.6f\nmodel_assign_touch=%.6f\nmodel_copy=%.6f\nsink=%" G_GUINT64_FORMAT
           "\n", best_assign, best_touch, best_copy, sink);
  return 0;
}

static int
smoke (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bench-modelfile-XXXXXX", NULL);
  g_autofree char *model_path = g_build_filename (dir, "smoke.safetensors", NULL);
  g_autofree char *torch_path = g_build_filename (dir, "smoke.pth", NULL);
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GError) error = NULL;
  GnnTensor *bias;

  if (do_save_model (model_path, 3, 8, 4) != 0)
    return 1;
  model = gnn_module_load_model (model_path, GNN_LOAD_FLAGS_NONE, &error);
  if (model == NULL)
    return fail (error);
  bias = GNN_TENSOR (gnn_module_get_parameter (model, "2.bias", NULL));
  g_assert_cmpfloat (((float *) gnn_tensor_get_data (bias))[3], ==, 5.0f);
  sd = gnn_module_state_dict (model);
  if (!gnn_state_dict_save_torch (sd, torch_path, &error))
    return fail (error);
  if (do_model (model_path, 1) != 0 || do_torch (torch_path, 3, 8, 4, 1) != 0)
    return 1;
  g_unlink (model_path);
  g_unlink (torch_path);
  g_rmdir (dir);
  return 0;
}

int
main (int argc, char *argv[])
{
  if (argc == 2 && strcmp (argv[1], "--smoke") == 0)
    return smoke ();
  if ((argc == 6 || argc == 7) && strcmp (argv[1], "torch") == 0)
    return do_torch (argv[2], atoi (argv[3]), g_ascii_strtoll (argv[4], NULL, 10),
                     g_ascii_strtoll (argv[5], NULL, 10), argc == 7 ? MAX (atoi (argv[6]), 1) : 5);
  if (argc == 6 && strcmp (argv[1], "save-model") == 0)
    return do_save_model (argv[2], atoi (argv[3]), g_ascii_strtoll (argv[4], NULL, 10),
                          g_ascii_strtoll (argv[5], NULL, 10));
  if ((argc == 3 || argc == 4) && strcmp (argv[1], "model") == 0)
    return do_model (argv[2], argc == 4 ? MAX (atoi (argv[3]), 1) : 5);
  g_printerr ("usage: bench-modelfile torch FILE N IN OUT [REPEAT] | save-model FILE N IN OUT | "
              "model FILE [REPEAT] | --smoke\n");
  return 2;
}
