/* bench-io: times safetensors save and load (driven by bench/io.py).
 *
 *   bench-io save FILE N ROWS COLS     build N float32 ROWS×COLS tensors, time save
 *   bench-io load FILE [REPEAT]        time three kinds of load, best of REPEAT
 *   bench-io --smoke                   tiny round trip that checks values (meson test)
 *
 * Output: one "key=value" per line (seconds), read by io.py.
 *
 * "load" is gnn_state_dict_load: open + mmap + header parse + validation of
 * every rule + creation of the tensors (no data is read: mmap defers that).
 * "load_touch" adds reading one byte of every 4 KiB page of every tensor, so
 * the pages are actually faulted in (from the page cache when warm): the
 * honest comparison with cat and torch.load, which read everything.
 * "load_read" reads every byte instead (what a consumer of all the data pays).
 * "load_copy" is GNN_LOAD_FLAGS_COPY: every tensor copied out of the mapping.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gnn/gnn.h>

#include "bench-util.h"

static guint64
touch_pages (GnnStateDict *sd)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  guint64 sum = 0;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *t = gnn_state_dict_lookup (sd, keys[i]);
      const volatile guint8 *p = gnn_tensor_get_data (t);
      gsize n = gnn_tensor_get_nbytes (t);

      for (gsize j = 0; j < n; j += 4096)
        sum += p[j];
    }
  return sum;
}

/* Reads every byte (8 at a time), as a consumer of all the data would. */
static guint64
read_all (GnnStateDict *sd)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);
  guint64 sum = 0;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      GnnTensor *t = gnn_state_dict_lookup (sd, keys[i]);
      const guint64 *p = gnn_tensor_get_data (t);
      gsize n = gnn_tensor_get_nbytes (t) / 8;

      for (gsize j = 0; j < n; j++)
        sum += p[j];
    }
  return sum;
}

static GnnStateDict *
make_state_dict (guint n, gint64 rows, gint64 cols)
{
  GnnStateDict *sd = gnn_state_dict_new ();
  gint64 shape[] = { rows, cols };

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GnnTensor) t = gnn_tensor_full (shape, 2, (double) i, GNN_DTYPE_F32, NULL);
      g_autofree char *key = g_strdup_printf ("layers.%u.weight", i);

      gnn_state_dict_insert (sd, key, t);
    }
  return sd;
}

static int
do_save (const char *path, guint n, gint64 rows, gint64 cols)
{
  g_autoptr(GnnStateDict) sd = make_state_dict (n, rows, cols);
  g_autoptr(GError) error = NULL;
  double t0 = bench_now_seconds ();

  if (!gnn_state_dict_save (sd, path, NULL, &error))
    {
      g_printerr ("bench-io: %s\n", error->message);
      return 1;
    }
  g_print ("save=%.6f\n", bench_now_seconds () - t0);
  return 0;
}

static int
do_load (const char *path, guint repeat)
{
  double best_load = G_MAXDOUBLE, best_touch = G_MAXDOUBLE, best_read = G_MAXDOUBLE;
  double best_copy = G_MAXDOUBLE;
  guint64 sink = 0;

  for (guint r = 0; r < repeat; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnStateDict) a = NULL;
      g_autoptr(GnnStateDict) b = NULL;
      g_autoptr(GnnStateDict) c = NULL;
      g_autoptr(GnnStateDict) d = NULL;
      double t0, t1;

      t0 = bench_now_seconds ();
      a = gnn_state_dict_load (path, &error);
      t1 = bench_now_seconds ();
      if (a == NULL)
        {
          g_printerr ("bench-io: %s\n", error->message);
          return 1;
        }
      best_load = MIN (best_load, t1 - t0);
      g_clear_object (&a);      /* unmapped: the next load maps afresh */

      t0 = bench_now_seconds ();
      b = gnn_state_dict_load (path, NULL);
      sink += touch_pages (b);
      best_touch = MIN (best_touch, bench_now_seconds () - t0);
      g_clear_object (&b);

      t0 = bench_now_seconds ();
      d = gnn_state_dict_load (path, NULL);
      sink += read_all (d);
      best_read = MIN (best_read, bench_now_seconds () - t0);
      g_clear_object (&d);

      t0 = bench_now_seconds ();
      c = gnn_state_dict_load_with_flags (path, GNN_LOAD_FLAGS_COPY, NULL);
      best_copy = MIN (best_copy, bench_now_seconds () - t0);
    }
  g_print ("load=%.6f\nload_touch=%.6f\nload_read=%.6f\nload_copy=%.6f\nsink=%" G_GUINT64_FORMAT "\n",
           best_load, best_touch, best_read, best_copy, sink);
  return 0;
}

static int
smoke (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bench-io-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "smoke.safetensors", NULL);
  g_autoptr(GnnStateDict) sd = make_state_dict (3, 16, 8);
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GError) error = NULL;

  if (!gnn_state_dict_save (sd, path, NULL, &error) ||
      (back = gnn_state_dict_load (path, &error)) == NULL)
    {
      g_printerr ("bench-io: %s\n", error->message);
      return 1;
    }
  g_assert_cmpuint (gnn_state_dict_get_length (back), ==, 3);
  g_assert_cmpfloat (((float *) gnn_tensor_get_data (gnn_state_dict_lookup (back, "layers.2.weight")))[127],
                     ==, 2.0f);
  (void) touch_pages (back);
  g_clear_object (&back);
  if (do_load (path, 1) != 0)
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
  if ((argc == 3 || argc == 4) && strcmp (argv[1], "load") == 0)
    return do_load (argv[2], argc == 4 ? MAX (atoi (argv[3]), 1) : 3);
  g_printerr ("usage: bench-io save FILE N ROWS COLS | bench-io load FILE [REPEAT] | bench-io --smoke\n");
  return 2;
}
