/* gnn-fork.c: pthread_atfork handling of library locks, and the census of
 * threads safe across fork() (gnn-fork-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/gnn-fork-private.h"

#define MAX_GUARDED 64

/* Filled by load-time constructors; read by the handlers. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static GMutex *guarded[MAX_GUARDED];
static guint n_guarded;

static void
prepare (void)
{
  pthread_mutex_lock (&registry_lock);
  for (guint i = 0; i < n_guarded; i++)
    g_mutex_lock (guarded[i]);
}

/* Runs in the parent and in the child: the forking thread took every lock
 * in prepare(), so it owns them on both sides. */
static void
release (void)
{
  for (guint i = n_guarded; i > 0; i--)
    g_mutex_unlock (guarded[i - 1]);
  pthread_mutex_unlock (&registry_lock);
}

void
gnn_fork_guard_mutex (GMutex *mutex)
{
  static gboolean installed;

  pthread_mutex_lock (&registry_lock);
  if (!installed)
    installed = pthread_atfork (prepare, release, release) == 0;
  if (n_guarded < MAX_GUARDED)
    guarded[n_guarded++] = mutex;
  else
    g_critical ("gnn: more than %d fork-guarded locks; raise MAX_GUARDED", MAX_GUARDED);
  pthread_mutex_unlock (&registry_lock);
}

/* --- threads safe across fork() ----------------------------------------- */

/* Not a GNN_FORK_SAFE_MUTEX: a starting pool worker takes it while the
 * thread that started it holds the pool's region lock (a guarded lock) and
 * waits for the worker, so a fork()'s prepare handler taking both could
 * deadlock. A forked child, which has one thread, re-initializes it
 * instead (an append cut short there loses one id at most). */
static pthread_mutex_t safe_lock = PTHREAD_MUTEX_INITIALIZER;
static GArray *safe_tids;   /* pid_t, never freed */

static void
mark_safe_locked (pid_t tid)
{
  if (safe_tids == NULL)
    safe_tids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  for (guint i = 0; i < safe_tids->len; i++)
    if (g_array_index (safe_tids, pid_t, i) == tid)
      return;
  g_array_append_val (safe_tids, tid);
}

static gboolean
is_safe (pid_t tid)
{
  gboolean safe = FALSE;

  pthread_mutex_lock (&safe_lock);
  for (guint i = 0; safe_tids != NULL && i < safe_tids->len && !safe; i++)
    safe = g_array_index (safe_tids, pid_t, i) == tid;
  pthread_mutex_unlock (&safe_lock);
  return safe;
}

GArray *
gnn_fork_thread_ids (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      pid_t tid = (pid_t) atoi (name);

      g_array_append_val (ids, tid);
    }
  return ids;
}

void
gnn_fork_mark_new_threads_safe (GArray *before)
{
  g_autoptr(GArray) now = gnn_fork_thread_ids ();

  pthread_mutex_lock (&safe_lock);
  for (guint i = 0; i < now->len; i++)
    {
      pid_t tid = g_array_index (now, pid_t, i);
      gboolean old = FALSE;

      for (guint j = 0; j < before->len && !old; j++)
        old = g_array_index (before, pid_t, j) == tid;
      if (!old)
        mark_safe_locked (tid);
    }
  pthread_mutex_unlock (&safe_lock);
}

void
gnn_fork_mark_current_thread_safe (void)
{
  pthread_mutex_lock (&safe_lock);
  mark_safe_locked (gettid ());
  pthread_mutex_unlock (&safe_lock);
}

static void
reinit_safe_lock_in_child (void)
{
  pthread_mutex_init (&safe_lock, NULL);
}

/* The threads of the process when the library is loaded. */
__attribute__ ((constructor)) static void
mark_load_time_threads_safe (void)
{
  g_autoptr(GArray) none = g_array_new (FALSE, FALSE, sizeof (pid_t));

  pthread_atfork (NULL, NULL, reinit_safe_lock_in_child);
  gnn_fork_mark_new_threads_safe (none);
}

static guint
count_once (GString *names)
{
  g_autoptr(GArray) ids = gnn_fork_thread_ids ();
  pid_t self = gettid ();
  guint n = 0;

  g_string_truncate (names, 0);
  for (guint i = 0; i < ids->len; i++)
    {
      pid_t tid = g_array_index (ids, pid_t, i);
      g_autofree char *path = NULL;
      g_autofree char *comm = NULL;

      if (tid == self || is_safe (tid))
        continue;
      n++;
      path = g_strdup_printf ("/proc/self/task/%d/comm", (int) tid);
      if (g_file_get_contents (path, &comm, NULL, NULL))
        g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", g_strstrip (comm));
    }
  return n;
}

guint
gnn_fork_count_other_threads (GString *names)
{
  guint n = count_once (names);

  /* A thread joined just before may still be listed for a moment: the
   * kernel releases its task after pthread_join () has returned (seen in
   * CI: a loader's thread worker, joined, then counted). Live threads stay. */
  for (guint tries = 0; n > 0 && tries < 10; tries++)
    {
      g_usleep (1000);
      n = count_once (names);
    }
  return n;
}
