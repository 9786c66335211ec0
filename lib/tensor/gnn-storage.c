/* gnn-storage.c: refcounted, 64-byte aligned (or borrowed) tensor memory
 *
 * gnn_storage_new() returns NULL when memory is exhausted.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tensor/gnn-tensor-private.h"

/* Large buffers get 2 MiB alignment and transparent huge pages: a fresh
 * 64 MB result otherwise costs ~16K page faults, which dominates
 * elementwise ops (THP is usually in "madvise" mode). */
#define HUGE_THRESHOLD (4u << 20)
#define HUGE_ALIGN (2u << 20)

GnnStorage *
gnn_storage_new (gsize nbytes, gboolean zeroed)
{
  GnnStorage *storage = g_new0 (GnnStorage, 1);
  /* aligned_alloc wants a size that is a multiple of the alignment; a
   * non-empty allocation also keeps data non-NULL for empty tensors. */
  gsize padded = (nbytes + GNN_STORAGE_ALIGN - 1) / GNN_STORAGE_ALIGN * GNN_STORAGE_ALIGN;

  if (padded == 0)
    padded = GNN_STORAGE_ALIGN;
  g_atomic_ref_count_init (&storage->ref_count);
  if (padded >= HUGE_THRESHOLD)
    {
      padded = (padded + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
      storage->data = aligned_alloc (HUGE_ALIGN, padded);
      if (storage->data != NULL)
        madvise (storage->data, padded, MADV_HUGEPAGE);
    }
  else
    storage->data = aligned_alloc (GNN_STORAGE_ALIGN, padded);
  if (storage->data == NULL)
    {
      /* Callers turn this into a GError naming the shape. */
      g_free (storage);
      return NULL;
    }
  if (zeroed)
    memset (storage->data, 0, padded);
  storage->nbytes = nbytes;
  storage->destroy = free;
  storage->destroy_data = storage->data;
  return storage;
}

GnnStorage *
gnn_storage_new_wrap (gpointer       data,
                      gsize          nbytes,
                      GDestroyNotify destroy,
                      gpointer       destroy_data)
{
  GnnStorage *storage = g_new0 (GnnStorage, 1);

  g_atomic_ref_count_init (&storage->ref_count);
  storage->data = data;
  storage->nbytes = nbytes;
  storage->destroy = destroy;
  storage->destroy_data = destroy_data;
  return storage;
}

GnnStorage *
gnn_storage_ref (GnnStorage *storage)
{
  g_atomic_ref_count_inc (&storage->ref_count);
  return storage;
}

void
gnn_storage_unref (GnnStorage *storage)
{
  if (storage == NULL || !g_atomic_ref_count_dec (&storage->ref_count))
    return;
  if (storage->destroy != NULL)
    storage->destroy (storage->destroy_data);
  g_free (storage);
}
