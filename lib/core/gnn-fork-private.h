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

G_END_DECLS
