/* gnn-test-util.h: small assertions and tensor builders shared by the C tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gnn/gnn.h>

/* arange (start, start + numel).reshape (shape) */
static inline GnnTensor *
gnn_test_arange (GnnDType      dtype,
                 double        start,
                 const gint64 *shape,
                 guint         ndim)
{
  gint64 numel = 1;
  g_autoptr(GnnTensor) r = NULL;

  for (guint i = 0; i < ndim; i++)
    numel *= shape[i];
  r = gnn_tensor_arange (start, start + (double) numel, 1, dtype, NULL);
  return gnn_tensor_reshape (r, shape, ndim, NULL);
}

static inline void
gnn_test_assert_shape (GnnTensor    *t,
                       const gint64 *shape,
                       guint         ndim)
{
  guint nd;
  const gint64 *s = gnn_tensor_get_shape (t, &nd);

  g_assert_cmpuint (nd, ==, ndim);
  for (guint i = 0; i < ndim; i++)
    g_assert_cmpint (s[i], ==, shape[i]);
}

/* Compares all elements (row-major order): exactly when @tol is 0, else
 * within @tol; a NaN expected value matches NaN. */
static inline void
gnn_test_assert_values (GnnTensor    *t,
                        const double *expected,
                        gsize         n,
                        double        tol)
{
  gsize got_n = 0;
  g_autofree double *got = NULL;

  g_assert_nonnull (t);
  got = gnn_tensor_to_doubles (t, &got_n);
  g_assert_cmpuint (got_n, ==, n);
  for (gsize i = 0; i < n; i++)
    {
      if (isnan (expected[i]))
        g_assert_true (isnan (got[i]));
      else if (tol == 0)
        g_assert_cmpfloat (got[i], ==, expected[i]);
      else
        g_assert_cmpfloat_with_epsilon (got[i], expected[i], tol);
    }
}

/* The CPU levels of lib/tensor/gnn-cpu-private.h (0 .. GNN_TEST_CPU_LEVELS -
 * 1), their names as GNN_CPU_LEVEL spells them, and whether this CPU has
 * level @level. */
#define GNN_TEST_CPU_LEVELS 3

static inline const char *
gnn_test_cpu_level_name (guint level)
{
  static const char *const names[GNN_TEST_CPU_LEVELS] = { "baseline", "avx2", "avx512" };

  return names[level];
}

static inline gboolean
gnn_test_cpu_has (guint level)
{
#if defined(__x86_64__)
  __builtin_cpu_init ();
  if (level == 1)
    return __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma");
  if (level == 2)
    return __builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512vl") &&
           __builtin_cpu_supports ("avx512bw");
#endif
  return level == 0;
}

/* Removes @dir and everything below it (a test's scratch directory). */
static inline void
gnn_test_remove_tree (const char *dir)
{
  const char *argv[] = { "rm", "-rf", "--", dir, NULL };
  gint status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                     &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    g_printerr ("could not remove %s\n", dir);
}

/* Caps this process's address space at what it uses now plus @headroom
 * bytes, so that a larger allocation fails: in a test subprocess started
 * by gnn_test_run_capped(). */
static inline void
gnn_test_cap_address_space (gsize headroom)
{
  unsigned long pages = 0;
  FILE *statm = fopen ("/proc/self/statm", "r");
  struct rlimit cap;

  g_assert_nonnull (statm);
  g_assert_cmpint (fscanf (statm, "%lu", &pages), ==, 1);
  fclose (statm);
  cap.rlim_cur = cap.rlim_max = pages * (rlim_t) sysconf (_SC_PAGESIZE) + headroom;
  g_assert_cmpint (setrlimit (RLIMIT_AS, &cap), ==, 0);
}

/* Runs @check (@data) in a subprocess, which may cap its address space
 * (gnn_test_cap_address_space()), and asserts that it passed within a
 * minute. The child runs OpenBLAS without threads: a BLAS thread allocates
 * its buffer when it first runs, which may be after the cap, and then
 * retries forever (and exit waits for it). Skipped under AddressSanitizer,
 * whose reservations do not fit under a cap. */
static inline void
gnn_test_run_capped (void        (*check) (gconstpointer data),
                     gconstpointer data)
{
  g_autofree char *blas_threads = NULL;

#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves more address space than the cap leaves");
  return;
#endif
  if (g_test_subprocess ())
    {
      check (data);
      return;
    }
  blas_threads = g_strdup (g_getenv ("OPENBLAS_NUM_THREADS"));
  g_setenv ("OPENBLAS_NUM_THREADS", "1", TRUE);
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  if (blas_threads != NULL)
    g_setenv ("OPENBLAS_NUM_THREADS", blas_threads, TRUE);
  else
    g_unsetenv ("OPENBLAS_NUM_THREADS");
  g_test_trap_assert_passed ();
}

/* Backward of @y (float32) with an expanded all-ones gradient, once the
 * address space is capped 4 MiB above its use: the backward's contiguous
 * copy of that gradient cannot be allocated, and backward must fail with
 * GNN_ERROR_MEMORY (in a gnn_test_run_capped() child). */
static inline void
gnn_test_backward_out_of_memory (GnnTensor *y)
{
  g_autoptr(GError) error = NULL;
  guint ndim = 0;
  const gint64 *shape = gnn_tensor_get_shape (y, &ndim);
  g_autoptr(GnnTensor) one = gnn_tensor_full ((const gint64[]) { 1 }, 1, 1.0, GNN_DTYPE_F32,
                                              &error);
  g_autoptr(GnnTensor) grad = NULL;

  g_assert_no_error (error);
  grad = gnn_tensor_expand (one, shape, ndim, &error);
  g_assert_no_error (error);
  g_assert_false (gnn_tensor_is_contiguous (grad));
  gnn_test_cap_address_space (4u << 20);
  g_assert_false (gnn_tensor_backward (y, grad, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_MEMORY);
}

/* Removes @dir and the files in it (a test's temporary folder). */
static inline void
gnn_test_remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* The state dicts of @a and @b: the same keys in the same order, the same
 * dtypes and values. */
static inline void
gnn_test_assert_same_state (GnnModule *a,
                            GnnModule *b)
{
  g_autoptr(GnnStateDict) sa = gnn_module_state_dict (a);
  g_autoptr(GnnStateDict) sb = gnn_module_state_dict (b);
  g_auto(GStrv) ka = gnn_state_dict_get_keys (sa);
  g_auto(GStrv) kb = gnn_state_dict_get_keys (sb);

  g_assert_cmpstrv (ka, kb);
  for (guint i = 0; ka[i] != NULL; i++)
    {
      GnnTensor *ta = gnn_state_dict_lookup (sa, ka[i]);
      GnnTensor *tb = gnn_state_dict_lookup (sb, ka[i]);

      g_assert_cmpint (gnn_tensor_get_dtype (ta), ==, gnn_tensor_get_dtype (tb));
      if (!gnn_tensor_equal (ta, tb))
        g_error ("%s differs", ka[i]);
    }
}

/* One asynchronous call awaited in a main loop: gnn_test_async_init(), start
 * the call with gnn_test_async_done and the struct as callback and data,
 * then gnn_test_async_run() returns its result (transfer full). */
typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} GnnTestAsync;

static inline void
gnn_test_async_done (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GnnTestAsync *w = user_data;

  w->result = g_object_ref (result);
  g_main_loop_quit (w->loop);
}

static inline void
gnn_test_async_init (GnnTestAsync *w)
{
  w->loop = g_main_loop_new (NULL, FALSE);
  w->result = NULL;
}

static inline GAsyncResult *
gnn_test_async_run (GnnTestAsync *w)
{
  g_main_loop_run (w->loop);
  g_clear_pointer (&w->loop, g_main_loop_unref);
  return w->result;
}
