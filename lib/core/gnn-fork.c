/* gnn-fork.c: pthread_atfork handling of library locks (gnn-fork-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>

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
