/* Threads and fork(): gradient accumulation is atomic per leaf across
 * concurrent backward passes, and library locks are free in a forked child.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gnn/gnn.h>

#define N_THREADS 4
#define N_ROUNDS 300
#define BATCH 1
#define IN (1 << 16)

typedef struct
{
  GnnModule         *model;
  GnnTensor         *input;
  pthread_barrier_t *start;
  gboolean           ok;
} Worker;

static gpointer
backward_once (gpointer data)
{
  Worker *w = data;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  pthread_barrier_wait (w->start);   /* all four meet the leaves together */
  y = gnn_module_call (w->model, w->input, NULL);
  loss = y != NULL ? gnn_tensor_sum (y, NULL, 0, FALSE, NULL) : NULL;
  w->ok = loss != NULL && gnn_tensor_backward (loss, NULL, FALSE, NULL);
  return NULL;
}

/* d(sum(x W^T + b))/dW = column sums of x = BATCH per thread; the bias gets
 * BATCH per thread too. Every round must see all N_THREADS contributions. */
static void
test_concurrent_backward_sums_exactly (void)
{
  g_autoptr(GnnLinear) linear = gnn_linear_new (IN, 1, TRUE, NULL, NULL);
  GnnModule *model = GNN_MODULE (linear);
  g_autoptr(GnnTensor) x = gnn_tensor_ones ((gint64[]) { BATCH, IN }, 2, GNN_DTYPE_F32, NULL);
  const double want = (double) (N_THREADS * BATCH);
  guint lost_rounds = 0;

  for (guint round = 0; round < N_ROUNDS; round++)
    {
      pthread_barrier_t start;
      Worker workers[N_THREADS];
      GThread *threads[N_THREADS];
      const char *names[] = { "weight", "bias" };

      gnn_module_zero_grad (model, TRUE);
      pthread_barrier_init (&start, NULL, N_THREADS);
      for (guint t = 0; t < N_THREADS; t++)
        {
          workers[t] = (Worker) { model, x, &start, FALSE };
          threads[t] = g_thread_new ("backward", backward_once, &workers[t]);
        }
      for (guint t = 0; t < N_THREADS; t++)
        {
          g_thread_join (threads[t]);
          g_assert_true (workers[t].ok);
        }
      pthread_barrier_destroy (&start);

      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        {
          GnnParameter *p = gnn_module_get_parameter (model, names[k], NULL);
          GnnTensor *g = gnn_tensor_get_grad (GNN_TENSOR (p));
          gsize n = 0;
          g_autofree double *v = gnn_tensor_to_doubles (g, &n);
          gboolean exact = TRUE;

          for (gsize i = 0; i < n; i++)
            exact = exact && v[i] == want;
          if (!exact)
            {
              lost_rounds++;
              break;
            }
        }
    }
  g_assert_cmpuint (lost_rounds, ==, 0);
}

static volatile gint stop_building;

static gpointer
reset_modules (gpointer data)
{
  g_autoptr(GnnLinear) l = gnn_linear_new (256, 256, TRUE, NULL, NULL);

  while (!g_atomic_int_get (&stop_building))
    gnn_module_reset_parameters (GNN_MODULE (l), NULL);
  return NULL;
}

/* A thread of the parent re-initializes a Linear from the default
 * generator (holding the generator lock most of the time) while the main
 * thread forks; each child builds a Linear of its own, which needs that
 * lock. A child blocked on a lock held at fork time never exits: wait at
 * most 20 s for each, then fail.
 *
 * The parent's thread does not build modules: a child then hung (1 in ~100
 * forks under load; gdb in the hung children: g_signal_emit_valist and
 * g_param_spec_pool_lookup) on GObject's process-wide signal and
 * param-spec-pool locks, held by the building thread at fork time. Those
 * are GLib's, out of reach of any atfork handler: it is why the DataLoader
 * forks workers only when no other program thread runs. With the thread
 * holding only the library's locks, 1,500 forks under load did not hang. */
static void
test_fork_while_initializing (void)
{
  GThread *builder;
  guint hung = 0, failed = 0;

  g_type_class_unref (g_type_class_ref (GNN_TYPE_LINEAR));
  g_atomic_int_set (&stop_building, 0);
  builder = g_thread_new ("resetter", reset_modules, NULL);
  for (guint i = 0; i < 30; i++)
    {
      pid_t pid;
      int status = 0;
      gint64 deadline;
      pid_t got = 0;

      g_usleep (2000);
      pid = fork ();
      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        {
          GnnLinear *l = gnn_linear_new (8, 8, TRUE, NULL, NULL);
          _exit (l != NULL ? 0 : 1);
        }
      deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
      while ((got = waitpid (pid, &status, WNOHANG)) == 0 && g_get_monotonic_time () < deadline)
        g_usleep (1000);
      if (got == 0)
        {
          kill (pid, SIGKILL);
          waitpid (pid, &status, 0);
          hung++;
        }
      else if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        failed++;
    }
  g_atomic_int_set (&stop_building, 1);
  g_thread_join (builder);
  if (hung > 0)
    g_test_message ("%u of 30 forked children deadlocked", hung);
  g_assert_cmpuint (hung, ==, 0);
  g_assert_cmpuint (failed, ==, 0);
}

int
main (int argc, char **argv)
{
  /* GLib 2.74's slice allocator keeps its own locks; only the library's
   * locks are under test here. */
  g_setenv ("G_SLICE", "always-malloc", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/autograd/concurrency/backward-sums-exactly", test_concurrent_backward_sums_exactly);
  g_test_add_func ("/autograd/concurrency/fork-while-initializing", test_fork_while_initializing);
  return g_test_run ();
}
