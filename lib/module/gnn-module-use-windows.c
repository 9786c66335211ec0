/* gnn-module-use-windows.c: the registry lock, the use windows of readers
 * and the graveyard where what a change took out waits for them to leave
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#if defined(__linux__)
# include <linux/membarrier.h>
# include <sys/syscall.h>
# include <unistd.h>
#endif

#include "core/gnn-fork-private.h"
#include "module/gnn-module-private.h"

GNN_FORK_SAFE_MUTEX (registry_lock);

/* One per thread that ever opened a window; @active is what changes read. */
typedef struct
{
  gint active;
} UseRecord;

static GPtrArray *use_records;     /* UseRecord*, under registry_lock */
static GArray *graveyard;          /* GnnGarbageItem, under registry_lock */
static gint graveyard_pending;     /* atomic: the graveyard is not empty */

#if defined(__GNUC__) && defined(__ELF__)
# define GNN_TLS __attribute__ ((tls_model ("initial-exec")))
#else
# define GNN_TLS
#endif
static _Thread_local UseRecord *tls_record GNN_TLS;
_Thread_local guint gnn_module_use_depth GNN_TLS;

static void
use_record_free (gpointer data)
{
  g_mutex_lock (&registry_lock);
  g_ptr_array_remove_fast (use_records, data);
  g_mutex_unlock (&registry_lock);
  tls_record = NULL;
  g_free (data);
}

static GPrivate use_record_key = G_PRIVATE_INIT (use_record_free);

/* In a forked child only the forking thread exists: the others' windows
 * are closed for good. */
static void
use_records_after_fork (void)
{
  if (use_records == NULL)
    return;
  for (guint i = 0; i < use_records->len; i++)
    {
      UseRecord *record = g_ptr_array_index (use_records, i);

      if (record != tls_record)
        record->active = 0;
    }
}

/* Whether readers may open a window with a plain store (the membarrier
 * flavour of user-space RCU): a change that frees something then makes
 * every running thread of the process execute a full barrier
 * (membarrier(2)) before it reads the windows, which orders each reader's
 * store before its reads as a fence of its own would, at no cost to the
 * reader. Without membarrier (not Linux, a kernel or sandbox refusing it)
 * readers fence. Registration is inherited across fork. */
static gboolean light_readers;

static gboolean
membarrier_all_threads (void)
{
#if defined(__linux__) && defined(__NR_membarrier)
  return syscall (__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  return FALSE;
#endif
}

__attribute__ ((constructor)) static void
use_records_register_fork_handler (void)
{
  pthread_atfork (NULL, NULL, use_records_after_fork);
#if defined(__linux__) && defined(__NR_membarrier)
  light_readers = syscall (__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 &&
                  membarrier_all_threads ();
#endif
}

static UseRecord *
use_record_register (void)
{
  UseRecord *record = g_new0 (UseRecord, 1);

  g_mutex_lock (&registry_lock);
  if (use_records == NULL)
    use_records = g_ptr_array_new ();
  g_ptr_array_add (use_records, record);
  g_mutex_unlock (&registry_lock);
  g_private_set (&use_record_key, record);
  tls_record = record;
  return record;
}

/* Under registry_lock: whether some thread is inside a window. */
static gboolean
anyone_inside (void)
{
  if (use_records == NULL)
    return FALSE;
  for (guint i = 0; i < use_records->len; i++)
    if (__atomic_load_n (&((UseRecord *) g_ptr_array_index (use_records, i))->active,
                         __ATOMIC_SEQ_CST))
      return TRUE;
  return FALSE;
}

/* Under registry_lock: whether no other thread has a use record, so none
 * can be reading (a thread that registers later takes the lock first, and
 * sees what this change unlinked). */
static gboolean
barrier_needless (void)
{
  return use_records == NULL || use_records->len == 0 ||
         (use_records->len == 1 && g_ptr_array_index (use_records, 0) == tls_record);
}

/* Under registry_lock: what may be freed now (transfer full, nullable). */
static GArray *
take_graveyard_if_idle (void)
{
  GArray *dead = NULL;

  if (graveyard != NULL && !anyone_inside ())
    {
      dead = g_steal_pointer (&graveyard);
      __atomic_store_n (&graveyard_pending, 0, __ATOMIC_RELAXED);
    }
  return dead;
}

/* The outermost window of this thread begins (gnn_module_use_begin()). */
void
gnn_module_use_begin_outer (void)
{
  UseRecord *record = tls_record != NULL ? tls_record : use_record_register ();

  /* The reads that follow must not pass the store (a change reads @active
   * after taking out what it changed): a full fence, or, with light
   * readers, the change's membarrier makes one for us. */
  if (G_LIKELY (light_readers))
    {
      __atomic_store_n (&record->active, 1, __ATOMIC_RELAXED);
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
    }
  else
    __atomic_store_n (&record->active, 1, __ATOMIC_SEQ_CST);
}

void
gnn_module_use_end_outer (void)
{
  GArray *dead;

  __atomic_store_n (&tls_record->active, 0, __ATOMIC_RELEASE);
  if (G_LIKELY (!__atomic_load_n (&graveyard_pending, __ATOMIC_RELAXED)))
    return;
  g_mutex_lock (&registry_lock);
  dead = take_graveyard_if_idle ();
  g_mutex_unlock (&registry_lock);
  gnn_garbage_free_array (dead);
}

void
gnn_module_registry_lock (void)
{
  g_mutex_lock (&registry_lock);
}

/* Ends a change: its @garbage (nullable) is freed at once when no thread is
 * inside a window (this one included: it may be walking what changed),
 * else it waits in the graveyard. Frees outside the lock: a value's last
 * unref may dispose a module, which changes registries. */
void
gnn_module_registry_unlock (GnnGarbage *garbage)
{
  GArray *dead = NULL;
  gboolean now = FALSE;

  if (garbage != NULL && !gnn_garbage_is_empty (garbage))
    {
      /* what was taken out is unlinked before the windows are read */
      __atomic_thread_fence (__ATOMIC_SEQ_CST);
      if (light_readers && !barrier_needless () && !membarrier_all_threads ())
        {
          /* cannot happen once registered; freeing could be unsafe: keep it */
          g_debug ("membarrier failed: %u registry items not freed", garbage->n_inline);
          garbage->n_inline = 0;
          g_clear_pointer (&garbage->more, g_array_unref);
          g_mutex_unlock (&registry_lock);
          return;
        }
      now = !anyone_inside ();
      if (!now)
        {
          gnn_garbage_move (&graveyard, garbage);
          __atomic_store_n (&graveyard_pending, 1, __ATOMIC_RELAXED);
        }
      else
        dead = take_graveyard_if_idle ();
    }
  g_mutex_unlock (&registry_lock);
  if (now)
    gnn_garbage_free (garbage);
  gnn_garbage_free_array (dead);
}
