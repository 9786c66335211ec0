/* The intra-op thread pool (lib/tensor/gnn-parallel.c and the fork guard,
 * compiled into this test without the library): every item of a loop runs
 * exactly once, in at most num_threads ranges of at least grain items;
 * nested and concurrent regions run serially instead of waiting; a forked
 * child gets a pool of its own; the pool's workers and the OpenBLAS threads
 * that gnn_set_num_threads () restarts after a fork() count as safe across
 * fork() (the DataLoader forks workers only when every other thread is),
 * a thread of the program's does not. */
#include <sys/wait.h>
#include <unistd.h>
#include <cblas.h>
#include <gnn/gnn-threads.h>

#include <gnn/gnn-error.h>

#include "core/gnn-fork-private.h"
#include "tensor/gnn-parallel-private.h"

/* The library is not linked in: its error domain, for gnn_set_num_threads (). */
GQuark
gnn_error_quark (void)
{
  return g_quark_from_static_string ("gnn-error-quark");
}

typedef struct
{
  gint *hits;             /* per item, atomically */
  GMutex lock;
  GPtrArray *threads;     /* distinct GThread * that ran a range */
  gint64 min_range;
  gint ranges;
} Coverage;

static void
cover_range (gint64   begin,
             gint64   end,
             gpointer data)
{
  Coverage *cov = data;

  for (gint64 i = begin; i < end; i++)
    g_atomic_int_inc (&cov->hits[i]);
  g_mutex_lock (&cov->lock);
  if (!g_ptr_array_find (cov->threads, g_thread_self (), NULL))
    g_ptr_array_add (cov->threads, g_thread_self ());
  cov->min_range = MIN (cov->min_range, end - begin);
  cov->ranges++;
  g_mutex_unlock (&cov->lock);
}

static void
test_coverage (void)
{
  const guint threads[] = { 1, 2, 3, 4, 7 };
  const gint64 sizes[] = { 1, 2, 5, 64, 1000, 4097 };
  const gint64 grains[] = { 1, 3, 64, 5000 };

  for (gsize t = 0; t < G_N_ELEMENTS (threads); t++)
    for (gsize s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (gsize g = 0; g < G_N_ELEMENTS (grains); g++)
        {
          gint64 n = sizes[s], grain = grains[g];
          gint64 want_ranges = MAX (MIN ((gint64) threads[t], n / grain), 1);
          Coverage cov = { g_new0 (gint, n), { 0 }, g_ptr_array_new (), G_MAXINT64, 0 };

          g_assert_true (gnn_set_num_threads (threads[t], NULL));
          g_assert_cmpuint (gnn_get_num_threads (), ==, threads[t]);
          gnn_parallel_for (n, grain, cover_range, &cov);
          for (gint64 i = 0; i < n; i++)
            g_assert_cmpint (cov.hits[i], ==, 1);
          g_assert_cmpint (cov.ranges, ==, want_ranges);
          g_assert_cmpuint (cov.threads->len, ==, (guint) want_ranges);
          if (want_ranges > 1)
            g_assert_cmpint (cov.min_range, >=, grain);
          g_free (cov.hits);
          g_ptr_array_unref (cov.threads);
        }
  gnn_parallel_for (0, 1, cover_range, NULL);   /* nothing to do: never called */
}

/* A range that starts a region of its own: the inner loop runs on the
 * thread of the outer range. */
typedef struct
{
  gint *hits;
  gint wrong_thread;
} Nested;

static void
inner_range (gint64   begin,
             gint64   end,
             gpointer data)
{
  gpointer *args = data;
  Nested *nested = args[0];

  if (args[1] != g_thread_self ())
    g_atomic_int_inc (&nested->wrong_thread);
  for (gint64 i = begin; i < end; i++)
    g_atomic_int_inc (&nested->hits[i]);
}

static void
outer_range (gint64   begin,
             gint64   end,
             gpointer data)
{
  for (gint64 i = begin; i < end; i++)
    {
      Nested *nested = data;
      gpointer args[2] = { data, g_thread_self () };

      /* items i · 100 .. i · 100 + 99 of the inner array */
      Nested shifted = { nested->hits + i * 100, 0 };

      args[0] = &shifted;
      gnn_parallel_for (100, 1, inner_range, args);
      g_atomic_int_add (&nested->wrong_thread, shifted.wrong_thread);
    }
}

static void
test_nested (void)
{
  Nested nested = { g_new0 (gint, 8 * 100), 0 };

  g_assert_true (gnn_set_num_threads (4, NULL));
  gnn_parallel_for (8, 1, outer_range, &nested);
  g_assert_cmpint (nested.wrong_thread, ==, 0);
  for (gint i = 0; i < 8 * 100; i++)
    g_assert_cmpint (nested.hits[i], ==, 1);
  g_free (nested.hits);
}

/* Sums i over [0, 100000) through the pool, many times. */
static void
add_range (gint64   begin,
           gint64   end,
           gpointer data)
{
  gint64 sum = 0;

  for (gint64 i = begin; i < end; i++)
    sum += i;
  g_atomic_pointer_add ((gssize *) data, (gssize) sum);
}

static gpointer
sum_many (gpointer data)
{
  for (gint round = 0; round < 300; round++)
    {
      gssize sum = 0;

      gnn_parallel_for (100000, 100, add_range, &sum);
      if (sum != (gssize) 100000 * 99999 / 2)
        return GINT_TO_POINTER (1);
    }
  return GINT_TO_POINTER (0);
}

static void
test_concurrent_callers (void)
{
  GThread *a, *b;

  g_assert_true (gnn_set_num_threads (2, NULL));
  a = g_thread_new ("caller-a", sum_many, NULL);
  b = g_thread_new ("caller-b", sum_many, NULL);
  g_assert_cmpint (GPOINTER_TO_INT (sum_many (NULL)), ==, 0);
  g_assert_cmpint (GPOINTER_TO_INT (g_thread_join (a)), ==, 0);
  g_assert_cmpint (GPOINTER_TO_INT (g_thread_join (b)), ==, 0);
}

static void
test_fork (void)
{
  int status;
  pid_t pid;

  g_assert_true (gnn_set_num_threads (2, NULL));
  g_assert_cmpint (GPOINTER_TO_INT (sum_many (NULL)), ==, 0);   /* workers started */
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      Coverage cov = { g_new0 (gint, 1000), { 0 }, g_ptr_array_new (), G_MAXINT64, 0 };

      /* the parent's workers do not exist here: the child starts its own */
      gnn_parallel_for (1000, 1, cover_range, &cov);
      for (gint i = 0; i < 1000; i++)
        if (cov.hits[i] != 1)
          _exit (2);
      _exit (cov.threads->len == 2 && GPOINTER_TO_INT (sum_many (NULL)) == 0 ? 0 : 3);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

static gpointer
wait_for_release (gpointer data)
{
  GMutex *lock = data;

  g_mutex_lock (lock);   /* held by the test until it has counted */
  g_mutex_unlock (lock);
  return NULL;
}

static void
nothing (gint64 begin, gint64 end, gpointer data)
{
}

static void
test_fork_census (void)
{
  g_autoptr (GString) names = g_string_new (NULL);
  GMutex lock;
  GThread *program_thread;
  int status;
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* OpenBLAS stopped its threads around fork(); this call restarts them */
      gboolean restarts = openblas_get_num_threads () > 1;

      g_assert_true (gnn_set_num_threads (2, NULL));
      gnn_parallel_for (1000, 1, nothing, NULL);
      _exit (gnn_fork_count_other_threads (names) == 0 ? (restarts ? 0 : 77) : 1);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  if (WEXITSTATUS (status) == 77)
    g_test_message ("OpenBLAS runs 1 thread here: its restart was not exercised");
  else
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  g_assert_true (gnn_set_num_threads (3, NULL));
  gnn_parallel_for (1000, 1, nothing, NULL);   /* starts two workers */
  g_assert_cmpuint (gnn_fork_count_other_threads (names), ==, 0);

  g_mutex_init (&lock);
  g_mutex_lock (&lock);
  program_thread = g_thread_new ("program-thread", wait_for_release, &lock);
  /* (its name is set by the new thread itself, maybe not yet) */
  g_assert_cmpuint (gnn_fork_count_other_threads (names), ==, 1);
  g_mutex_unlock (&lock);
  g_thread_join (program_thread);
  g_mutex_clear (&lock);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* first: the fork census needs OpenBLAS's threads never set */
  g_test_add_func ("/parallel-for/fork-census", test_fork_census);
  g_test_add_func ("/parallel-for/coverage", test_coverage);
  g_test_add_func ("/parallel-for/nested", test_nested);
  g_test_add_func ("/parallel-for/concurrent-callers", test_concurrent_callers);
  g_test_add_func ("/parallel-for/fork", test_fork);
  return g_test_run ();
}
