/* gnn-fork-private.h: library locks that survive fork()
 *
 * A process worker forks while other threads of the parent may hold a
 * library lock (a thread building a Linear holds the default generator
 * lock); the child, which has only the forking thread, would then block on
 * it forever. A lock defined with GNN_FORK_SAFE_MUTEX is taken by a
 * pthread_atfork prepare handler and released in parent and child, so the
 * child starts with every such lock free and consistent.
 *
 * Such locks must be leaves: never held while taking another of them
 * (the prepare handler takes them in registration order).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Registers @mutex with the fork handlers; called at library load. */
void gnn_fork_guard_mutex (GMutex *mutex);

/* Defines `static GMutex name` registered with the fork handlers when the
 * library is loaded (before any thread of it can fork). */
#define GNN_FORK_SAFE_MUTEX(name)                                               \
  static GMutex name;                                                           \
  __attribute__ ((constructor)) static void                                     \
  name##_register_fork_guard (void)                                             \
  {                                                                             \
    gnn_fork_guard_mutex (&name);                                               \
  }                                                                             \
  G_STATIC_ASSERT (TRUE)

/* The same for `static GMutex name[n]` (a striped lock table). */
#define GNN_FORK_SAFE_MUTEX_ARRAY(name, n)                                      \
  static GMutex name[n];                                                        \
  __attribute__ ((constructor)) static void                                     \
  name##_register_fork_guard (void)                                             \
  {                                                                             \
    for (guint i_ = 0; i_ < (n); i_++)                                          \
      gnn_fork_guard_mutex (&name[i_]);                                         \
  }                                                                             \
  G_STATIC_ASSERT (TRUE)

/* Threads that are safe across fork(): those that existed when the library
 * was loaded (its dependencies', such as OpenBLAS's pool, which stops itself
 * around fork() with its own handlers), and those the library marks — its
 * thread pool's workers, OpenBLAS's threads restarted by a call the library
 * made. Any other thread is the program's, and a forked child could
 * deadlock on a lock it held. */

/* Marks the calling thread as safe across fork(). */
void   gnn_fork_mark_current_thread_safe (void);

/* The ids of the process's threads now, for gnn_fork_mark_new_threads_safe (). */
GArray *gnn_fork_thread_ids (void);

/* Marks the threads that exist now but not in @before as safe (the threads
 * a library call started, e.g. OpenBLAS's pool after fork()). */
void   gnn_fork_mark_new_threads_safe (GArray *before);

/* Counts the threads besides the calling one that are not safe across
 * fork(); their names, comma-separated, in @names. Waits up to ~10 ms for
 * threads that are exiting. */
guint  gnn_fork_count_other_threads (GString *names);

G_END_DECLS
